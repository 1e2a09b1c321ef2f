"""Tournament results as one JSON document and CSV tables (deterministic for a seed)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from kingsbreakfast.engine import RulesDict

from .match import GameResult
from .ratings import rate
from .stats import (
    BotSummaryDict,
    GamesSummaryDict,
    SeatSummaryDict,
    as_dict,
    summarize_bots,
    summarize_games,
    summarize_seats,
)
from .tournament import TournamentConfig, game_plan


class TournamentDict(TypedDict):
    """How the tournament was played: enough to run it again."""

    players: int
    games: int
    seed: int
    lineup: list[str]
    rules: RulesDict
    seat_rotation: str
    reproducible: bool


class RatingDict(TypedDict):
    label: str
    mu: float
    sigma: float
    ordinal: float


class Report(TypedDict):
    """The tournament's JSON document, read back by the command line and the plots."""

    tournament: TournamentDict
    bots: list[BotSummaryDict]
    seats: list[SeatSummaryDict]
    ratings: list[RatingDict]
    games: GamesSummaryDict
    forfeits: NotRequired[dict[str, int]]
    """Moves each outside player forfeited to the fallback (bots/outside.py), when any
    outside player took part."""


def build_report(config: TournamentConfig, games: Sequence[GameResult]) -> Report:
    """Everything a tournament measured; contains nothing that depends on timing (except
    the forfeits of outside programs that ran out of time)."""
    report: Report = {
        "tournament": {
            "players": config.players,
            "games": config.games,
            "seed": config.seed,
            "lineup": [spec.label for spec in config.lineup],
            "rules": config.rules.to_dict(),
            "seat_rotation": "blocks of one deck per rotation of the line-up",
            "reproducible": not any(spec.time_bounded for spec in config.lineup),
        },
        "bots": [as_dict(s) for s in summarize_bots(config, games)],
        "seats": [as_dict(s) for s in summarize_seats(config, games)],
        "ratings": [
            {"label": r.label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
            for r in rate(config, games)
        ],
        "games": summarize_games(games),
    }
    if any(spec.outside for spec in config.lineup):
        forfeits = dict.fromkeys(config.labels, 0)
        for index, game in enumerate(games):
            plan = game_plan(config, index)
            for seat, entry in enumerate(plan.seats):
                if game.forfeits:
                    forfeits[config.lineup[entry].label] += game.forfeits[seat]
        report["forfeits"] = forfeits
    return report


def write_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n")


def write_csv(report: Report, path: Path) -> None:
    """One row per bot: the figures people compare."""
    ratings = {r["label"]: r for r in report["ratings"]}
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "bot", "seats_played", "win_share", "win_low95", "win_high95", "mean_points",
                "stdev_points", "median_points", "mean_discarded", "openskill_mu",
                "openskill_sigma", "openskill_ordinal",
            ]
        )
        for bot in report["bots"]:
            share = bot["win_share"]
            rating = ratings[bot["label"]]
            writer.writerow(
                [
                    bot["label"], bot["seats_played"], f"{share['mean']:.6f}",
                    f"{share['low']:.6f}", f"{share['high']:.6f}", f"{bot['mean_points']:.4f}",
                    f"{bot['stdev_points']:.4f}", f"{bot['median_points']:.1f}",
                    f"{bot['mean_discarded']:.4f}", f"{rating['mu']:.4f}",
                    f"{rating['sigma']:.4f}", f"{rating['ordinal']:.4f}",
                ]
            )


def write_games_csv(config: TournamentConfig, games: Sequence[GameResult], path: Path) -> None:
    """One row per game and seat, for anyone who wants to redo the statistics."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game", "seat", "bot", "points", "discarded", "win_share"])
        for index, game in enumerate(games):
            plan = game_plan(config, index)
            for seat, entry in enumerate(plan.seats):
                writer.writerow(
                    [
                        index, seat, config.lineup[entry].label, game.points[seat],
                        game.discarded[seat], f"{game.win_share[seat]:.6f}",
                    ]
                )
