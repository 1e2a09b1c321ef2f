"""The director: advances every tournament from what is stored, in whichever process
holds its claim.

Each pass, every process looks for tournaments with work to do and *claims* each one for a
few seconds (:meth:`~.store.TournamentStore.claim`: an atomic update, kept by renewing it
each pass, taken by another process once it runs out). Under the claim it does the next
steps, each of which is idempotent and stored before the next begins:

1. an open tournament whose start time came starts (a Swiss with its first round paired);
2. every ``made`` game gets its table: an ordinary table, stored with the entrants in their
   seats (an account's seat under its account's seat token, so any of its devices plays
   it), dealt through the table actor like any other (bot entrants and house bots take the
   open seats at the deal), then marked ``dealt``;
3. every ``dealt`` game whose table the store calls ``over`` has its R11 points and
   discards read from the stored record and is marked ``over``;
4. a Swiss round all ``over`` is followed by the next round's pairing, or the end; an
   arena seats its free entrants until its time is up, then ends when its last game does.

A process killed between two steps leaves nothing half done that the next director cannot
see: a table stored but not dealt is dealt, one dealt but not marked is marked, and a round
is paired only on top of the one before (once). The tables themselves live and fail over
like every other (leases), and a finished game's result is read from the store, never from
one process's memory.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from contextlib import suppress

from ..accounts import Accounts
from ..lifecycle import Phase
from ..lobby import LobbyError, check_table
from ..master import Master
from ..restore import restore
from ..store import StorageError
from ..tables import HUMAN, LOBBY, OPEN, OVER, Seat, Table, token_digest
from .arena import arena_tables
from .results import SeatResult, game_results
from .standings import Entry, standings
from .store import DEALT, MADE, RUNNING, Entrant, Game, Tournament, TournamentStore
from .swiss import pair_round

log = logging.getLogger("kingsbreakfast.server")


class Director:
    def __init__(
        self, master: Master, accounts: Accounts, store: TournamentStore,
        tick: float = 0.5, wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.master = master
        self.accounts = accounts
        self.store = store
        self.tick = tick
        self.wall_clock = wall_clock
        leases = master.leases
        self.owner = leases.owner if leases is not None else (
            f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}")
        self.claim_seconds = 2 * (leases.seconds if leases is not None else 5.0)
        self._task: asyncio.Task[None] | None = None
        self.woken = asyncio.Event()
        self.dealt: list[Callable[[Table, dict[int, int]], None]] = []
        """Told of each round's table this process deals, with the account at each seat
        (the notices: a game starting; an unrated table's seats are owned by nobody)."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
            with suppress(StorageError):
                await self.master.journal.call(self.store.let_go, self.owner)

    async def _keep(self) -> None:
        while True:
            try:
                await self.sweep()
            except (StorageError, LobbyError, OSError) as error:
                log.warning("tournaments: a pass failed (%s)", error)
            except Exception:  # one faulty tournament must not stop every other
                log.exception("tournaments: a pass failed")
            with suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self.tick)
            self.woken.clear()

    async def sweep(self) -> None:
        """One pass over every tournament with work to do that this process may direct."""
        store = self.store
        due: list[str] = await self.master.journal.call(store.due, self.wall_clock())
        for tournament_id in due:
            claimed = await self.master.journal.call(
                store.claim, tournament_id, self.owner, self.wall_clock(), self.claim_seconds)
            if claimed:
                await self.advance(tournament_id)

    # -- the steps ------------------------------------------------------------------------
    async def advance(self, tournament_id: str) -> None:
        call = self.master.journal.call
        store = self.store
        t = await call(store.get, tournament_id)
        if t is None:
            return
        entrants = await call(store.entrants, tournament_id)
        if t.status == "open":
            if len(entrants) < 2:  # nobody to play: it ends without a game
                await call(store.finish, tournament_id)
                log.info("tournament %s: ended, too few entrants", tournament_id)
                return
            await call(store.start, tournament_id)
            log.info("tournament %s: started (%d entrants)", tournament_id, len(entrants))
            t = await call(store.get, tournament_id)
            assert t is not None
        if t.status != RUNNING:
            return
        games = await call(store.games, tournament_id)
        await self._deal(t, entrants, games)
        if await self._collect(t, games):
            games = await call(store.games, tournament_id)
        if t.kind == "swiss":
            await self._next_round(t, entrants, games)
        else:
            await self._arena(t, entrants, games)

    async def _deal(self, t: Tournament, entrants: list[Entrant], games: list[Game]) -> None:
        by_number = {e.number: e for e in entrants}
        for game in games:
            if game.state != MADE:
                continue
            try:
                if await self._deal_one(t, by_number, game):
                    await self.master.journal.call(self.store.game_dealt, t.id, game.table_id)
            except LobbyError as refused:  # another process holds the table: next pass
                log.info("tournament %s: table %s not dealt yet (%s)", t.id, game.table_id,
                         refused.code)

    async def _deal_one(self, t: Tournament, by_number: dict[int, Entrant], game: Game) -> bool:
        """Store the game's table (once) and deal it; True once it is dealt."""
        master = self.master
        owners: dict[int, int] = {}
        for number, entrant_number in enumerate(game.seating):
            entrant = None if entrant_number is None else by_number.get(entrant_number)
            if entrant is not None and entrant.account_id is not None:
                owners[number] = entrant.account_id
        record = await master.journal.call(master.storage.load, game.table_id)
        if record is None:
            keys = self.accounts.key
            seats: list[Seat] = []
            for entrant_number in game.seating:
                entrant = None if entrant_number is None else by_number.get(entrant_number)
                if entrant is None or entrant.account_id is None:
                    seats.append(Seat(OPEN, ""))  # a bot's: the deal seats one here
                    continue
                token = keys.account_seat_token(entrant.account_id, game.table_id)
                seats.append(Seat(HUMAN, entrant.name, token_digest(token)))
            table = Table(
                id=game.table_id, num_seats=t.seats,
                rules=check_table(t.seats, {}, t.bot_level, t.clock_seconds),
                bot_level=t.bot_level, clock_seconds=t.clock_seconds, public=False,
                seats=seats,
            )
            await master.open_table(table)
            if t.rated:  # an account's seat is theirs: the game is rated like any other
                for number, account_id in owners.items():
                    await self.accounts.call(self.accounts.store.own_seat, game.table_id,
                                             number, account_id)
            log.info("tournament %s: table %s stored (round %d)", t.id, game.table_id,
                     game.round)
        elif record.status != LOBBY:
            return True
        # a socket may have brought the table to another process before the deal: it is
        # asked for, and handed over at that process's next renewal
        actor = await master.own(game.table_id, wait=self.claim_seconds / 2)
        if actor is None:
            return False
        async with actor.lock:
            if actor.phase is not Phase.LOBBY:
                return True
            # listed once dealt (the TV and Watch show it), never before: its seats
            # belong to the round's pairing, not to whoever finds it in the lobby
            await actor.deal_locked(master.dealer, public=True)
        for hook in self.dealt:
            try:
                hook(actor.table, owners)
            except Exception:  # a notice never stops a round
                log.exception("tournament %s: a hook of table %s failed", t.id, game.table_id)
        return True

    async def _collect(self, t: Tournament, games: list[Game]) -> bool:
        """Store the results of every dealt game whose table is over; True if any."""
        call = self.master.journal.call
        dealt = [g for g in games if g.state == DEALT]
        statuses = await call(self.store.table_statuses, [g.table_id for g in dealt])
        changed = False
        for game in dealt:
            if statuses.get(game.table_id) != OVER:
                continue
            record = await call(self.master.storage.load, game.table_id)
            if record is None or record.deck is None:
                continue
            state = restore(record).state
            assert state is not None
            scoring = state.score()
            results = list(zip(scoring.points, scoring.discarded, strict=True))
            await call(self.store.game_over, t.id, game.table_id, results, self.wall_clock())
            log.info("tournament %s: table %s over", t.id, game.table_id)
            changed = True
        return changed

    async def _next_round(self, t: Tournament, entrants: list[Entrant],
                          games: list[Game]) -> None:
        if any(g.state != "over" for g in games if g.round == t.round):
            return
        if t.round >= t.rounds:
            await self.master.journal.call(self.store.finish, t.id)
            log.info("tournament %s: over after %d rounds", t.id, t.round)
            return
        lines = standings("swiss", entries(entrants), finished(games))
        met = meetings_so_far(games)
        playing = [line.entry.number for line in lines
                   if not by_number(entrants)[line.entry.number].withdrawn]
        tables = pair_round(playing, t.seats, met)
        await self._store_tables(t, t.round + 1, tables)

    async def _arena(self, t: Tournament, entrants: list[Entrant], games: list[Game]) -> None:
        now = self.wall_clock()
        if t.ends_at is not None and now >= t.ends_at:
            if all(g.state == "over" for g in games):
                await self.master.journal.call(self.store.finish, t.id)
                log.info("tournament %s: the arena is over", t.id)
            return
        busy = {e for g in games if g.state != "over" for e in g.seating if e is not None}
        free_since: dict[int, float] = {}
        last: dict[int, frozenset[int]] = {}
        for game in sorted(games, key=lambda g: g.finished_at or 0.0):
            for entrant in game.seating:
                if entrant is not None and game.finished_at is not None:
                    free_since[entrant] = game.finished_at
                    last[entrant] = frozenset(e for e in game.seating
                                              if e is not None and e != entrant)
        free = sorted((e.number for e in entrants if not e.withdrawn and e.number not in busy),
                      key=lambda n: (free_since.get(n, 0.0), n))
        tables = arena_tables(free, t.seats, last)
        if tables:
            await self._store_tables(t, 0, tables)

    async def _store_tables(self, t: Tournament, round_number: int,
                            tables: list[list[int]]) -> None:
        seated = [(secrets.token_urlsafe(9), [*table, *[None] * (t.seats - len(table))])
                  for table in tables]
        stored = await self.master.journal.call(
            self.store.add_games, t.id, self.owner, round_number, seated, self.wall_clock())
        if stored:
            log.info("tournament %s: %d tables paired (round %d)", t.id, len(seated),
                     round_number)
            self.woken.set()  # dealt at the next pass, at once


def entries(entrants: list[Entrant]) -> list[Entry]:
    return [Entry(e.number, e.name, e.bot) for e in entrants]


def by_number(entrants: list[Entrant]) -> dict[int, Entrant]:
    return {e.number: e for e in entrants}


def finished(games: list[Game]) -> list[list[SeatResult]]:
    """The results of every game over, in the order they finished (by round first)."""
    done = sorted((g for g in games if g.results is not None),
                  key=lambda g: (g.round, g.finished_at or 0.0, g.number))
    return [game_results(g.seating, [p for p, _ in g.results or ()],
                         [d for _, d in g.results or ()]) for g in done]


def meetings_so_far(games: list[Game]) -> dict[frozenset[int], int]:
    met: dict[frozenset[int], int] = {}
    for game in games:
        seated = [e for e in game.seating if e is not None]
        for i, a in enumerate(seated):
            for b in seated[i + 1:]:
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met
