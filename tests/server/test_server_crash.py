"""``kill -9`` the server mid-game, start it again: every acknowledged action is still there,
the game finishes from the database, and all 110 cards are accounted for."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from kingsbreakfast.engine import Action, replay
from server.kb_live import LiveServer


@contextmanager
def hello(server: LiveServer, table_id: str, token: str) -> Iterator[ClientConnection]:
    with connect(f"{server.ws_base}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        yield ws


def next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.recv(timeout=20))
        if frame["type"] == "state":
            return frame


def my_move(ws: ClientConnection, frame: dict[str, Any], rng: random.Random) -> None:
    action = Action.parse(rng.choice(frame["view"]["legal"]))
    ws.send(json.dumps({"type": "act", "version": frame["version"], "action": action.to_record()}))


def test_kill_dash_nine_loses_no_acknowledged_action(db_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = LiveServer(db_url, bot_delay=0.005, log_path=log).start()
    rng = random.Random(17)
    try:
        status, grant = server.request(
            "POST", "/api/tables", {"name": "Ann", "seats": 4, "bot_level": "random"}
        )
        assert status == 201
        table_id, token = grant["table"]["id"], grant["token"]
        assert server.request("POST", f"/api/tables/{table_id}/start", token=token)[0] == 200
        acknowledged: list[dict[str, Any]] = []  # the history as last acknowledged to us
        with hello(server, table_id, token) as ws:
            own_moves = 0
            frame = next_state(ws)
            while own_moves < 6:
                if frame["view"]["to_move"] == 0:
                    my_move(ws, frame, rng)
                    own_moves += 1
                frame = next_state(ws)
            acknowledged = frame["view"]["history"]
            # bots are playing right now (no delay to speak of): the kill lands mid-game
            server.kill9()
    finally:
        server.stop()

    restarted = LiveServer(db_url, bot_delay=0.005, log_path=log, port=server.port).start()
    try:
        with hello(restarted, table_id, token) as ws:
            frame = next_state(ws)
            history = frame["view"]["history"]
            assert history[: len(acknowledged)] == acknowledged
            while frame["view"]["to_move"] is not None:
                if frame["view"]["to_move"] == 0:
                    my_move(ws, frame, rng)
                frame = next_state(ws)
            assert frame["view"]["history"][: len(acknowledged)] == acknowledged
        status, record = restarted.request("GET", f"/games/{table_id}/record")
        assert status == 200
        state = replay(record)
        assert state.is_over
        counts = state.card_counts()
        assert counts["unaccounted"] == 0
        assert sum(counts.values()) == 110, counts
        total = (
            state.deck_size + sum(state.table) + state.table_dragons + sum(state.king)
            + sum(sum(h) for h in state.hands) + state.removed
        )
        assert total == 110, counts
        assert [
            {"seat": t.seat, **t.action.to_record()} for t in state.history
        ][: len(acknowledged)] == acknowledged
    finally:
        restarted.stop()
