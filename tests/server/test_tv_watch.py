"""Watching what the TV shows: the featured game's frames, as the TV page receives them (the
play socket, a hello without a token), are the engine's spectator view and nothing more,
never another seat's drawn cards nor the deck's order; a play-now game is watchable once
dealt (on the TV, in the lobby's list, over a spectator's socket)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.engine import Action, Rules, State
from kingsbreakfast.server.app import create_app
from server.kb_play_now import Player as Browser
from server.kb_play_now import Site, dealt, start_site


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # bots move at once; the host is never played for while away (the test plays its seat)
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.0, zombie_grace=3600.0)
    with TestClient(app) as test_client:
        yield test_client


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def spectator_views(client: TestClient, table_id: str) -> set[str]:
    """The engine's spectator view after each action of the finished game, from its store."""
    record = client.app.state.master.storage.load(table_id)  # type: ignore[attr-defined]
    assert record is not None and record.deck is not None
    state = State(record.deck, record.num_seats, record.first_cook,
                  Rules.from_dict(record.rules))
    views = {canon(state.view(None).to_dict())}
    for seat, action in record.actions:
        state.play(Action(action), seat=seat)
        views.add(canon(state.view(None).to_dict()))
    return views


def test_the_tvs_frames_carry_no_hidden_card(client: TestClient) -> None:
    grant = client.post("/api/tables", json={"name": "Host", "seats": 4,
                                             "bot_level": "random"}).json()
    table_id, token = grant["table"]["id"], grant["token"]
    assert client.post(f"/api/tables/{table_id}/start",
                       headers={"x-seat-token": token}).status_code == 200
    featured = client.get("/api/tv").json()["featured"]
    assert featured["id"] == table_id
    watched: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{featured['id']}") as tv, \
            client.websocket_connect(f"/ws/tables/{table_id}") as host:
        tv.send_json({"type": "hello", "token": None})  # as the TV page says hello
        host.send_json({"type": "hello", "token": token})
        over = False
        for _ in range(5000):  # the host plays its first legal move on each turn
            frame = host.receive_json()
            if frame["type"] != "state" or frame["view"] is None:
                continue
            if frame["score"] is not None:
                over = True
                break
            if frame["view"]["to_move"] == 0 and frame["view"]["legal"]:
                words = frame["view"]["legal"][0].split()
                action: dict[str, Any] = {"type": words[0]}
                if words[0] == "take":
                    action["dish"] = words[1]
                elif words[0] == "feed":
                    action["dishes"] = words[1:]
                host.send_json({"type": "act", "version": frame["version"], "action": action})
        assert over, "the game did not end"
        while not watched or watched[-1].get("score") is None:
            watched.append(tv.receive_json())
    states = [f for f in watched if f["type"] == "state" and f["view"] is not None]
    assert len(states) > 10 and all(f["you"] is None for f in states)
    views = spectator_views(client, table_id)
    for frame in states:
        view = frame["view"]
        assert canon(view) in views  # exactly the spectator's view at some step
        assert isinstance(view["deck"], int)  # a count, never the order
        if frame["score"] is None:  # before the end, nobody's draws are shown (R10)
            assert all(set(hand) == {"takes", "hidden"} for hand in view["hands"])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    live = start_site("sqlite", tmp_path_factory.mktemp("tv-play-now"), None)
    yield live
    live.stop()


def test_a_play_now_game_is_watchable_once_dealt(site: Site) -> None:
    players = [Browser(site) for _ in range(3)]
    viewer = Browser(site)

    async def main() -> tuple[str, dict[str, Any]]:
        answers = [p.play_now(f"Stranger {n}", 3) for n, p in enumerate(players)]
        assert all(status == 201 for status, _ in answers), answers
        (table_id,) = {body["table"] for _, body in answers}
        _, waiting = viewer.call("GET", "/api/tv")
        assert table_id not in [t["id"] for t in waiting["tables"]]  # still gathering
        _, lobby = viewer.call("GET", "/api/tables")
        assert table_id not in [t["id"] for t in lobby]  # the pool seats it, not the lobby
        await asyncio.gather(*(p.sit(table_id) for p in players))
        await asyncio.gather(*(p.state(dealt) for p in players))
        await viewer.sit(table_id)  # no seat of its own: a spectator
        frame = await viewer.state(dealt)
        for player in (*players, viewer):
            await player.close()
        return table_id, frame

    table_id, frame = asyncio.run(main())
    assert frame["you"] is None
    assert all(set(hand) == {"takes", "hidden"} for hand in frame["view"]["hands"])
    _, tv = viewer.call("GET", "/api/tv")
    assert tv["featured"]["id"] == table_id
    assert [t["id"] for t in tv["tables"]] == [table_id]
    assert [s["name"] for s in tv["tables"][0]["seats"]] == [f"Stranger {n}" for n in range(3)]
    _, lobby = viewer.call("GET", "/api/tables")
    assert [(t["id"], t["status"]) for t in lobby] == [(table_id, "playing")]
