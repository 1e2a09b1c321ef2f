"""Our ``expert`` against OpenSpiel's own ``ISMCTSBot``, same wall-clock budget per move,
one of ours against three of theirs, seat-rotated, 4 players.

    .venv/bin/python benchmarks/vs_openspiel.py --games 40 --seconds 1.0
    .venv/bin/python benchmarks/vs_openspiel.py --games 40 --seconds 1.0 --bot master

(``--bot master``: the learned level, which answers in milliseconds and has no time budget
to fill; OpenSpiel's bot still gets its second a move.)

Both play the game through the project's OpenSpiel adapter (``python_kings_breakfast``,
rank utility). Our bot receives the adapter's view of its seat (never the state); OpenSpiel's
bot uses ``resample_from_infostate`` with random-rollout evaluation. Chance outcomes (cards
turned up and drawn) are sampled from a seeded generator, so the deals are reproducible; the
moves are not, because both bots are bounded by time. 25% is parity.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

import kingsbreakfast.interop.openspiel  # noqa: F401  registers the game
from kingsbreakfast.bots import make_bot


def play(
    game: object, ours_seat: int, seconds: float, simulations: int, seed: int, uct_c: float,
    bot: str = "expert",
) -> float:
    rng = random.Random(seed)
    theirs = {
        seat: ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed * 10 + seat)),
            uct_c,
            simulations,
            random_state=np.random.RandomState(seed * 10 + seat + 5),
            allow_inconsistent_action_sets=True,
        )
        for seat in range(4)
        if seat != ours_seat
    }
    ours = make_bot("expert", seconds=seconds) if bot == "expert" else make_bot(bot)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick = rng.random()
            total = 0.0
            chosen = outcomes[-1][0]
            for outcome, p in outcomes:
                total += p
                if pick < total:
                    chosen = outcome
                    break
            state.apply_action(chosen)
            continue
        seat = state.current_player()
        if seat == ours_seat:
            action = int(ours.act(state.view(seat), rng))
        else:
            action = theirs[seat].step(state)
        state.apply_action(action)
    scoring = state.view(None).score()
    return 1.0 / len(scoring.winners) if ours_seat in scoring.winners else 0.0


def calibrate(game: object, seconds: float, uct_c: float) -> int:
    """Simulations OpenSpiel's ISMCTSBot runs in ``seconds`` on this machine now (best of 3
    mid-game positions with three or more choices), so that both bots get the same time per move."""
    rng = random.Random(7)
    rates = []
    for trial in range(3):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        steps = 0
        while steps < 20 + 5 * trial or state.is_chance_node() or len(
            state.legal_actions()
        ) < 3:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(trial)), uct_c, 100,
            random_state=np.random.RandomState(trial), allow_inconsistent_action_sets=True,
        )
        start = time.perf_counter()
        bot.step(state)
        rates.append(100 / (time.perf_counter() - start))
    return max(1, int(max(rates) * seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=1.5)
    parser.add_argument("--simulations", type=int, default=0,
                        help="OpenSpiel's budget; 0: calibrated to --seconds")
    parser.add_argument("--bot", default="expert", help="our level: expert or master")
    args = parser.parse_args()
    game = pyspiel.load_game("python_kings_breakfast", {"players": 4})
    simulations = args.simulations or calibrate(game, args.seconds, args.uct_c)
    print(json.dumps({"openspiel_simulations_per_move": simulations,
                      "seconds_per_move": args.seconds}), flush=True)
    shares = []
    start = time.perf_counter()
    for g in range(args.games):
        shares.append(
            play(game, g % 4, args.seconds, simulations, args.seed * 100000 + g, args.uct_c,
                 args.bot)
        )
        mean = sum(shares) / len(shares)
        se = math.sqrt(max(mean * (1 - mean), 1e-9) / len(shares))
        print(json.dumps({
            "games": len(shares), f"{args.bot}_win_share": round(mean, 4),
            "ci95": [round(max(0.0, mean - 1.96 * se), 4), round(min(1.0, mean + 1.96 * se), 4)],
            "seconds_per_move": args.seconds, "elapsed": round(time.perf_counter() - start),
        }), flush=True)


if __name__ == "__main__":
    main()
