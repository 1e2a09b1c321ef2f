"""How often the JAX card counter chooses what the ``hard`` bot chooses, over many positions.

The positions are those of engine games, 3–5 players and every variant (the mover plays
``hard``'s choice three times in four, a random legal action otherwise; the harness is
tests/jax_env/test_card_counter.py's, which asks for every decision of a smaller run). A
decision agrees when the set of actions the bot values best (within its tolerance; ``hard``
breaks a tie at random) is the set the JAX counter values best. Both precisions are counted:
double (``jax.enable_x64``, the bot's own arithmetic) and JAX's default single precision, the
one a learner's training loop runs in.

    python benchmarks/jax_card_counter.py [--games 40] [--seed 1]

Prints one line per table size and precision and the totals.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from jax_env.test_card_counter import VARIANTS, replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per table size and variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"device: {jax.devices()[0]}")
    for double in (True, False):
        precision = "double" if double else "single"
        totals = [0, 0, 0]
        with jax.enable_x64(double):
            for players in (3, 4, 5):
                row = [0, 0, 0]
                for number, rules in enumerate(VARIANTS):
                    seed = args.seed * 1000 + players * 10 + number
                    got = replay(players, rules, args.games, seed)
                    row = [a + b for a, b in zip(row, got, strict=True)]
                print(f"{precision} precision, {players} players: {row[1]} of {row[0]} "
                      f"decisions agree ({row[2]} with a tie in the bot's values)")  # fmt: skip
                totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(f"{precision} precision, total: {totals[1]} of {totals[0]} decisions agree "
              f"({totals[0] - totals[1]} differ)")  # fmt: skip


if __name__ == "__main__":
    main()
