"""A leaderboard anyone can reproduce: a fixed evaluation protocol and its Markdown page.

The protocol (``docs/leaderboard.md`` prints it with the results):

- the entrants are the built-in bots of :data:`BUILT_IN` (each with a fixed budget, so that
  a machine's speed changes nothing) and any outside agents given (``module:Class`` or
  ``cmd:PROGRAM``, :mod:`kingsbreakfast.bots.outside`);
- tables of :data:`PLAYERS` seats: every set of four different entrants, in entrant order
  (with five entrants, five tables);
- at each table ``games`` games (a multiple of four) in blocks of one deck dealt four
  times with the line-up rotated a seat each time (:mod:`.tournament`), so every entrant
  plays every seat on the same cards; table ``t``'s decks come from the tournament seed
  ``seed * 1000 + t``;
- win shares (a shared win, R12, split evenly) pooled over all tables, with a 95% interval
  clustered by deck block; OpenSkill (Plackett-Luce) ratings updated over every game, the
  tables in order; the board is sorted by the conservative rating mu − 3 sigma.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .match import GameResult
from .ratings import Rating, rate_many
from .specs import BotSpec, parse_spec
from .stats import Share, clustered_share
from .tournament import TournamentConfig, game_plan, run_tournament

PLAYERS = 4
BUILT_IN = ("random", "greedy", "heuristic", "ismcts:simulations=200")
"""The built-in bots on the board; the search with a fixed budget of simulations."""
DEFAULT_GAMES = 40


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the board."""

    label: str
    games: int
    win_share: Share
    mean_points: float
    rating: Rating
    forfeits: int


@dataclass(frozen=True, slots=True)
class Board:
    entries: tuple[Entry, ...]
    tables: int
    games_per_table: int
    seed: int


def run_leaderboard(
    agents: Sequence[str] = (),
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    workers: int = 1,
    built_in: Sequence[str] = BUILT_IN,
    timeout: float = 5.0,
    progress: Callable[[int], None] | None = None,
) -> Board:
    """Play the protocol of the module doc and rank the entrants."""
    if games < PLAYERS or games % PLAYERS:
        raise ValueError(f"games per table must be a multiple of {PLAYERS}, not {games}")
    specs: list[BotSpec] = [parse_spec(text, timeout) for text in [*built_in, *agents]]
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"an entrant is named twice: {', '.join(labels)}")
    if len(specs) < PLAYERS:
        raise ValueError(f"a leaderboard needs at least {PLAYERS} entrants, got {len(specs)}")
    played: list[tuple[TournamentConfig, Sequence[GameResult]]] = []
    for table, lineup in enumerate(combinations(specs, PLAYERS)):
        config = TournamentConfig(tuple(lineup), games, seed * 1000 + table)
        played.append((config, run_tournament(config, workers, progress=progress)))
    ratings = {r.label: r for r in rate_many(played, labels)}
    entries = []
    for label in labels:
        wins: list[float] = []
        counts: list[float] = []
        points: list[int] = []
        forfeits = 0
        for config, results in played:
            blocks: dict[int, list[float]] = {}
            for index, result in enumerate(results):
                plan = game_plan(config, index)
                for seat, entry in enumerate(plan.seats):
                    if config.lineup[entry].label != label:
                        continue
                    block = blocks.setdefault(plan.block, [0.0, 0.0])
                    block[0] += result.win_share[seat]
                    block[1] += 1
                    points.append(result.points[seat])
                    forfeits += result.forfeits[seat] if result.forfeits else 0
            for won, count in blocks.values():
                wins.append(won)
                counts.append(count)
        entries.append(
            Entry(
                label, len(points), clustered_share(wins, counts),
                sum(points) / max(1, len(points)), ratings[label], forfeits,
            )
        )
    entries.sort(key=lambda e: -e.rating.ordinal)
    return Board(tuple(entries), len(played), games, seed)


def markdown(board: Board, command: str) -> str:
    """The page ``docs/leaderboard.md``: the protocol, the command, the table."""
    lines = [
        "# Leaderboard",
        "",
        "Written by `kingsbreakfast leaderboard`; run the command below to get the same "
        "table (the games depend only on the seed: no time budgets are involved, and an "
        "outside program that always answers in time plays the same moves).",
        "",
        "```sh",
        command,
        "```",
        "",
        "## Protocol",
        "",
        f"- Tables of {PLAYERS} players: every set of {PLAYERS} different entrants "
        f"({board.tables} tables here).",
        f"- {board.games_per_table} games per table, in blocks of one deck dealt {PLAYERS} "
        "times with the line-up rotated one seat each time, so every entrant plays every seat "
        "(and the first cook's, R3) on the same cards.",
        f"- Decks from the seed: table t uses tournament seed {board.seed} × 1000 + t.",
        "- Built-in bots: " + ", ".join(f"`{b}`" for b in BUILT_IN) + " (a fixed number of "
        "simulations, never a time budget).",
        "- Win share: wins per game played, a shared win (R12) split evenly, pooled over "
        "all tables, with a 95% interval clustered by deck block. Rating: OpenSkill "
        "(Plackett-Luce) over every game, tables in order, places by R12; the board is "
        "sorted by mu − 3 sigma.",
        "- Outside agents forfeit a move that is illegal, late or unreadable to the lowest "
        "legal action (docs/research.md, *Outside agents*); forfeits are counted.",
        "",
        "## Results",
        "",
        "| # | entrant | games | win share [95% CI] | mean points | mu | sigma | mu − 3σ | "
        "forfeits |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for place, e in enumerate(board.entries, 1):
        share = e.win_share
        lines.append(
            f"| {place} | `{e.label}` | {e.games} | {100 * share.mean:.1f}% "
            f"[{100 * share.low:.1f}, {100 * share.high:.1f}] | {e.mean_points:.1f} | "
            f"{e.rating.mu:.2f} | {e.rating.sigma:.2f} | {e.rating.ordinal:.2f} | {e.forfeits} |"
        )
    return "\n".join(lines) + "\n"
