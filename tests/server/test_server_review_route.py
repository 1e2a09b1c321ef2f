"""The review route's edges: every malformed seat refused with its own words, and the kept
reviews bounded, the oldest let go first (server/routes/review.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from fastapi.testclient import TestClient

from kingsbreakfast.server.routes import review as review_route
from server.test_server_review import client, play_out, started_table

__all__ = ["client"]  # the fixture, shared with the route's main tests


def test_every_malformed_seat_is_refused_naming_the_seats_there_are(
    client: TestClient,
) -> None:
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    for bad in ("1-", "--1", "-", "1_0", "١", "+1", "3"):
        reply = client.get(f"/api/games/{table_id}/review", params={"seat": bad})
        assert reply.status_code == 422, (bad, reply.text)
        error = reply.json()["error"]
        assert error["code"] == "bad_review_seat"
        assert error["params"] == {"seat": bad, "last": 2}
        assert error["message"] == (
            f"there is no seat {bad!r} in this game: choose a seat from 0 to 2"
        )
    assert client.get(f"/api/games/{table_id}/review", params={"seat": " 1 "}).status_code == 200


def test_the_kept_reviews_are_bounded_and_the_oldest_goes_first(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_route, "KEPT", 2)
    monkeypatch.setattr(review_route, "_kept", type(review_route._kept)())
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    for seat in (0, 1, 2):
        assert client.get(f"/api/games/{table_id}/review?seat={seat}").status_code == 200
    assert list(review_route._kept) == [(table_id, 1), (table_id, 2)]
    assert not review_route._working  # each working-out is forgotten once it is done


def test_a_table_still_in_the_lobby_is_not_reviewed_by_the_process_that_holds_it(
    client: TestClient,
) -> None:
    """Before its game starts a table has no game to review: its holder refuses it as it
    refuses a running game (409 ``not_over``), the record alike."""
    grant = client.post("/api/tables", json={"name": "Ann", "seats": 3,
                                             "bot_level": "random"}).json()
    table_id = grant["table"]["id"]
    for path in (f"/api/games/{table_id}/review?seat=1", f"/games/{table_id}/record"):
        refused = client.get(path)
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "not_over")
