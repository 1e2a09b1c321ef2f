"""The review route's edges: every malformed seat refused with its own words, the kept
reviews bounded, the least recently asked let go first, found again by the seat's ASCII
digits alone, served even while the reviews' workshop is full, and worked out to the end
though the asker goes away (server/routes/review.py)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("numpy")

from fastapi.testclient import TestClient

from kingsbreakfast.server.routes import review as review_route
from kingsbreakfast.server.routes.review import SeatReviewOut
from kingsbreakfast.server.workshops import REVIEWS
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
    # a kept review asked again is the last to go: seat 1 stays, seat 2 makes way for 0
    assert client.get(f"/api/games/{table_id}/review?seat=1").status_code == 200
    assert client.get(f"/api/games/{table_id}/review?seat=0").status_code == 200
    assert list(review_route._kept) == [(table_id, 1), (table_id, 0)]


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


def test_a_kept_review_is_found_by_its_seat_in_ascii_digits_and_by_nothing_else(
    client: TestClient,
) -> None:
    """Leading zeros and blanks name the same kept seat (no second working-out); other
    digits (superscripts, Arabic-Indic) are no seat at all, kept review or not: refused
    with the same words as before anything was kept, never the kept seat 1 nor a crash."""
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    first = client.get(f"/api/games/{table_id}/review?seat=1").json()
    before = REVIEWS.done
    for same in ("01", " 1 ", "00000001"):
        reply = client.get(f"/api/games/{table_id}/review", params={"seat": same})
        assert (reply.status_code, reply.json()) == (200, first), same
    assert REVIEWS.done == before  # each was the kept review
    for bad in ("١", "¹", "²"):
        reply = client.get(f"/api/games/{table_id}/review", params={"seat": bad})
        assert reply.status_code == 422, (bad, reply.text)
        assert reply.json()["error"]["params"] == {"seat": bad, "last": 2}


def test_a_full_review_workshop_refuses_at_once_yet_serves_what_it_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the workshop's places a review that needs working out (or even the game's
    loading) is refused with 503 ``busy`` and HTTP's Retry-After; a kept one costs
    nothing and is still served."""
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    kept = client.get(f"/api/games/{table_id}/review?seat=0")
    assert kept.status_code == 200
    monkeypatch.setattr(REVIEWS, "in_hand", REVIEWS.workers + REVIEWS.waiting)
    for path in (f"/api/games/{table_id}/review?seat=1", "/api/games/nothing/review?seat=0"):
        refused = client.get(path)
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "busy"
        assert refused.json()["error"]["params"] == {"work": "reviews", "retry_after": 10.0}
        assert refused.headers["retry-after"] == "10"
    again = client.get(f"/api/games/{table_id}/review?seat=0")
    assert (again.status_code, again.json()) == (200, kept.json())


def test_an_asker_that_goes_away_leaves_the_working_out_to_the_next(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working-out is shielded from its asker: one that leaves (a closed tab) cancels
    only its own wait, and the next ask gets the same working-out, not a second one."""
    table_id, token = started_table(client)
    play_out(client, table_id, token)
    before = REVIEWS.done

    noted = asyncio.Event()

    class Noting(dict[tuple[str, int], "asyncio.Task[SeatReviewOut]"]):
        """The route's table of working-outs, telling the test when one is made."""

        def __setitem__(self, key: tuple[str, int], task: asyncio.Task[SeatReviewOut]) -> None:
            super().__setitem__(key, task)
            noted.set()

    monkeypatch.setattr(review_route, "_working", Noting())

    async def one_leaves() -> SeatReviewOut:
        master = client.app.state.master  # type: ignore[attr-defined]
        leaving = asyncio.create_task(review_route.seat_review(master, table_id, "2"))
        made = asyncio.create_task(noted.wait())
        await asyncio.wait({leaving, made}, return_when=asyncio.FIRST_COMPLETED)
        assert noted.is_set() and not leaving.done()  # its working-out is made, it waits
        working = review_route._working[table_id, 2]
        leaving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await leaving
        answer = await review_route.seat_review(master, table_id, "2")
        assert not working.cancelled() and answer is working.result()
        return answer

    answer = client.portal.call(one_leaves)  # type: ignore[union-attr]
    assert answer.seat == 2 and answer.moves
    assert REVIEWS.done - before == 1
