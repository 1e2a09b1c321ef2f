"""Balance questions answered by large simulations: seat (cook order) advantage for 3, 4 and
5 players, how often the dragon is used, and what the king ends the game with.

Every table seats the same bot in every seat, so any difference between seats comes from
the rules (who cooks first, R3) and not from the players. Each table size is a seat-rotated
tournament (:mod:`.tournament`), so the answers are reproducible from the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from kingsbreakfast.engine import Rules, RulesDict

from .specs import parse_spec
from .stats import (
    GamesSummaryDict,
    SeatSummaryDict,
    as_dict,
    summarize_bots,
    summarize_games,
    summarize_seats,
)
from .tournament import Progress, TournamentConfig, run_tournament


class ScoresDict(TypedDict):
    mean: float
    stdev: float
    median: float
    mean_discarded: float


class TableRow(TypedDict):
    """One table size of an analysis: its seats, scores and what its games say about the rules."""

    players: int
    games: int
    seats: list[SeatSummaryDict]
    first_cook_edge: float
    """The first cook's win share over parity (1 / players): above 1 is an advantage (R3)."""
    scores: ScoresDict
    game: GamesSummaryDict


class Analysis(TypedDict):
    """The analysis's JSON document (``kingsbreakfast analyze --json``, the plots, Markdown)."""

    bot: str
    seed: int
    rules: RulesDict
    tables: list[TableRow]


def analyze(
    bot: str,
    players: Sequence[int],
    games: int,
    seed: int,
    workers: int = 1,
    rules: Rules | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """One row per table size: seats, dragons, king's plate, scores."""
    spec = parse_spec(bot)
    rows: list[TableRow] = []
    for n in players:
        config = TournamentConfig((spec,) * n, games, seed, rules or Rules())
        results = run_tournament(config, workers, progress=progress)
        summary = summarize_bots(config, results)[0]
        seat_summaries = summarize_seats(config, results)
        seats = [as_dict(s) for s in seat_summaries]
        rows.append(
            {
                "players": n,
                "games": games,
                "seats": seats,
                "first_cook_edge": seat_summaries[0].win_share.mean * n,
                "scores": {
                    "mean": summary.mean_points,
                    "stdev": summary.stdev_points,
                    "median": summary.median_points,
                    "mean_discarded": summary.mean_discarded,
                },
                "game": summarize_games(results),
            }
        )
    return {"bot": spec.label, "seed": seed, "rules": (rules or Rules()).to_dict(), "tables": rows}


def markdown(result: Analysis) -> str:
    """The findings as Markdown tables (pasted into ``docs/analysis.md``)."""
    lines = [
        f"Bot in every seat: `{result['bot']}`; seed {result['seed']}.",
        "",
        "| players | games | seat win shares (0 = first cook), 95% CI | first cook vs parity |",
        "|---|---|---|---|",
    ]
    for row in result["tables"]:
        seats = "; ".join(
            f"{s['seat']}: {100 * s['win_share']['mean']:.1f}% "
            f"[{100 * s['win_share']['low']:.1f}–{100 * s['win_share']['high']:.1f}]"
            for s in row["seats"]
        )
        lines.append(
            f"| {row['players']} | {row['games']} | {seats} | x{row['first_cook_edge']:.2f} |"
        )
    lines += [
        "",
        "| players | rounds | king's cards at the end | dragons fed from the table | "
        "drawn dragons used at once | drawn dragons placed | games with a dragon fed | "
        "mean points | tie-break by discards | shared wins |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["tables"]:
        g = row["game"]
        lines.append(
            f"| {row['players']} | {g['mean_rounds']:.1f} | {g['mean_king_cards']:.1f} | "
            f"{g['mean_dragons_fed_from_table']:.2f} | {g['mean_dragons_used_when_drawn']:.2f} | "
            f"{g['mean_dragons_placed']:.2f} | {100 * g['games_with_a_dragon_fed']:.0f}% | "
            f"{row['scores']['mean']:.1f} | {100 * g['tie_break_discards']:.1f}% | "
            f"{100 * g['tie_break_shared']:.1f}% |"
        )
    lines += ["", "King's final plate by dish (mean cards):", "",
              "| players | " + " | ".join(result["tables"][0]["game"]["mean_king_by_dish"]) + " |",
              "|---|" + "---|" * 7]
    for row in result["tables"]:
        by_dish = row["game"]["mean_king_by_dish"]
        lines.append(f"| {row['players']} | " + " | ".join(f"{v:.2f}" for v in by_dish.values())
                     + " |")
    return "\n".join(lines) + "\n"
