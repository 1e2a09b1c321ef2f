"""Commands for research interfaces and batch simulation.

``batch`` plays many games at once in the compiled batch simulator; ``tensor-layout``
prints the view tensor shared by the OpenSpiel, PettingZoo and Gymnasium adapters. Both
import their optional packages only when run, so the command line starts without them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from kingsbreakfast.bots import batch_policy
from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import (
    LangOption,
    VariantOption,
    fail,
    parse_variants,
)
from kingsbreakfast.engine import KingsBreakfastError


def batch(
    games: Annotated[int, typer.Option(help="Number of games, 1 to 10,000,000.")] = 100_000,
    players: Annotated[int, typer.Option(help="Number of players, 3 to 5.")] = 4,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            help="A bot the batch simulator can play ({batch_bots}); once for every seat, or "
            "once per seat (repeat the option).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same games.")] = 0,
    variant: VariantOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Simulate many games at native speed (batch simulator) and print scores and wins."""
    need_extra("batch", "numpy", "numba")
    from kingsbreakfast.sim.batch import simulate

    try:
        names = [batch_policy(name) for name in policy or ["random"]]
        rules = parse_variants(variant)
        simulate(1, players, names[0] if len(names) == 1 else names, rules=rules)  # compile
        start = time.perf_counter()
        result = simulate(
            games, players, names[0] if len(names) == 1 else names, seed=seed, rules=rules
        )
        seconds = time.perf_counter() - start
    except (KingsBreakfastError, ValueError, TypeError) as error:
        raise fail(error) from None
    stats = result.stats()
    if as_json:
        print(json.dumps({**stats.__dict__, "rules": rules.to_dict(), "seed": seed,
                          "seconds": seconds}))
        return
    from kingsbreakfast.cli.reports import print_batch

    print_batch(stats, games / seconds, seconds)


def tensor_layout(lang: LangOption = None) -> None:
    """Print the view tensor shared by the OpenSpiel, PettingZoo and Gymnasium adapters."""
    from kingsbreakfast.interop import encoding

    start = 0
    print(f"{'entries':>9}  {'field':16} {'÷':>4}  meaning")
    for field in encoding.FIELDS:
        stop = start + field.size
        print(f"{start:>4}–{stop - 1:<4}  {field.name:16} {field.scale:>4}  {field.meaning}")
        start = stop
    print(f"{encoding.SIZE} entries, each in [0, 1].")


def leaderboard(
    agents: Annotated[
        str, typer.Option(help="Outside agents to enter, comma-separated: module:Class or "
                          "cmd:PROGRAM (docs/research.md).")
    ] = "",
    games: Annotated[int, typer.Option(help="Games per table, a multiple of 4.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed of every deck: same seed, same board.")] = 1,
    workers: Annotated[int, typer.Option(help="Parallel worker processes.")] = 1,
    output: Annotated[Path, typer.Option(help="The Markdown page to write.")]
    = Path("docs/leaderboard.md"),
    agent_timeout: Annotated[
        float, typer.Option(help="Seconds an outside program has for a move.")
    ] = 5.0,
    built_in: Annotated[
        str | None, typer.Option(help="Replace the built-in entrants (for trying the "
                                 "command quickly; the page then says so).")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Run the leaderboard's fixed protocol (every built-in bot and the agents given, every
    four-player table, seat-rotated decks from the seed) and write the page."""
    need_extra("sim", "openskill")
    from kingsbreakfast.sim.leaderboard import BUILT_IN, markdown, run_leaderboard

    entrants = [a.strip() for a in agents.split(",") if a.strip()]
    own = BUILT_IN if built_in is None else [b.strip() for b in built_in.split(",") if b.strip()]
    try:
        if not agent_timeout > 0:
            raise ValueError(f"--agent-timeout must be more than 0 seconds, not {agent_timeout}")
        board = run_leaderboard(entrants, games, seed, workers, own, agent_timeout)
    except (ValueError, KingsBreakfastError) as error:
        raise fail(error) from None
    words = ["kingsbreakfast leaderboard", f"--games {games}", f"--seed {seed}"]
    if entrants:
        words.append(f"--agents '{','.join(entrants)}'")
    if built_in is not None:
        words.append(f"--built-in '{','.join(own)}'")
    page = markdown(board, " ".join(words))
    if built_in is not None:
        page = page.replace("## Results", "## Results (built-in entrants replaced: not the "
                            "protocol's board)", 1)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(page)
    for place, entry in enumerate(board.entries, 1):
        share = entry.win_share
        print(f"{place:>2}. {entry.label:<32} win {100 * share.mean:5.1f}% "
              f"[{100 * share.low:5.1f}, {100 * share.high:5.1f}]  "
              f"mu-3sigma {entry.rating.ordinal:6.2f}  forfeits {entry.forfeits}")
    print(f"written: {output}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command()(batch)
    app.command()(leaderboard)
    app.command(name="tensor-layout")(tensor_layout)
