"""Commands for research interfaces and batch simulation.

``batch`` plays many games at once in the compiled batch simulator; ``tensor-layout``
prints the view tensor shared by the OpenSpiel, PettingZoo and Gymnasium adapters. Both
import their optional packages only when run, so the command line starts without them.
"""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer

from kingsbreakfast.bots import BOTS, batch_policy
from kingsbreakfast.cli.options import (
    LangOption,
    VariantOption,
    fail,
    need_extra,
    parse_variants,
)
from kingsbreakfast.engine import KingsBreakfastError


def batch(
    games: Annotated[int, typer.Option(help="Number of games, 1 to 10,000,000.")] = 100_000,
    players: Annotated[int, typer.Option(help="Number of players, 3 to 5.")] = 4,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            help="A bot the batch simulator can play ("
            f"{', '.join(e.name for e in BOTS if e.batch_policy is not None)}); once for "
            "every seat, or once per seat (repeat the option).",
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
    print("\n".join(stats.lines()))
    print(f"{games / seconds:,.0f} games/s ({seconds:.2f} s)")


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


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command()(batch)
    app.command(name="tensor-layout")(tensor_layout)
