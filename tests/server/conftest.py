"""Fixtures for the server tests: a database per test (SQLite always, PostgreSQL when
``KINGSBREAKFAST_TEST_POSTGRES_URL`` names one; CI starts it with scripts/ci-services.sh)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from kingsbreakfast.server.storage import normalize_url

POSTGRES_URL = os.environ.get("KINGSBREAKFAST_TEST_POSTGRES_URL")


def _fresh_postgres(url: str) -> str:
    """Empty the test database so no table of an earlier test is resumed."""
    engine = create_engine(normalize_url(url))
    with engine.begin() as connection:
        connection.execute(
            text("DROP TABLE IF EXISTS leases, actions, seats, games, alembic_version")
        )
    engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Every storage-backed test runs on both databases."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        if not POSTGRES_URL:
            pytest.skip("KINGSBREAKFAST_TEST_POSTGRES_URL is not set (CI sets it)")
        yield _fresh_postgres(POSTGRES_URL)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"
