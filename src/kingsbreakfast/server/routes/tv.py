"""The TV's routes: the page ``/tv`` (the one client page) and ``GET /api/tv``, the featured
game in play and the running games in the TV's order (:mod:`..tv` says which order and why),
read from the store by any process."""

from __future__ import annotations

from fastapi import APIRouter

from ..storage import Storage
from ..tv import TvAnswer, TvStore, running, tv_answer
from .deps import MasterDep, SiteDep
from .errors import ERRORS
from .pages import client_page

router = APIRouter()
router.get("/tv", include_in_schema=False)(client_page)


@router.get("/api/tv", response_model=TvAnswer, responses=ERRORS, tags=["tv"])
async def tv(master: MasterDep, site: SiteDep) -> TvAnswer:
    """The game to show (the highest rated live game in play) and the public games in play,
    tournament games first, then by the mean rating of the accounts seated (bots and guests
    are unrated); names and ratings only, never a card."""
    call = master.journal.call
    storage = master.storage
    tournament: frozenset[str] = frozenset()
    if isinstance(storage, Storage):  # the games' rows only, no deck and no actions
        games = TvStore(storage.engine)
        records = await call(games.running)
        tournament = await call(games.in_tournaments, [r.id for r in records])
    else:  # a test's in-memory store: its records, filtered alike (it holds no tournament)
        records = running(await call(storage.load_unfinished))
    ratings = await call(TvStore(site.accounts.store.engine).ratings, [r.id for r in records])
    return tv_answer(records, ratings, tournament)
