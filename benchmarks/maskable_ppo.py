"""MaskablePPO (sb3-contrib) on the Gymnasium environment: does the mask reach the learner,
and how far does a short training run get against random bots?

    pip install sb3-contrib        # brings PyTorch; not a dependency of this project
    .venv/bin/python benchmarks/maskable_ppo.py --steps 50000 --games 400

Trains a masked PPO agent for ``--steps`` environment steps (4 players, the learner against
three random bots, rank reward), then plays ``--games`` evaluation games on fixed seeds with
the masked policy, and the same games with a uniformly random player for reference. Every
action the trained policy chooses is checked against the engine's legal actions.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]

from kingsbreakfast.interop.gymnasium import KingsBreakfastEnv


def evaluate(env: KingsBreakfastEnv, choose: object, games: int) -> dict[str, float]:
    wins = 0.0
    points = 0.0
    illegal = 0
    for game in range(games):
        observation, info = env.reset(seed=10_000 + game)
        done = False
        while not done:
            mask = env.action_masks()
            action = int(choose(observation, mask))  # type: ignore[operator]
            if not mask[action]:
                illegal += 1
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        winners = info["winners"]
        if env.seat in winners:
            wins += 1 / len(winners)
        points += info["points"]
    return {"win_share": wins / games, "mean_points": points / games, "illegal": illegal}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = KingsBreakfastEnv(players=4, seat=0, opponents="random")
    rng = random.Random(args.seed)
    baseline = evaluate(
        env, lambda _obs, mask: rng.choice(np.flatnonzero(mask).tolist()), args.games
    )
    print(json.dumps({"player": "uniform random", **baseline}), flush=True)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start

    def trained(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    result = evaluate(env, trained, args.games)
    print(json.dumps({"player": f"MaskablePPO after {args.steps} steps", **result,
                      "training_seconds": round(seconds, 1)}), flush=True)


if __name__ == "__main__":
    main()
