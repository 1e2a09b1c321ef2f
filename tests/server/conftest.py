"""Fixtures for the server tests: a database per test (SQLite always, PostgreSQL when
``KINGSBREAKFAST_TEST_POSTGRES_URL`` names one; CI starts it with scripts/ci-services.sh)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from sqlalchemy import create_engine, text

from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.storage import Storage, normalize_url
from kingsbreakfast.server.store import GameStore
from server.kb_schema import empty_database


def _worker_database(url: str | None) -> str | None:
    """The PostgreSQL database of this test process: the one named, or under pytest-xdist a
    database of the worker's own beside it (``kingsbreakfast_test_gw1``), made when missing,
    since tests empty the whole database they use. Later processes this one starts (servers,
    benchmarks) are given the same through the environment."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if name.endswith(f"_{worker}"):  # this module imported twice, or a process it started
        return url
    name = f"{name}_{worker}"
    engine = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            known = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if known is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    own = urlunsplit(parts._replace(path=f"/{name}"))
    os.environ["KINGSBREAKFAST_TEST_POSTGRES_URL"] = own
    return own


POSTGRES_URL = _worker_database(os.environ.get("KINGSBREAKFAST_TEST_POSTGRES_URL"))


def _database_url(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    if not POSTGRES_URL:
        pytest.skip("KINGSBREAKFAST_TEST_POSTGRES_URL is not set (CI sets it)")
    return empty_database(POSTGRES_URL)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every storage-backed test runs on both databases."""
    return _database_url(request.param, tmp_path)


@pytest.fixture
def postgres_url(tmp_path: Path) -> str:
    """An empty PostgreSQL database, for what only a cluster on PostgreSQL does."""
    return _database_url("postgresql", tmp_path)


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def game_store(request: pytest.FixtureRequest, tmp_path: Path) -> GameStore:
    """Every store behind the ``GameStore`` protocol: the SQL one on both databases, and the
    in-memory one the tests of a single process may use."""
    if request.param == "memory":
        return MemoryStore()
    storage = Storage(_database_url(request.param, tmp_path))
    storage.migrate()
    return storage


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"
