"""A process's tournaments: the director that advances them, and what the pages are told.

The page learns of changes by polling: every change to a tournament bumps its ``version``,
and ``GET /api/tournaments/{id}?since=N`` answers 204 (no body) while the version is still
``N``, so a page that asks every two seconds costs one indexed read when nothing happened
(docs/tournaments.md). Standings are recounted from the stored games on every answer
(:mod:`.standings`), so every process answers alike. Nothing of a game in play but its
table id and seating is shown: its cards are the table's to send.
"""

from __future__ import annotations

import time
from typing import Any

from ..accounts import Accounts
from ..lobby import LobbyError
from ..master import Master
from .director import Director, entries, finished
from .standings import as_number, standings
from .store import DEALT, MAX_MADE, EntryRefused, Tournament, TournamentStore

REFUSALS = {
    "no_tournament": (404, "there is no such tournament"),
    "entries_closed": (409, "this tournament takes no more entries"),
    "already_entered": (409, "you are already entered"),
    "not_entered": (409, "you are not entered"),
    "busy": (503, "try again"),
    "in_another": (409, "you are entered in another tournament that is not over"),
    "too_many_made": (429, "too many of the tournaments you made are not over"),
}


def refused(error: EntryRefused) -> LobbyError:
    status, message = REFUSALS[error.code]
    if error.code == "too_many_made":
        return LobbyError(status, error.code, message, limit=MAX_MADE)
    return LobbyError(status, error.code, message, retryable=error.code == "busy")


class Tournaments:
    def __init__(self, master: Master, accounts: Accounts, tick: float = 0.5) -> None:
        self.master = master
        self.accounts = accounts
        self.store = TournamentStore(accounts.store.engine)
        self.director = Director(master, accounts, self.store, tick=tick)

    def start(self) -> None:
        self.director.start()

    async def stop(self) -> None:
        await self.director.stop()

    def wake(self) -> None:
        self.director.woken.set()

    async def listing(self) -> list[dict[str, Any]]:
        rows = await self.master.journal.call(self.store.listing)
        return [{**summary(t), "entrants": count} for t, count in rows]

    async def show(self, tournament_id: str, account_id: int | None) -> dict[str, Any]:
        call = self.master.journal.call
        t = await call(self.store.get, tournament_id)
        if t is None:
            raise LobbyError(404, "no_tournament", "there is no such tournament")
        entrants = await call(self.store.entrants, tournament_id)
        games = await call(self.store.games, tournament_id)
        lines = standings("swiss" if t.kind == "swiss" else "arena", entries(entrants),
                          finished(games))
        names = {e.number: e for e in entrants}
        mine = next((e for e in entrants if account_id is not None
                     and e.account_id == account_id), None)
        you: dict[str, Any] | None = None
        if mine is not None:
            you = {"entrant": mine.number, "withdrawn": mine.withdrawn, "table": None}
            playing = [g for g in games if g.state == DEALT and mine.number in g.seating]
            if playing:
                game = playing[-1]
                you["table"] = game.table_id
                you["seat"] = game.seating.index(mine.number)
        return {
            **summary(t),
            "now_ms": int(time.time() * 1000),
            "yours": account_id is not None and t.created_by == account_id,
            "you": you,
            "entrants": [
                {"number": e.number, "name": e.name, "bot": e.bot, "withdrawn": e.withdrawn}
                for e in entrants
            ],
            "standings": [
                {"rank": line.rank, "entrant": line.entry.number, "name": line.entry.name,
                 "bot": line.entry.bot, "points": as_number(line.points),
                 "wins": as_number(line.wins), "buchholz": as_number(line.buchholz),
                 "scored": line.scored, "discarded": line.discarded, "games": line.games,
                 "streak": line.streak}
                for line in lines
            ],
            "games": [
                {"table": g.table_id, "round": g.round, "state": g.state,
                 "seats": [None if e is None else {"entrant": e, "name": names[e].name,
                                                   "bot": names[e].bot}
                           for e in g.seating],
                 "points": None if g.results is None else [p for p, _ in g.results],
                 "discarded": None if g.results is None else [d for _, d in g.results],
                 "finished_ms": None if g.finished_at is None else int(g.finished_at * 1000)}
                for g in games
            ],
        }

    async def version(self, tournament_id: str) -> int | None:
        t = await self.master.journal.call(self.store.get, tournament_id)
        return None if t is None else t.version


def summary(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id, "name": t.name, "kind": t.kind, "seats": t.seats,
        "clock_seconds": t.clock_seconds, "rated": t.rated, "bot_level": t.bot_level,
        "rounds": t.rounds, "round": t.round, "status": t.status,
        "starts_at_ms": int(t.starts_at * 1000),
        "ends_at_ms": None if t.ends_at is None else int(t.ends_at * 1000),
        "by_operator": t.created_by is None, "version": t.version,
    }
