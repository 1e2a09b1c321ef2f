"""Ratings: what a finished game does to its players' OpenSkill ratings, and the profile and
leaderboard made of them.

Which games count (docs/accounts.md): a game is *rated* when, at its end, at least two of
its seats are held by different accounts, counting the accounts that left it. Guests and
bots may sit at a rated table but do not count: the update uses only the order of the
accounts among themselves, by their R12 places at the whole table (a bot that beats both
players changes nothing between them). An account that left the game in play, or stayed
away past its clock, ranks last among the accounts, whatever its seat's bot then made of
the game: leaving is a loss, never a way out of one.
Every finished game with an account at it still counts for that account's profile (games
played, win share, average points, favourite dish), rated or not.

Ratings use OpenSkill's Plackett–Luce model; the leaderboard orders by the conservative
estimate μ − 3σ, so a new player climbs by playing, not by one lucky game.

A rating is *provisional* until it has :data:`ESTABLISHED_GAMES` rated games against at
least :data:`ESTABLISHED_OPPONENTS` different accounts and its deviation σ is down to
:data:`ESTABLISHED_SIGMA`; the leaderboard lists established ratings only. This is Glicko's
idea (Glickman's rating deviation: a rating is only as good as its deviation is small), as
lichess applies it (a rating is shown provisional, with a question mark, while its Glicko-2
deviation is above 110, and provisional players stay off the leaderboards), here on
OpenSkill's σ (≈ 6.5 is what ten games against fresh opponents leave of the starting 8.33),
with the count of different opponents added because one person can own several accounts.

Games between the same accounts count for the rating :data:`REPEAT_GAMES` times in
:data:`REPEAT_WINDOW`: a further game of exactly the same accounts within the window is
recorded for the profile but not rated (``rated`` false), so beating one's own puppet again
and again moves nothing.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from openskill.models import PlackettLuce

from kingsbreakfast.engine import DISHES

from .account_store import Account, Result, Totals
from .accounts import Accounts
from .lobby import LobbyError
from .restore import replay_state
from .store import GameRecord, StorageError
from .tables import OVER, Table

log = logging.getLogger("kingsbreakfast.server")
MODEL = PlackettLuce()
ESTABLISHED_GAMES: Final = 10
ESTABLISHED_OPPONENTS: Final = 5
ESTABLISHED_SIGMA: Final = 6.5
REPEAT_GAMES: Final = 3
REPEAT_WINDOW: Final = timedelta(days=7)


def provisional(account: Account) -> bool:
    """Too few games, opponents or too much doubt yet for the rating to mean much."""
    return (
        account.rated_games < ESTABLISHED_GAMES or account.opponents < ESTABLISHED_OPPONENTS
        or account.sigma > ESTABLISHED_SIGMA
    )


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def rate(ratings: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New (μ, σ) of players who finished at ``places`` (1 best, equal places tied)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in new]


def results_of(
    record: GameRecord, owners: dict[int, int], accounts: dict[int, Account],
    repeats: int = 0, leavers: dict[int, int] | None = None,
) -> list[Result]:
    """Each account's result of one finished game, with its rating after it; ``repeats``:
    rated games the same accounts played together within :data:`REPEAT_WINDOW` before;
    ``leavers``: account → seat of the accounts that left the game in play or stayed away
    past their clock (they rank last, behind every account that stayed, and lose)."""
    state = replay_state(record)
    scoring = state.score()
    places = scoring.places
    score = scoring.to_dict()
    gone = {a: seat for a, seat in (leavers or {}).items() if a in accounts}
    seated = {seat: a for seat, a in owners.items() if a in accounts and a not in gone}
    entries = {a: seat for seat, a in seated.items()} | gone  # account → its seat
    rated = (
        len(entries) >= 2 and len(set(seated.values())) == len(seated)
        and repeats < REPEAT_GAMES
    )
    last = record.num_seats + 1
    rank = {a: last if a in gone else places[seat] for a, seat in entries.items()}
    after = {a: (accounts[a].mu, accounts[a].sigma) for a in entries}
    if rated:
        order = sorted(entries)
        new = rate([after[a] for a in order], [rank[a] for a in order])
        after = dict(zip(order, new, strict=True))
    finished = record.finished_at or datetime.now(UTC)
    results = []
    for account, seat in sorted(entries.items(), key=lambda item: (item[1], item[0])):
        dishes = score["players"][seat]["dishes"]
        held = max(dishes, key=lambda d: (d["held"], -DISHES.index(d["dish"])))
        results.append(Result(
            game_id=record.id, account_id=account, seat=seat, num_seats=record.num_seats,
            place=record.num_seats if account in gone else places[seat],
            won=account not in gone and seat in scoring.winners,
            points=score["players"][seat]["points"],
            favourite=held["dish"] if held["held"] else None, rated=rated,
            mu=after[account][0], sigma=after[account][1], finished_at=finished,
        ))
    return results


class Ratings:
    """Settles finished games into results and ratings, once each."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._lock = asyncio.Lock()
        """One game at a time: two games ending together must not both start from the
        same rating of a player they share."""

    async def settle(self, game_id: str) -> bool:
        """Store the results of a finished game (no-op when stored already)."""
        store = self.accounts.store
        async with self._lock:
            owners = await self.accounts.call(store.seat_owners, game_id)
            leavers = await self.accounts.call(store.leavers, game_id)
            if not owners and not leavers:
                return False
            master = self.accounts.master
            record = await self.accounts.call(master.storage.load, game_id)
            if record is None or record.status != OVER or record.deck is None:
                return False
            accounts: dict[int, Account] = {}
            for account_id in set(owners.values()) | set(leavers):
                account = await self.accounts.call(store.account, account_id)
                if account is not None:
                    accounts[account_id] = account
            finished = record.finished_at or datetime.now(UTC)
            repeats = await self.accounts.call(
                store.rated_together, sorted(accounts), finished - REPEAT_WINDOW
            )
            results = results_of(record, owners, accounts, repeats, leavers)
            stored = await self.accounts.call(store.record_results, results)
            if stored:
                log.info("table %s: results stored (%d accounts)", game_id, len(results))
            return stored

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
            self.accounts.store.leaderboard, (page - 1) * size, size, ESTABLISHED_GAMES,
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
        if await self.catch_up():  # a game that just ended counts at once
            account = await self.accounts.call(self.accounts.store.account, account.id)
            assert account is not None
        store = self.accounts.store
        totals = await self.accounts.call(store.totals, account.id)
        return account, totals, await self.accounts.call(store.results, account.id)


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
        "average_points": round(totals.points / games, 2) if games else None,
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
