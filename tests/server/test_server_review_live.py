"""The review through real server processes sharing one PostgreSQL database: a process that
does not hold a running game serves neither its review nor its record (the guard in
``Master.finished``: the store's copy of a running game is not over), and a finished game's
review judges each move from the reviewed seat's view alone, never another's hidden cards
(R7)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("numpy")

from websockets.sync.client import connect

from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.engine import Action, replay, sample_world
from server.kb_live import LiveServer


def finish(server: LiveServer, table_id: str, token: str) -> None:
    """Play seat 0 (the first legal action) until the game is over; the bots play at once."""
    with connect(f"{server.ws_base}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["to_move"] is None:
                return
            if view["to_move"] == 0:
                action = Action.parse(view["legal"][0])
                ws.send(json.dumps({"type": "act", "version": frame["version"],
                                    "action": action.to_record()}))


def test_only_a_finished_game_is_reviewed_and_only_from_the_seat_s_view(
    postgres_url: str,
) -> None:
    holder = LiveServer(postgres_url).start()
    other = LiveServer(postgres_url).start()
    try:
        status, grant = holder.request(
            "POST", "/api/tables", {"name": "Ann", "seats": 3, "bot_level": "random"})
        assert status == 201
        table_id, token = grant["table"]["id"], grant["token"]
        started = holder.request("POST", f"/api/tables/{table_id}/start", token=token)
        assert started[0] == 200
        # running (seat 0 has not moved): no process serves its review or its record
        for server in (holder, other):
            for path in (f"/api/games/{table_id}/review?seat=1", f"/games/{table_id}/record"):
                status, body = server.request("GET", path)
                assert (status, body["error"]["code"]) == (409, "not_over"), (server.port, path)
        finish(holder, table_id, token)
        status, record = other.request("GET", f"/games/{table_id}/record")
        assert status == 200
        status, review = other.request("GET", f"/api/games/{table_id}/review?seat=1")
        assert status == 200
    finally:
        other.stop()
        holder.stop()
    state = replay(record)
    # at each of seat 1's decisions: the row names the seat's view, and its numbers are the
    # ranking of that view, which another deal of the others' hidden cards leaves alike
    rows = {row["action_index"]: row for row in review["moves"]}
    assert rows
    rng = random.Random(5)
    walk = replay({**record, "actions": []})
    for index, action in enumerate(record["actions"]):
        if index in rows:
            view = walk.view(1)
            row = rows[index]
            assert row["position"] == view.to_text()
            others = [h for seat, h in enumerate(view.hands) if seat != 1]
            assert all(h.draws is None for h in others)  # while the game goes on (R7)
            assert row["position"].count("?") == len(others)
            ranking = rank_actions(sample_world(view, rng).view(1))
            mine = next(e for e in ranking if str(e.action) == row["action"])
            assert row["best"] == str(ranking[0].action)
            assert row["expected_points"] == pytest.approx(mine.expected_points)
            assert row["win_chance"] == pytest.approx(mine.win_chance)
        walk.play(Action.from_record(action))
    assert walk == state
