"""Tools of the attacks on the people features (follow, block, challenges, tournaments,
notices, account deletion): a real server process on SQLite or PostgreSQL, and accounts
each registered from a loopback address of its own, so no attack pays a proof of work or
meets the hour's ceiling of registrations meant for one machine.

Hidden information is checked the way a spectator would meet it: any answer of these
routes is searched for the words that only a seat's own view or the server's record holds.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from server.conftest import POSTGRES_URL
from server.kb_browser import Browser
from server.kb_live import LiveServer
from server.kb_schema import empty_database

_addresses = itertools.count(1)
SECRET_WORDS = ("draws", "initial_deck", "remaining_deck", "token_hash", "deck_order",
                "\"deck\": [", "\"hands\"", "seat_token", "p256dh")
"""What no answer to a page other than a seat's own play socket may ever carry."""


def live_server(kind: str, folder: Path, *extra: str) -> LiveServer:
    """A ``kingsbreakfast serve`` on an empty database of ``kind``."""
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'games.db'}"
    else:
        if not POSTGRES_URL:
            pytest.skip("KINGSBREAKFAST_TEST_POSTGRES_URL is not set (CI sets it)")
        url = empty_database(POSTGRES_URL)
    return LiveServer(
        url, bot_delay=0.0, zombie_grace=600.0, log_path=folder / "server.log",
        extra=("--tables-per-minute", "600", *extra),
    ).start()


def server_fixture(label: str) -> Any:
    """A module's server, once on SQLite and once on PostgreSQL."""

    @pytest.fixture(scope="module", params=["sqlite", "postgresql"])
    def server(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
        live = live_server(request.param, tmp_path_factory.mktemp(label))
        yield live
        live.stop()

    return server


def fresh_address() -> str:
    number = next(_addresses)
    return f"127.41.{number // 250}.{number % 250 + 1}"


def member(server: LiveServer, name: str) -> Browser:
    """A new account, logged in, on a machine of its own."""
    browser = Browser(server, fresh_address())
    status, body = browser.register(name)
    assert status == 201, body
    return browser


def code(reply: tuple[int, Any]) -> tuple[int, str]:
    """A refusal as (status, error code)."""
    status, body = reply
    return status, body["error"]["code"] if isinstance(body, dict) and "error" in body else ""


def secrets_in(answer: Any) -> list[str]:
    """The words of hidden information found in an answer (empty: none)."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return [word for word in SECRET_WORDS if word in text]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def keys() -> dict[str, str]:
    """A browser's push subscription keys: a P-256 public point and a 16-byte secret."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64(point), "auth": b64(os.urandom(16))}
