"""Ratings: what a finished game does to its players' OpenSkill ratings, and the profile and
leaderboard made of them (docs/leaderboard.md says why each rule is what it is).

Which games count (docs/accounts.md): a game is *rated* when, at its end, at least two of
its seats are held by different accounts, counting the accounts that left it, unless it is
not a real game:

- *aborted*: an account left it (or ran out of time while away) before :data:`ABORT_MOVES`
  of its own moves (lichess: a game is aborted, never rated, until each player has moved);
- *repeat*: the same accounts were rated together :data:`REPEAT_GAMES` times within
  :data:`REPEAT_WINDOW` already, so beating one's own puppet again and again moves nothing;
- *boosting*: an account of it is flagged by :mod:`.boosting`;
- *friendly*: a challenge made the table, and its players chose not to rate it
  (:mod:`.challenges`).

Guests and bots may sit at a rated table but do not count: the update uses only the order of
the accounts among themselves, by their R12 places at the whole table. An account that left
the game in play after its first moves, or stayed away past its clock, ranks last among the
accounts, whatever its seat's bot then made of the game: leaving is a loss, never a way out
of one. Every finished game with an account at it still counts for that account's profile
(games played, win share, average points, favourite dish), rated or not.

Ratings use OpenSkill's Plackett–Luce model; the leaderboard orders by the conservative
estimate μ − 3σ. A rating is *provisional* until it has :data:`ESTABLISHED_GAMES` rated
games, against at least :data:`ESTABLISHED_OPPONENTS` different accounts that were
*established* themselves when they played it, and its deviation σ is down to
:data:`ESTABLISHED_SIGMA` (Glicko's rating deviation; lichess keeps a rating provisional,
and off its leaderboards, while its deviation is above 110). Only established ratings are
on the leaderboard. A provisional opponent's result moves an established rating by at most
:data:`PROVISIONAL_SWING` in μ a game: an unknown opponent's result says little, and a
flock of new accounts must not carry an established one anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from openskill.models import PlackettLuce

from kingsbreakfast.engine import DISHES

from . import boosting
from .account_store import Account, Result, Totals
from .accounts import Accounts
from .lobby import LobbyError
from .rating_store import Meeting, RatingStore
from .restore import replay_state
from .store import GameRecord, StorageError
from .tables import OVER, Table

if TYPE_CHECKING:
    from .challenges import ChallengeStore

log = logging.getLogger("kingsbreakfast.server")
MODEL = PlackettLuce()
ESTABLISHED_GAMES: Final = 10
ESTABLISHED_OPPONENTS: Final = 5
ESTABLISHED_SIGMA: Final = 6.5
REPEAT_GAMES: Final = 3
REPEAT_WINDOW: Final = timedelta(days=7)
ABORT_MOVES: Final = 3
"""Own moves an account must have made before leaving for the game to be rated."""
EARLY_MOVES: Final = 5
"""Leaving before this many own moves (about half of a five-seat game's) is an early
ending, which :mod:`.boosting` counts."""
PROVISIONAL_SWING: Final = 1.0
"""The most μ an established rating moves in a game with a provisional account in it."""


def seasoned(account: Account) -> bool:
    """Enough games and little enough doubt, whoever the opponents were."""
    return account.rated_games >= ESTABLISHED_GAMES and account.sigma <= ESTABLISHED_SIGMA


def provisional(account: Account) -> bool:
    """Too few games, too few established opponents or too much doubt yet for the rating to
    mean much."""
    return not seasoned(account) or account.opponents < ESTABLISHED_OPPONENTS


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def rate(ratings: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New (μ, σ) of players who finished at ``places`` (1 best, equal places tied)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in new]


def own_moves(record: GameRecord, seat: int, version: int) -> int:
    """How many of the first ``version`` actions the seat made."""
    return sum(1 for s, _ in record.actions[:version] if s == seat)


@dataclass(frozen=True, slots=True)
class Standing:
    """What settling a game knows beside its record and seats."""

    repeats: int = 0
    """Rated games the same accounts played together within :data:`REPEAT_WINDOW` before."""
    leaves: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Account → (seat, the game's version then) of the accounts that left the game in
    play or stayed away past their clock."""
    established: frozenset[int] = frozenset()
    """The accounts whose ratings were established when the game began."""
    flagged: frozenset[int] = frozenset()
    """Accounts under a boosting flag (:mod:`.boosting`): the game is not rated."""
    friendly: bool = False
    """A challenge made the table, its players choosing not to rate it (:mod:`.challenges`)."""


def results_of(
    record: GameRecord, owners: dict[int, int], accounts: dict[int, Account],
    standing: Standing | None = None,
) -> list[Result]:
    """Each account's result of one finished game, with its rating after it (the module doc
    says when a game is rated; a leaver ranks last, behind every account that stayed)."""
    standing = standing or Standing()
    state = replay_state(record)
    scoring = state.score()
    places = scoring.places
    score = scoring.to_dict()
    gone = {a: seat for a, (seat, _) in standing.leaves.items() if a in accounts}
    moves = {a: own_moves(record, seat, version)
             for a, (seat, version) in standing.leaves.items() if a in gone}
    seated = {seat: a for seat, a in owners.items() if a in accounts and a not in gone}
    entries = {a: seat for seat, a in seated.items()} | gone  # account → its seat
    unrated = ""
    if len(entries) >= 2:
        if any(n < ABORT_MOVES for n in moves.values()):
            unrated = "aborted"
        elif standing.flagged & entries.keys():
            unrated = "boosting"
        elif standing.repeats >= REPEAT_GAMES:
            unrated = "repeat"
        elif standing.friendly:
            unrated = "friendly"
    rated = len(entries) >= 2 and len(set(seated.values())) == len(seated) and not unrated
    last = record.num_seats + 1
    rank = {a: last if a in gone else places[seat] for a, seat in entries.items()}
    before = {a: (accounts[a].mu, accounts[a].sigma) for a in entries}
    after = dict(before)
    if rated:
        order = sorted(entries)
        new = rate([before[a] for a in order], [rank[a] for a in order])
        after = dict(zip(order, new, strict=True))
        if entries.keys() - standing.established:  # a provisional account played
            for a in entries.keys() & standing.established:
                shift = max(-PROVISIONAL_SWING,
                            min(PROVISIONAL_SWING, after[a][0] - before[a][0]))
                after[a] = (before[a][0] + shift, after[a][1])
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
            established=account in standing.established,
            left_early=moves.get(account, EARLY_MOVES) < EARLY_MOVES, unrated=unrated,
        ))
    return results


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
