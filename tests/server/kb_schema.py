"""An empty database for a test or a benchmark run, whatever the migrations have made.

The tables are read from the database itself rather than listed here, so a new migration
needs no edit in the tests or benchmarks that start from nothing."""

from __future__ import annotations

from sqlalchemy import MetaData, create_engine

from kingsbreakfast.server.storage import Storage, normalize_url


def empty_database(url: str) -> str:
    """Drop every table, ``alembic_version`` included, so no game of an earlier run is
    resumed; the foreign keys decide the order."""
    engine = create_engine(normalize_url(url))
    try:
        tables = MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
    finally:
        engine.dispose()
    return url


def fresh_schema(url: str) -> None:
    """An empty database migrated to the newest revision."""
    empty_database(url)
    storage = Storage(url)
    storage.migrate()
    storage.dispose()
