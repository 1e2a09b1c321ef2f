"""How often a review marks a choice as a big loss, by the player who made it.

The review (``kingsbreakfast review``, ``bots/review.py``) marks a decision whose win chance
lost against the master bot's first choice reaches ``BIG_LOSS``. A mark is useful when it
is rare for a good player and common for a careless one, so this script plays whole games
between two kinds of seat — the hard bot (the card counter without slips) and the random
bot — seat-rotated on the same decks, reviews every seat of every game, and prints for each
kind the decisions reviewed, the share marked as big losses (with a Wilson 95% interval),
the median and 90th percentile of the win chance lost per decision, and how the share would
move at half and twice the threshold.

    python benchmarks/review_losses.py [--games 200] [--players 4] [--seed 1] [--seed 2]

Each deck is played once per rotation of a line-up of two hard and two random seats (for
4 players; ``players // 2`` hard seats in general), so every seat position holds each kind
equally often.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from kingsbreakfast.bots import make_bot
from kingsbreakfast.bots.review import BIG_LOSS, review_seat
from kingsbreakfast.engine import Record, State


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return 0.0, 0.0
    share = hits / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return centre - half / (1 + z * z / total), centre + half / (1 + z * z / total)


def play(seed: int, lineup: list[str]) -> Record:
    rng = random.Random(seed)
    state = State.new(len(lineup), rng)
    bots = [make_bot(name) for name in lineup]
    rngs = [random.Random(rng.randrange(2**63)) for _ in lineup]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat), rngs[seat]))
    return Record.from_state(state, lineup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="decks per seed")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, action="append")
    options = parser.parse_args()
    seeds = options.seed or [1, 2]
    hard = options.players // 2
    base = ["hard"] * hard + ["random"] * (options.players - hard)
    losses: dict[str, list[float]] = {"hard": [], "random": []}
    started = time.perf_counter()
    games = 0
    for seed in seeds:
        decks = random.Random(seed)
        for _ in range(options.games):
            deck_seed = decks.randrange(2**32)
            for shift in range(options.players):
                lineup = base[shift:] + base[:shift]
                record = play(deck_seed, lineup)
                games += 1
                for seat, kind in enumerate(lineup):
                    review = review_seat(record, seat)
                    losses[kind].extend(move.win_lost for move in review.moves)
    seconds = time.perf_counter() - started
    print(f"{games} games of {options.players} players (seeds {seeds}, seat-rotated), "
          f"{seconds:.0f} s; big loss at win chance lost >= {BIG_LOSS}")
    for kind, lost in losses.items():
        marked = sum(x >= BIG_LOSS for x in lost)
        low, high = wilson(marked, len(lost))
        deciles = statistics.quantiles(lost, n=10)
        half = sum(x >= BIG_LOSS / 2 for x in lost) / len(lost)
        double = sum(x >= BIG_LOSS * 2 for x in lost) / len(lost)
        print(f"  {kind:7} {len(lost):6} decisions, marked {marked / len(lost):6.1%} "
              f"[{low:.1%}, {high:.1%}] (1 in {len(lost) / max(marked, 1):.0f}); "
              f"median lost {statistics.median(lost):.4f}, 90th percentile {deciles[-1]:.4f}; "
              f"at half the threshold {half:.1%}, at twice {double:.1%}")


if __name__ == "__main__":
    main()
