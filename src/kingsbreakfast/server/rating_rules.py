"""The rating rules: what a finished game does to its players' OpenSkill ratings, as pure
functions of the game's record and what settling it knows (:class:`Standing`), so that each
rule is tested without a database (docs/leaderboard.md says why each rule is what it is;
:mod:`.ratings` stores the results and reads the profile and the leaderboard).

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

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Final

from openskill.models import PlackettLuce

from kingsbreakfast.engine import DISHES

from .account_store import Account, Result
from .restore import replay_state
from .store import GameRecord

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


