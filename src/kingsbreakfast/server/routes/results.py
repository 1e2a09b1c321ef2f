"""How finished games ended, for the lists that show them (the lobby's finished games, an
account's "My games"): when each ended, every seat's points and discards, and the winners.

A game's result is public once it is over (its whole record is), so any finished game may be
asked for by id; a table still in play or unknown is simply left out of the answer. Results
never change, so each is worked out once (by replaying the stored game) and kept.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from ..lobby import LobbyError
from ..master import Master
from ..tables import OVER
from .deps import MasterDep
from .errors import ERRORS

router = APIRouter()

MAX_IDS = 60
"""The most games one call asks about (the lists show 50)."""
KEPT = 2000
"""How many results stay in memory (a few hundred bytes each)."""


class GameResult(BaseModel):
    id: str
    finished_at: str | None
    """ISO 8601 with the time zone."""
    scores: list[int]
    discarded: list[int]
    winners: list[int]


_kept: OrderedDict[str, GameResult] = OrderedDict()


async def _result(master: Master, game_id: str) -> GameResult | None:
    found = _kept.get(game_id)
    if found is not None:
        _kept.move_to_end(game_id)
        return found
    try:  # the actor's final state while it is in memory, else the store's
        state, _names = await master.finished(game_id)
    except LobbyError:
        return None
    record = await master.journal.call(master.storage.load, game_id)
    stored = record is not None and record.status == OVER and record.finished_at is not None
    scoring = state.score()
    result = GameResult(
        id=game_id,
        finished_at=(
            record.finished_at.isoformat() if stored and record and record.finished_at else None
        ),
        scores=list(scoring.points), discarded=list(scoring.discarded),
        winners=list(scoring.winners),
    )
    if not stored:  # kept once the store has its end, so the time comes along
        return result
    _kept[game_id] = result
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return result


@router.get("/api/games/results", response_model=list[GameResult], responses=ERRORS,
            tags=["archive"])
async def results(
    master: MasterDep,
    ids: Annotated[str, Query(max_length=MAX_IDS * 33)] = "",
) -> list[GameResult]:
    """The results of the finished games among ``ids`` (comma-separated), in that order."""
    wanted = [part for part in ids.split(",") if part and len(part) <= 32][:MAX_IDS]
    found = [await _result(master, game_id) for game_id in dict.fromkeys(wanted)]
    return [result for result in found if result is not None]
