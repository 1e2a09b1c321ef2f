"""Fixtures for the server tests: a database per test (SQLite always, PostgreSQL when
``KINGSBREAKFAST_TEST_POSTGRES_URL`` names one; CI starts it with scripts/ci-services.sh)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import GameStore
from server.kb_schema import empty_database

POSTGRES_URL = os.environ.get("KINGSBREAKFAST_TEST_POSTGRES_URL")


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
