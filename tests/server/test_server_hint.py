"""The browser's hint: a seated player's legal moves valued by the master bot, on their turn
only, from their own view."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("numpy")

from fastapi.testclient import TestClient

from kingsbreakfast.bots.hint import utility
from kingsbreakfast.server.app import create_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as test_client:
        yield test_client


def test_the_hint_ranks_my_legal_moves_on_my_turn_only(client: TestClient) -> None:
    grant = client.post("/api/tables", json={"name": "Ann", "seats": 3,
                                             "bot_level": "random"}).json()
    table_id, token = grant["table"]["id"], grant["token"]
    path = f"/api/tables/{table_id}/hint"
    early = client.post(path, headers={"x-seat-token": token})
    assert early.status_code == 409 and early.json()["error"]["code"] == "no_hint"
    client.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": token})
    assert client.post(path, headers={"x-seat-token": "wrong"}).status_code == 403
    with client.websocket_connect(f"/ws/tables/{table_id}") as me:
        me.send_json({"type": "hello", "token": token})
        frame: dict[str, Any] = me.receive_json()
        while frame["type"] != "state" or frame["view"]["to_move"] != 0:
            frame = me.receive_json()
        reply = client.post(path, headers={"x-seat-token": token})
        assert reply.status_code == 200, reply.text
        rows = reply.json()
        assert sorted(r["action"] for r in rows) == sorted(frame["view"]["legal"])
        # best first by the expected R12 result, then the points (R12)
        worth = [utility(r["win_chance"], r["expected_points"]) for r in rows]
        assert worth == sorted(worth, reverse=True) and rows[0]["behind"] == 0.0
