"""The review route: a finished game's choices of one seat, never before the game is over,
worked out off the event loop and once per (game, seat)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("numpy")

from fastapi.testclient import TestClient

from kingsbreakfast.bots import review as review_module
from kingsbreakfast.bots.reasons import Reason, reason
from kingsbreakfast.bots.review import review_seat
from kingsbreakfast.engine import Action, View, read_record
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.routes import review as review_route
from kingsbreakfast.server.workshops import REVIEWS


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as test_client:
        yield test_client


def started_table(client: TestClient) -> tuple[str, str]:
    grant = client.post("/api/tables", json={"name": "Ann", "seats": 3,
                                             "bot_level": "random"}).json()
    table_id, token = grant["table"]["id"], grant["token"]
    client.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": token})
    return table_id, token


def play_out(client: TestClient, table_id: str, token: str) -> None:
    """Play seat 0 (the first legal action each turn) until the game is over."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as me:
        me.send_json({"type": "hello", "token": token})
        frame: dict[str, Any] = me.receive_json()
        for _ in range(600):
            if frame["type"] == "state" and frame["view"]["to_move"] is None:
                return
            if frame["type"] == "state" and frame["view"]["to_move"] == 0:
                words = frame["view"]["legal"][0].split()
                body: dict[str, Any] = {"type": words[0]}
                if words[0] == "take":
                    body["dish"] = words[1]
                elif words[0] == "feed":
                    body["dishes"] = words[1:]
                me.send_json({"type": "act", "version": frame["version"], "action": body})
            frame = me.receive_json()
    raise AssertionError("the game did not end")


def test_nothing_is_reviewed_before_the_game_is_over(client: TestClient) -> None:
    table_id, _token = started_table(client)
    for seat in ("0", "1", "9", None):
        path = f"/api/games/{table_id}/review" + ("" if seat is None else f"?seat={seat}")
        refused = client.get(path)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "not_over"
        assert "moves" not in refused.text
    unknown = client.get("/api/games/nothing/review?seat=0")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "no_table"


def test_a_finished_game_is_reviewed_for_any_seat_as_the_terminal_does(
    client: TestClient,
) -> None:
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    record = read_record(client.get(f"/games/{table_id}/record").content)
    for seat in range(3):
        reply = client.get(f"/api/games/{table_id}/review?seat={seat}")
        assert reply.status_code == 200, reply.text
        data = reply.json()
        expected = review_seat(record, seat).to_dict()
        assert data["seat"] == seat and data["id"] == table_id
        assert data["players"] == list(record.players)
        assert data["moves"] == expected["moves"] and data["moves"]
        for key in ("decisions", "forced", "points_lost", "win_lost", "big_losses", "biggest"):
            assert data[key] == expected[key], key
        assert data["big_loss_threshold"] == review_module.BIG_LOSS
    page = client.get(f"/review/{table_id}?seat=1")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_a_seat_the_game_lacks_is_refused_naming_the_seats_it_has(client: TestClient) -> None:
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    for bad in ("3", "-1", "x", "", "1.5"):
        reply = client.get(f"/api/games/{table_id}/review?seat={bad}")
        assert reply.status_code == 422, (bad, reply.text)
        error = reply.json()["error"]
        assert error["code"] == "bad_review_seat"
        assert error["params"] == {"seat": bad, "last": 2}
    missing = client.get(f"/api/games/{table_id}/review")
    assert missing.status_code == 422 and missing.json()["error"]["params"]["last"] == 2
    too_long = client.get(f"/api/games/{table_id}/review?seat=" + "1" * 20)
    assert too_long.status_code == 422


def test_a_review_is_worked_out_in_its_own_process_once_per_game_and_seat(
    client: TestClient,
) -> None:
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    before = REVIEWS.done
    first = client.get(f"/api/games/{table_id}/review?seat=2").json()
    again = client.get(f"/api/games/{table_id}/review?seat=2").json()
    other = client.get(f"/api/games/{table_id}/review?seat=1").json()
    assert first == again and other["seat"] == 1
    assert REVIEWS.done - before == 2  # seat 2 once, seat 1 once
    # the reviews' worker is a process of its own: never the event loop's, nor its lock's
    worker = client.portal.call(REVIEWS.run, os.getpid)  # type: ignore[union-attr]
    assert worker != os.getpid()


def test_the_openapi_schema_describes_the_review(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/review" in schema["paths"]
    assert "SeatReviewOut" in schema["components"]["schemas"]


def test_asks_that_arrive_together_share_one_working_out(client: TestClient) -> None:
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    before = REVIEWS.done

    async def together() -> list[Any]:
        master = client.app.state.master  # type: ignore[attr-defined]
        return list(await asyncio.gather(
            *(review_route.seat_review(master, table_id, seat) for seat in "11121")))

    answers = client.portal.call(together)  # type: ignore[union-attr]
    # seat 1 once for its four asks, seat 2 apart: never another seat's working-out
    assert REVIEWS.done - before == 2 and [answer.seat for answer in answers] == [1, 1, 1, 2, 1]
    assert all(answers[i] == answers[0] for i in (1, 2, 4))
    assert not review_route._working  # nothing left behind once it is done


def test_each_reviewed_choice_comes_with_its_position_as_that_seat_saw_it(
    client: TestClient,
) -> None:
    """The board beside each reviewed choice is the seat's own view (its drawn cards, no one
    else's, the deck by its size only) and the reasons of the move played and of the best."""
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    record = read_record(client.get(f"/games/{table_id}/record").content)
    for seat in range(3):
        data = client.get(f"/api/games/{table_id}/review?seat={seat}").json()
        positions = data["positions"]
        assert [p["move"] for p in positions] == [m["move"] for m in data["moves"]]
        state = record.start()
        seen: dict[int, View] = {}
        for index, action in enumerate(record.actions):
            seen[index] = state.view(seat)
            state.apply(action)
        for position, move in zip(positions, data["moves"], strict=True):
            view = position["view"]
            assert view["seat"] == seat and view["to_move"] == seat
            assert "history" not in view and isinstance(view["deck"], int)
            for other, hand in enumerate(view["hands"]):
                assert ("draws" in hand) == (other == seat)  # another's draws: never
            # the same view the seat had: the record replayed to the move
            had = seen[move["action_index"]]
            expected = dict(had.to_dict())
            del expected["history"]
            assert view == expected
            # each reason is the one the hint gives for that move from that view
            assert position["played_reason"] == as_sent(reason(had, Action.parse(move["action"])))
            assert position["best_reason"] == as_sent(reason(had, Action.parse(move["best"])))


def as_sent(found: Reason) -> dict[str, Any]:
    """A reason as the route's JSON carries it."""
    return {"key": found.key, "params": dict(found.params)}
