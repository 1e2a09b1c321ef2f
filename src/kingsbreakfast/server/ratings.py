"""Ratings kept: settles each finished game once into its accounts' results and ratings (by
:mod:`.rating_rules`, which says which games count and why), and reads the profile and the
leaderboard made of them."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kingsbreakfast.engine import DISHES

from . import boosting
from .account_store import Account, Result, Totals
from .accounts import Accounts
from .lobby import LobbyError
from .rating_rules import (
    EARLY_MOVES,
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    ESTABLISHED_SIGMA,
    REPEAT_WINDOW,
    Standing,
    ordinal,
    own_moves,
    provisional,
    results_of,
    seasoned,
)
from .rating_store import Meeting, RatingStore
from .store import GameRecord, StorageError
from .tables import OVER, Table

if TYPE_CHECKING:
    from .challenges import ChallengeStore

log = logging.getLogger("kingsbreakfast.server")


class Ratings:
    """Settles finished games into results and ratings, once each."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = RatingStore(accounts.store.engine)
        self._lock = asyncio.Lock()
        """One game at a time: two games ending together must not both start from the
        same rating of a player they share."""

    async def settle(self, game_id: str) -> bool:
        """Store the results of a finished game (no-op when stored already)."""
        store = self.accounts.store
        call = self.accounts.call
        async with self._lock:
            owners = await call(store.seat_owners, game_id)
            leaves = await call(self.store.leaves, game_id)
            if not owners and not leaves:
                return False
            master = self.accounts.master
            record = await call(master.storage.load, game_id)
            if record is None or record.status != OVER or record.deck is None:
                return False
            accounts: dict[int, Account] = {}
            for account_id in set(owners.values()) | set(leaves):
                account = await call(store.account, account_id)
                if account is not None:
                    accounts[account_id] = account
            finished = record.finished_at or datetime.now(UTC)
            standing = Standing(leaves=leaves)
            if len(accounts) >= 2:
                standing = await self._standing(record, accounts, leaves, finished)
            if len(accounts) >= 2 and await call(self._challenges().friendly, game_id):
                standing = replace(standing, friendly=True)
            results = results_of(record, owners, accounts, standing)
            stored = await call(store.record_results, results)
            if stored:
                log.info("table %s: results stored (%d accounts)", game_id, len(results))
            return stored

    async def _standing(
        self, record: GameRecord, accounts: dict[int, Account],
        leaves: dict[int, tuple[int, int]], finished: datetime,
    ) -> Standing:
        """Who was established, who is flagged (looking for boosting patterns around each
        account, this game included), and how often these accounts were rated together."""
        call = self.accounts.call
        ids = sorted(accounts)
        flagged = await call(self.store.flagged, ids)
        total, _ = await call(
            self.store.leaderboard, 0, 0, ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS,
            ESTABLISHED_SIGMA,
        )
        # a new site has no established accounts to play: until it has enough, a seasoned
        # rating (games and σ) counts as an established opponent
        established = frozenset(
            a for a, account in accounts.items() if a not in flagged and (
                not provisional(account)
                or (total < ESTABLISHED_OPPONENTS and seasoned(account))
            )
        )
        addresses = await call(self.store.addresses, record.id)
        here: list[Meeting] = [(record.id, a, addresses.get(a, "")) for a in ids]
        early = {
            a for a, (seat, version) in leaves.items()
            if a in accounts and own_moves(record, seat, version) < EARLY_MOVES
        }
        since = finished - boosting.WINDOW
        for account_id in ids:
            others = [m for m in here if m[1] != account_id]
            endings = await call(self.store.meetings, account_id, since, True)
            endings += [m for m in others if m[1] in early]
            meetings = await call(self.store.meetings, account_id, since, False)
            for pattern in boosting.patterns(account_id, endings, meetings + others):
                log.warning("table %s: accounts %s flagged for review (%s)", record.id,
                            sorted(pattern.accounts), pattern.reason)
                await call(self.store.flag, set(pattern.accounts), pattern.reason,
                           record.id, set(pattern.games) - {record.id}, finished)
                flagged |= pattern.accounts
        repeats = await call(self.store.rated_together, ids, finished - REPEAT_WINDOW)
        return Standing(repeats, leaves, established, frozenset(flagged))

    def _challenges(self) -> ChallengeStore:
        from .challenges import ChallengeStore  # (challenges read ratings: imported late)

        return ChallengeStore(self.accounts.store.engine)

    def game_over(self, table: Table) -> None:
        """The table actor's hook: settle in the background, never delaying the table."""
        task = asyncio.get_running_loop().create_task(self._settle_quietly(table.id))
        self.accounts.master.hall.keep(task)

    async def _settle_quietly(self, game_id: str) -> None:
        try:
            await self.settle(game_id)
        except StorageError as error:  # settled again at the next start
            log.warning("table %s: results not stored (%s)", game_id, error)

    async def catch_up(self) -> bool:
        """Settle finished games whose results are not stored yet (one that just ended, or
        one a stopped process left); True when there were any."""
        pending = await self.accounts.call(self.accounts.store.unrecorded_games)
        for game_id in pending:
            await self._settle_quietly(game_id)
        return bool(pending)

    # -- what players read ------------------------------------------------------------------
    async def leaderboard(self, page: int, size: int) -> dict[str, Any]:
        if page < 1 or not 1 <= size <= 100:
            raise LobbyError(422, "bad_page", "pages count from 1; a page has 1 to 100 rows")
        await self.catch_up()
        total, rows = await self.accounts.call(
            self.store.leaderboard, (page - 1) * size, size, ESTABLISHED_GAMES,
            ESTABLISHED_OPPONENTS, ESTABLISHED_SIGMA,
        )
        return {
            "page": page, "size": size, "total": total,
            "established_after": {
                "games": ESTABLISHED_GAMES, "opponents": ESTABLISHED_OPPONENTS,
            },
            "rows": [
                {
                    "rank": (page - 1) * size + i + 1, "name": a.name,
                    "rating": round(ordinal(a.mu, a.sigma), 2), "mu": round(a.mu, 2),
                    "sigma": round(a.sigma, 2), "games": a.rated_games,
                }
                for i, a in enumerate(rows)
            ],
        }

    async def profile(self, name: str) -> tuple[Account, Totals, list[Result]]:
        from .accounts import name_key

        account = await self.accounts.call(self.accounts.store.account_by_key, name_key(name))
        if account is None:
            raise LobbyError(404, "no_player", "there is no player of that name")
        await self.catch_up()  # a game that just ended counts at once
        store = self.accounts.store
        account_id = account.id

        def read() -> tuple[Account | None, Totals, list[Result]]:
            # the account read again after the catch-up whatever it found (a settle begun
            # when the game ended may have committed meanwhile), and with its games in one
            # turn of the database thread, so the rating shown counts the games listed
            return store.account(account_id), store.totals(account_id), store.results(account_id)

        again, totals, results = await self.accounts.call(read)
        if again is None:  # deleted meanwhile
            raise LobbyError(404, "no_player", "there is no player of that name")
        return again, totals, results


def profile_body(account: Account, totals: Totals, results: list[Result]) -> dict[str, Any]:
    """The profile page's figures: counts over every game, the rating after each of the
    latest games listed."""
    games = totals.games
    favourites = totals.favourites
    return {
        "name": account.name,
        "rating": round(ordinal(account.mu, account.sigma), 2),
        "mu": round(account.mu, 2),
        "sigma": round(account.sigma, 2),
        "rated_games": account.rated_games,
        "opponents": account.opponents,
        "provisional": provisional(account),
        "established_after": {"games": ESTABLISHED_GAMES, "opponents": ESTABLISHED_OPPONENTS},
        "games": games,
        "wins": totals.wins,
        "win_share": round(totals.wins / games, 3) if games else None,
        "average_points": round(totals.points / totals.scored, 2) if totals.scored else None,
        "favourite_dish": (
            min(favourites, key=lambda d: (-favourites[d], DISHES.index(d)))
            if favourites else None
        ),
        "history": [
            {
                "game": r.game_id, "finished_at": r.finished_at.isoformat(),
                "rating": round(ordinal(r.mu, r.sigma), 2), "place": r.place,
                "points": r.points,
            }
            for r in results if r.rated
        ],
    }
