"""PPO on the JAX environment against three random seats: the learning curve of
docs/baselines.md, from a few minutes of CPU.

    pip install 'kingsbreakfast[jax]'
    nice -n 10 python examples/jax_ppo.py [--seeds 2 3 4] [--chunks 10] [--updates 10]

Each seed trains ``--chunks`` × ``--updates`` PPO updates (``kingsbreakfast.jax.ppo``: each
chunk of updates is one compiled call, rollouts and updates inside ``jit``); after every
chunk the policy's most likely action plays ``--eval-games`` fresh games against three random
seats, and the learner's win share (ties shared; random play's is 25%) is printed with its
95% Wilson interval, beside the learner steps and the CPU seconds spent so far (compiling
included). The first cook of every evaluation game is drawn at random (R2), as in training,
so the turn positions are met in random proportions, not rotated. ``--json`` writes the curve.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import jax
import numpy as np

from kingsbreakfast.jax.ppo import Config, make_evaluate, make_train, start

# the Wilson interval of the other baseline curves and the versions every baseline records
# (benchmarks/curves.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from curves import versions, wilson  # type: ignore[import-not-found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--chunks", type=int, default=10)
    parser.add_argument("--updates", type=int, default=10, help="PPO updates per chunk")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--eval-games", type=int, default=4096)
    parser.add_argument("--json", help="write the curve here")
    args = parser.parse_args()
    config = Config(num_envs=args.envs)
    print(f"JAX {jax.__version__} on {jax.devices()[0].platform}; {config}")
    train = make_train(config, args.updates)
    evaluate = make_evaluate(config, args.eval_games, greedy=True)
    curve = []
    for seed in args.seeds:
        cpu = time.process_time()
        runner = start(jax.random.PRNGKey(seed), config)
        for chunk in range(args.chunks + 1):
            if chunk:
                runner, metrics = train(runner)
                metrics = np.asarray(metrics)
                training = float(metrics[:, 1].sum() / max(metrics[:, 0].sum(), 1))
            else:
                training = float("nan")
            shares = np.asarray(evaluate(runner[0], jax.random.PRNGKey(10_000 + chunk)))
            share = float(shares.mean())
            low, high = wilson(share, len(shares))
            steps = chunk * args.updates * config.num_envs * config.num_steps
            spent = time.process_time() - cpu
            curve.append({"seed": seed, "learner_steps": steps, "cpu_s": round(spent, 1),
                          "win_share": share, "low": low, "high": high, "games": len(shares),
                          "training_win_share": training})  # fmt: skip
            print(f"seed {seed}: {steps:>9,} learner steps, {spent:6.1f} CPU s: win share "
                  f"{share:.1%} [{low:.1%}–{high:.1%}] over {len(shares)} games "
                  f"(training {training:.1%})")  # fmt: skip
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"config": config.__dict__, "versions": versions(), "curve": curve},
                      out, indent=1)  # fmt: skip


if __name__ == "__main__":
    main()
