"""Connecting to the database: the URL's spelling, how long a PostgreSQL session may wait
(:class:`DatabaseWaits`), what every SQLite connection is set to, who may read the SQLite
file, and the one way a transaction is run (:func:`unit_of_work`), whose failures become
:class:`~.store.StorageError`. :class:`~.storage.Storage` and :class:`~.account_store.AccountStore`
both connect through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from .store import StorageError


def normalize_url(url: str) -> str:
    """Accept the everyday ``postgresql://`` spelling and route it to psycopg 3."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


@dataclass(frozen=True, slots=True)
class DatabaseWaits:
    """How long a PostgreSQL session may wait, in seconds (0: without end), set on every
    connection of the pool so that no process can stall another for ever.

    ``lock``: a statement waiting for a row another session holds gives up (and the call
    answers ``storage_unavailable``, retryable) instead of waiting on a stalled holder.
    ``statement``: no statement of ours comes near it; a runaway one is cancelled.
    ``idle_in_transaction``: a session that opened a transaction and then stopped talking
    (a process paused by SIGSTOP or a debugger, frozen between its ``UPDATE leases`` and
    the commit) is ended by the server, its transaction rolled back and its row locks
    freed; so another process takes its tables once the unrenewed lease has run out. Our
    transactions never sit idle: each is a few statements run back to back in one thread.
    The migration at start-up lifts the first two for its own transaction (other processes
    wait for it on a lock, as long as it takes)."""

    lock: float = 3.0
    statement: float = 30.0
    idle_in_transaction: float = 5.0

    ENV: ClassVar[dict[str, str]] = {
        "lock": "KINGSBREAKFAST_DB_LOCK_TIMEOUT",
        "statement": "KINGSBREAKFAST_DB_STATEMENT_TIMEOUT",
        "idle_in_transaction": "KINGSBREAKFAST_DB_IDLE_TIMEOUT",
    }

    @classmethod
    def from_env(cls) -> DatabaseWaits:
        """The defaults, or what the environment (``kingsbreakfast serve``'s options) says."""
        given = {field: os.environ.get(name) for field, name in cls.ENV.items()}
        return cls(**{field: float(value) for field, value in given.items() if value})

    def options(self) -> str:
        """The libpq ``options`` that set them at connection time (milliseconds)."""
        return " ".join(
            f"-c {setting}={round(seconds * 1000)}"
            for setting, seconds in (
                ("lock_timeout", self.lock), ("statement_timeout", self.statement),
                ("idle_in_transaction_session_timeout", self.idle_in_transaction),
            )
        )


def sqlite_pragmas(busy_ms: int) -> Callable[[Any, Any], None]:
    """The settings every SQLite connection gets as it opens."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # WAL lets readers run beside the writer; NORMAL sync is durable against a process
        # crash (kill -9), which is the failure we promise to survive.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cursor.close()

    return on_connect


def owner_only(url: str) -> None:
    """The SQLite file holds the decks of running games: create it readable by its owner
    alone (SQLite gives its WAL and shared-memory files the database file's mode), and
    narrow an existing file and its companions that were created wider."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path, path + "-wal", path + "-shm"):
        with suppress(FileNotFoundError):
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)



@contextmanager
def unit_of_work(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """One transaction: committed when the block ends, rolled back when it raises. The
    database's own exceptions become :class:`StorageError`, so callers (and the players'
    ``storage_unavailable`` answer) never depend on the driver in use."""
    session = sessions()
    try:
        yield session
        session.commit()
    except StorageError:
        session.rollback()
        raise
    except SQLAlchemyError as error:
        session.rollback()
        raise StorageError(f"the database refused the change: {type(error).__name__}") from (
            error
        )
    finally:
        session.close()
