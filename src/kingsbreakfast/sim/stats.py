"""Tournament statistics: win shares with 95% confidence intervals, scores, discards, seats.

Games of one block share a deck (see :mod:`.tournament`), so they are not independent; the
confidence intervals treat each block as one sample (a cluster-robust ratio estimate), which
is honest about that correlation and slightly wider than a naive binomial interval.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, overload

from kingsbreakfast.engine import DISHES

from .match import GameResult
from .tournament import TournamentConfig, game_plan

Z95 = statistics.NormalDist().inv_cdf(0.975)
"""Half-width of a 95% normal interval, in standard errors."""
SCORE_BIN = 10
"""Width of the score histogram's bins, in points."""


class ShareDict(TypedDict):
    mean: float
    low: float
    high: float
    samples: int


class BotSummaryDict(TypedDict):
    """One bot's line of a tournament report (JSON)."""

    label: str
    seats_played: int
    win_share: ShareDict
    mean_points: float
    stdev_points: float
    median_points: float
    mean_discarded: float
    score_histogram: dict[str, int]


class SeatSummaryDict(TypedDict):
    """One seat's line of a tournament report or an analysis table (JSON)."""

    seat: int
    win_share: ShareDict
    mean_points: float


class GamesSummaryDict(TypedDict):
    """What the games of a tournament say about the rules: dragons, the king's plate
    (R8, R10), rounds, tie-breaks (R12)."""

    games: int
    mean_rounds: float
    mean_king_cards: float
    mean_king_by_dish: dict[str, float]
    mean_dragons_fed_from_table: float
    mean_dragons_used_when_drawn: float
    mean_dragons_placed: float
    games_with_a_dragon_fed: float
    mean_draws: float
    tie_break_discards: float
    tie_break_shared: float


@dataclass(frozen=True, slots=True)
class Share:
    """A mean share (win share of a bot or a seat) with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    samples: int


@dataclass(frozen=True, slots=True)
class BotSummary:
    label: str
    seats_played: int
    """Games times the seats this bot held in them."""
    win_share: Share
    mean_points: float
    stdev_points: float
    median_points: float
    mean_discarded: float
    score_histogram: dict[str, int]
    """Count of final scores per bin of ``SCORE_BIN`` points, keyed ``"lo-hi"``."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    """Seat counted from the first cook (R2, R3): 0 is the first cook."""
    win_share: Share
    mean_points: float


def clustered_share(wins: Sequence[float], counts: Sequence[float]) -> Share:
    """Ratio sum(wins) / sum(counts) over clusters, with a 95% normal interval."""
    total = sum(counts)
    if total == 0:
        return Share(0.0, 0.0, 1.0, 0)
    mean = sum(wins) / total
    k = len(counts)
    if k < 2:
        return Share(mean, 0.0, 1.0, int(total))
    avg = total / k
    residual = sum((w - mean * c) ** 2 for w, c in zip(wins, counts, strict=True))
    se = math.sqrt(residual / (k * (k - 1))) / avg
    return Share(mean, max(0.0, mean - Z95 * se), min(1.0, mean + Z95 * se), int(total))


def _histogram(points: Sequence[int]) -> dict[str, int]:
    bins: dict[int, int] = {}
    for p in points:
        bins[p // SCORE_BIN] = bins.get(p // SCORE_BIN, 0) + 1
    return {
        f"{b * SCORE_BIN}-{b * SCORE_BIN + SCORE_BIN - 1}": bins[b] for b in sorted(bins)
    }


def summarize_bots(config: TournamentConfig, games: Sequence[GameResult]) -> list[BotSummary]:
    """One summary per distinct bot label, in line-up order."""
    labels = config.labels
    blocks = (len(games) + config.players - 1) // config.players
    wins = {label: [0.0] * blocks for label in labels}
    counts = {label: [0.0] * blocks for label in labels}
    points: dict[str, list[int]] = {label: [] for label in labels}
    discarded: dict[str, list[int]] = {label: [] for label in labels}
    for index, game in enumerate(games):
        plan = game_plan(config, index)
        for seat, entry in enumerate(plan.seats):
            label = config.lineup[entry].label
            wins[label][plan.block] += game.win_share[seat]
            counts[label][plan.block] += 1
            points[label].append(game.points[seat])
            discarded[label].append(game.discarded[seat])
    out = []
    for label in labels:
        pts = points[label]
        out.append(
            BotSummary(
                label=label,
                seats_played=len(pts),
                win_share=clustered_share(wins[label], counts[label]),
                mean_points=statistics.fmean(pts),
                stdev_points=statistics.pstdev(pts),
                median_points=float(statistics.median(pts)),
                mean_discarded=statistics.fmean(discarded[label]),
                score_histogram=_histogram(pts),
            )
        )
    return out


def summarize_seats(config: TournamentConfig, games: Sequence[GameResult]) -> list[SeatSummary]:
    """Win share and points by seat: the advantage of cooking first (R3)."""
    n = config.players
    blocks = (len(games) + n - 1) // n
    out = []
    for seat in range(n):
        wins = [0.0] * blocks
        counts = [0.0] * blocks
        pts = []
        for index, game in enumerate(games):
            block = index // n
            wins[block] += game.win_share[seat]
            counts[block] += 1
            pts.append(game.points[seat])
        out.append(SeatSummary(seat, clustered_share(wins, counts), statistics.fmean(pts)))
    return out


def summarize_games(games: Sequence[GameResult]) -> GamesSummaryDict:
    """Facts about the rules in play: dragons, the king's plate, rounds, tie-breaks."""
    total = len(games)
    king_by_dish = [statistics.fmean(g.king[d] for g in games) for d in range(len(DISHES))]
    return {
        "games": total,
        "mean_rounds": statistics.fmean(g.rounds for g in games),
        "mean_king_cards": statistics.fmean(sum(g.king) for g in games),
        "mean_king_by_dish": dict(zip(DISHES, king_by_dish, strict=True)),
        "mean_dragons_fed_from_table": statistics.fmean(g.dragons_fed_from_table for g in games),
        "mean_dragons_used_when_drawn": statistics.fmean(
            g.dragons_used_when_drawn for g in games
        ),
        "mean_dragons_placed": statistics.fmean(g.dragons_placed for g in games),
        "games_with_a_dragon_fed": sum(
            1 for g in games if g.dragons_fed_from_table + g.dragons_used_when_drawn
        ) / total,
        "mean_draws": statistics.fmean(g.draws for g in games),
        "tie_break_discards": sum(1 for g in games if g.tie_break == "discards") / total,
        "tie_break_shared": sum(1 for g in games if g.tie_break == "shared") / total,
    }


def _share_dict(share: Share) -> ShareDict:
    return {"mean": share.mean, "low": share.low, "high": share.high, "samples": share.samples}


@overload
def as_dict(item: BotSummary) -> BotSummaryDict: ...
@overload
def as_dict(item: SeatSummary) -> SeatSummaryDict: ...
def as_dict(item: BotSummary | SeatSummary) -> BotSummaryDict | SeatSummaryDict:
    """The JSON form, field for field in the dataclass's order (the report's key order)."""
    if isinstance(item, SeatSummary):
        return {
            "seat": item.seat,
            "win_share": _share_dict(item.win_share),
            "mean_points": item.mean_points,
        }
    return {
        "label": item.label,
        "seats_played": item.seats_played,
        "win_share": _share_dict(item.win_share),
        "mean_points": item.mean_points,
        "stdev_points": item.stdev_points,
        "median_points": item.median_points,
        "mean_discarded": item.mean_discarded,
        "score_histogram": dict(item.score_histogram),
    }
