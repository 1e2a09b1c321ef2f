"""MaskablePPO (sb3-contrib) on the Gymnasium environment: a learning curve of
docs/baselines.md, against three bots of one kind.

    pip install 'kingsbreakfast[rl,train]'      # train brings PyTorch and sb3-contrib
    nice -n 10 python benchmarks/maskable_ppo.py --opponents hard --seed 2 \
        --steps 40960 --curve-every 10240 --json maskable-ppo-hard-2.json

Trains sb3-contrib's ``MaskablePPO`` (its default ``MlpPolicy``, 2048 steps a rollout) on
``KingsBreakfastEnv``: the learner in seat 0, the three other seats ``--opponents`` (any
name of the bot registry: random, easy, medium, hard, …), the rank reward (R12), the mask
from ``action_masks()``. Before training and after every ``--curve-every`` steps the
policy's most likely action plays ``--curve-games`` fresh games, seat-rotated (``curves``),
and after the last step ``--final-games``; every evaluation plays the same deals for one
seed (a deal is played once from each turn position), different deals for another seed.
Every chosen action is checked against the engine's mask (``illegal`` counts misses, which
must stay 0). CPU seconds are those of training alone (``time.process_time``, the
evaluations taken out); PyTorch gets one thread (``--threads``) on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

import numpy as np
from curves import PLAYERS, point, position, rotations, write  # type: ignore[import-not-found]

from kingsbreakfast.interop.gymnasium import KingsBreakfastEnv

Choose = Callable[[np.ndarray, np.ndarray], int]
DEALS_PER_SEED = 1_000_000
"""Evaluation deals of seed ``s`` are ``s * DEALS_PER_SEED + k``: apart from other seeds'."""


def make_env(opponents: str) -> KingsBreakfastEnv:
    """The learner in seat 0 against three ``opponents`` bots (first cook drawn per game)."""
    return KingsBreakfastEnv(players=PLAYERS, seat=0, opponents=opponents)


def evaluate(env: KingsBreakfastEnv, choose: Choose, games: int, seed: int) -> dict[str, Any]:
    """``games`` fresh games, seat-rotated: game ``g`` deals deck ``g // 4`` of ``seed`` with
    the first cook at seat ``g % 4``, so each deal is played once from every turn position.
    Returns the learner's win shares (a shared win counts 1/k, R12), their positions and
    the number of illegal choices."""
    rotations(games, env.players)
    shares: list[float] = []
    positions: list[int] = []
    illegal = 0
    saved = env.first_cook
    try:
        for game in range(games):
            env.first_cook = game % env.players
            observation, info = env.reset(seed=seed * DEALS_PER_SEED + game // env.players)
            done = False
            while not done:
                mask = env.action_masks()
                action = int(choose(observation, mask))
                if not mask[action]:
                    illegal += 1
                observation, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            winners = info["winners"]
            shares.append(1 / len(winners) if env.seat in winners else 0.0)
            positions.append(position(env.game.first_cook, env.seat, env.players))
    finally:
        env.first_cook = saved
    return {"shares": shares, "positions": positions, "illegal": illegal}


def uniform(seed: int) -> Choose:
    """A uniformly random legal action: the reference a curve starts from."""
    rng = random.Random(seed)
    return lambda _observation, mask: rng.choice(np.flatnonzero(mask).tolist())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default="random", help="bot name for the 3 other seats")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40_960, help="learner steps in all")
    parser.add_argument("--curve-every", type=int, default=10_240, help="steps between points")
    parser.add_argument("--curve-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=1336)
    parser.add_argument("--n-steps", type=int, default=2048, help="MaskablePPO's rollout size")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--json", help="write the curve here")
    args = parser.parse_args(argv)
    rotations(args.curve_games)
    rotations(args.final_games)
    if args.curve_every <= 0 or args.curve_every % args.n_steps:
        parser.error("--curve-every must be a positive multiple of --n-steps (whole rollouts)")
    import torch
    from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]

    torch.set_num_threads(args.threads)
    print(f"PyTorch {torch.__version__}, sb3-contrib {metadata.version('sb3-contrib')}, "
          f"{args.threads} thread(s)", flush=True)  # fmt: skip
    env = make_env(args.opponents)
    judge = make_env(args.opponents)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=args.n_steps,
                        batch_size=args.batch_size, verbose=0)  # fmt: skip

    def trained(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    reference = evaluate(judge, uniform(args.seed), args.curve_games, args.seed)
    random_point = point(reference["shares"], reference["positions"])
    print(f"uniform random player: win share {random_point['win_share']:.1%} "
          f"[{random_point['low']:.1%}–{random_point['high']:.1%}]", flush=True)  # fmt: skip
    curve: list[dict[str, Any]] = []
    training = 0.0
    while True:
        steps = int(model.num_timesteps)
        last = steps >= args.steps
        games = args.final_games if last else args.curve_games
        result = evaluate(judge, trained, games, args.seed)
        curve.append(point(result["shares"], result["positions"], seed=args.seed,
                           learner_steps=steps, cpu_s=round(training, 1),
                           illegal=result["illegal"]))  # fmt: skip
        p = curve[-1]
        print(f"seed {args.seed}: {steps:>8,} learner steps, {training:6.1f} CPU s: win share "
              f"{p['win_share']:.1%} [{p['low']:.1%}–{p['high']:.1%}] over {games} games, "
              f"{result['illegal']} illegal", flush=True)  # fmt: skip
        if args.json:  # after every point, so that a run stopped early keeps its curve
            write(args.json, learner="MaskablePPO", opponents=args.opponents, seed=args.seed,
                  steps=args.steps, n_steps=args.n_steps, batch_size=args.batch_size,
                  threads=args.threads, complete=last, uniform_random=random_point,
                  curve=curve)  # fmt: skip
        if last:
            break
        before = time.process_time()
        model.learn(total_timesteps=min(args.curve_every, args.steps - steps),
                    reset_num_timesteps=False)  # fmt: skip
        training += time.process_time() - before


if __name__ == "__main__":
    main()
