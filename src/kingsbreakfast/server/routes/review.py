"""A finished game's review for one seat: each choice beside the master bot's best move.

The review itself is :func:`kingsbreakfast.bots.review.review_seat`, the same the terminal's
``kingsbreakfast review`` prints. It is served only once the game is over (409
``not_over`` before, as the record; :meth:`Master.finished` decides), because during play
it would tell a player what the master bot thinks of the position.

Anyone may ask for any seat of a finished game: the whole record is public once the game is
over (``/games/{id}/record``), so a review says nothing the record does not. Each seat's
review still uses only that seat's view at each decision, never the hidden cards, so it
judges what the player could have known; the positions it sends beside the moves (the board
the browser draws at each reviewed choice, with the reasons of the move played and of the
better one) are that same view too: the seat's own drawn cards, nobody else's, and no deck.

A review takes the master bot a few milliseconds per decision (a third of a second a seat),
so it runs in the reviews' own worker process (:mod:`..workshops`), never on the event loop
that serves every table's moves nor in a thread that sign-ins or hints need; past its bounded
queue a review is refused at once (503 ``busy``, Retry-After); and since a finished game
never changes, each (game, seat) is worked out once and kept (the last :data:`KEPT`), and
asks arriving while it is being worked out wait for that one answer.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, JsonValue

from kingsbreakfast.bots.reasons import reason
from kingsbreakfast.bots.review import BIG_LOSS, ReviewedMoveDict, SeatReview, review_seat
from kingsbreakfast.engine import Action, Record, View

from ..lobby import LobbyError
from ..master import Master
from ..workshops import REVIEWS
from .deps import MasterDep
from .errors import ERRORS
from .pages import client_page

router = APIRouter()

KEPT: Final = 2000
"""How many reviews stay in memory (a few kilobytes each)."""


class ReasonOut(BaseModel):
    """Why a move, in rules facts: a key and its parameters (as the hint's rows say it)."""

    key: str
    params: dict[str, str | int]


class PositionOut(BaseModel):
    """The board at one reviewed choice as the seat saw it (:meth:`View.to_dict` of the
    seat's own view, its game history left out: the move list says it), with the reason of
    the move played and of the master bot's best move."""

    move: int
    view: dict[str, JsonValue]
    played_reason: ReasonOut
    best_reason: ReasonOut


class SeatReviewOut(BaseModel):
    """The review as the route sends it: the seat's review, each move a
    :class:`~kingsbreakfast.bots.review.ReviewedMoveDict`, with the game's id and names."""

    id: str
    seat: int
    players: list[str]
    moves: list[ReviewedMoveDict]
    decisions: int
    forced: int
    points_lost: float
    win_lost: float
    big_losses: int
    biggest: list[int]
    """Move numbers of the costliest choices, costliest first."""
    big_loss_threshold: float
    positions: list[PositionOut]
    """One per reviewed move, in the same order."""


_kept: OrderedDict[tuple[str, int], SeatReviewOut] = OrderedDict()
_working: dict[tuple[str, int], asyncio.Task[SeatReviewOut]] = {}


def _seat(asked: str | None, players: int) -> int:
    """The seat asked for, or a refusal that names what is wrong and what is allowed."""
    text = (asked or "").strip()
    # an optional minus and ASCII digits only: int() alone would take "--1" to an error
    # and "1_0" or "١" to a seat
    if not re.fullmatch(r"-?[0-9]+", text) or not 0 <= int(text) < players:
        raise LobbyError(
            422, "bad_review_seat",
            f"there is no seat {text!r} in this game: choose a seat from 0 to {players - 1}",
            seat=text[:8], last=players - 1,
        )
    return int(text)


def _why(view: View, action: Action) -> ReasonOut:
    found = reason(view, action)
    return ReasonOut(key=found.key, params=dict(found.params))


def positions(record: Record, review: SeatReview) -> list[PositionOut]:
    """The seat's view at each reviewed decision: the record replayed to the decision, and
    ``state.view(seat)`` taken there, so nothing another seat hid is in it."""
    wanted = {move.action_index: move for move in review.moves}
    state = record.start()
    found: list[PositionOut] = []
    for index, action in enumerate(record.actions):
        move = wanted.get(index)
        if move is not None:
            view = state.view(review.seat)  # the reviewed seat's view, nothing more
            shown: dict[str, Any] = dict(view.to_dict())
            del shown["history"]
            found.append(PositionOut(
                move=move.move, view=shown, played_reason=_why(view, move.chosen),
                best_reason=_why(view, move.best),
            ))
        state.apply(action)
    return found


def _answer(
    game_id: str, names: list[str], review: SeatReview, record: Record,
) -> SeatReviewOut:
    data = review.to_dict()
    return SeatReviewOut(
        id=game_id, seat=data["seat"], players=names,
        moves=data["moves"],
        decisions=data["decisions"], forced=data["forced"], points_lost=data["points_lost"],
        win_lost=data["win_lost"], big_losses=data["big_losses"], biggest=data["biggest"],
        big_loss_threshold=BIG_LOSS, positions=positions(record, review),
    )


async def seat_review(master: Master, game_id: str, asked: str | None) -> SeatReviewOut:
    """The review of the asked seat of a finished game (see the module's docstring)."""
    text = (asked or "").strip()
    # ASCII digits only, as _seat takes them: str.isdigit() would pass "²" (which int()
    # refuses) and "١" (which int() reads as 1, a seat _seat refuses)
    found = _kept.get((game_id, int(text))) if re.fullmatch(r"[0-9]+", text) else None
    if found is not None:
        _kept.move_to_end((game_id, found.seat))
        return found
    # the game's loading and replay count as the review's work: a flood is refused (503
    # ``busy``) before it costs the event loop and the database's thread anything
    with REVIEWS.taken():
        state, names = await master.finished(game_id)  # 404 unknown, 409 while it is played
        seat = _seat(asked, len(names))
        key = (game_id, seat)
        working = _working.get(key)
        if working is None:  # one task per (game, seat); it goes on if the asker goes away
            working = asyncio.create_task(
                _work(game_id, names, Record.from_state(state, names), seat)
            )
            _working[key] = working
            working.add_done_callback(lambda done: _finished(key, done))
        return await asyncio.shield(working)


async def _work(game_id: str, names: list[str], record: Record, seat: int) -> SeatReviewOut:
    answer = _answer(game_id, names, await REVIEWS.work(review_seat, record, seat), record)
    _kept[game_id, seat] = answer
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return answer


def _finished(key: tuple[str, int], done: asyncio.Task[SeatReviewOut]) -> None:
    _working.pop(key, None)
    if not done.cancelled():
        done.exception()  # seen here, so a failure nobody waited for is not reported twice


@router.get("/api/games/{game_id}/review", response_model=SeatReviewOut, responses=ERRORS,
            tags=["archive"])
async def review(
    game_id: str, master: MasterDep,
    seat: Annotated[str | None, Query(max_length=8)] = None,
) -> SeatReviewOut:
    """One seat's choices in a finished game, each beside the master bot's best move from
    what that seat could see then, with the points and win chance each gave up; any seat
    may be asked for, once the game is over (409 ``not_over`` before, 422
    ``bad_review_seat`` for a seat the game does not have)."""
    return await seat_review(master, game_id[:40], seat)


def review_page(request: Request) -> Response:
    return client_page(request)


router.get("/review/{game_id}", include_in_schema=False)(review_page)
