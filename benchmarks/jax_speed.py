"""How many steps per second the JAX environment takes, on whatever device JAX finds, beside
the C playout in the same run.

Goal (CPU): C playout decisions/s ÷ JAX steps/s ≤ 30 at a batch of 4,096 games, after
compilation; the compile time is reported on its own line.

A step is one action for every game of the batch: ``Env.step_and_deal`` (``step`` with
pgx's auto-reset: a finished game is dealt again) with a uniformly random legal action
(picked from the legal mask inside the compiled function with one random number), the cards
it turns up drawn from the key, the mover's view tensor and legal mask written.
``--steps`` steps run inside one ``jax.jit``-compiled ``lax.scan``, so Python is out of
the loop; the time is wall-clock time with the result waited for (``block_until_ready``),
and on a CPU also the process CPU time, which counts every thread XLA uses, so that C
(one core) and JAX are compared per core.

    python benchmarks/jax_speed.py [--players 4] [--batches 1024 4096 65536] [--steps 64]
                                   [--one-core]

CPU time is a fair per-core measure only when XLA's threads work all the time they hold a
core; on a small batch they spend part of it waiting for each other, which CPU time counts
too. ``--one-core`` pins the process to one core and starts the script again, so every
thread (XLA's pool included) is born on that core and wall clock, CPU time and the C
playout are all one core's: the goal's figure on a CPU.

Runs unchanged on a GPU (install ``jax[cuda12]``): the device is printed first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import run_c

from kingsbreakfast.jax import Env, State

RUNNING_COUNT = np.triu(np.ones((Env.num_actions, Env.num_actions), np.float32))
"""Column j sums the legal flags of ids 0..j."""


def rollout(env: Env, steps: int) -> Any:
    """A compiled function: ``steps`` random steps of a batch, finished games dealt again."""
    step = jax.vmap(env.step_and_deal)
    init = jax.vmap(env.init)

    def one(carry: tuple[State, jax.Array], _: None) -> tuple[tuple[State, jax.Array], None]:
        state, key = carry
        key, pick, turn = jax.random.split(key, 3)
        size = state.terminated.shape[0]
        # a uniformly random legal action: the k-th legal id, k uniform below their count;
        # the running count of legal ids is a product with a triangular matrix of ones
        # (exact in float32), which XLA's CPU code runs faster than a cumulative sum
        running = state.legal_action_mask.astype(jnp.float32) @ RUNNING_COUNT
        k = jnp.floor(jax.random.uniform(pick, (size,)) * running[:, -1])
        action = (running <= k[:, None]).sum(axis=1, dtype=jnp.int32)
        state = step(state, action, jax.random.split(turn, size))
        return (state, key), None

    def run(state: State, key: jax.Array) -> tuple[State, jax.Array]:
        (state, key), _ = jax.lax.scan(one, (state, key), None, length=steps)
        return state, key

    return jax.jit(run), jax.jit(init)


def measure(env: Env, batch: int, steps: int, repeats: int) -> tuple[float, float, float]:
    """(compile seconds, best steps/s by wall clock, best steps/s by CPU time)."""
    run, init = rollout(env, steps)
    key = jax.random.PRNGKey(batch)
    start = time.perf_counter()
    state = init(jax.random.split(key, batch))
    state, key = run(state, key)
    jax.block_until_ready(state)
    compile_s = time.perf_counter() - start
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        state, key = run(state, key)
        jax.block_until_ready(state)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall = max(best_wall, batch * steps / max(wall, 1e-9))
        best_cpu = max(best_cpu, batch * steps / max(cpu, 1e-9))
    return compile_s, best_wall, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batches", type=int, nargs="+", default=[1024, 4096, 65536])
    parser.add_argument("--steps", type=int, default=64, help="steps per compiled call")
    parser.add_argument("--repeats", type=int, default=3, help="report the best of this many")
    parser.add_argument("--c-games", type=int, default=200_000)
    parser.add_argument("--one-core", action="store_true",
                        help="pin the process to one core before JAX starts")  # fmt: skip
    args = parser.parse_args()
    if args.one_core and len(os.sched_getaffinity(0)) > 1:
        # importing jax already started threads, which a pin now would not move: the pin is
        # set and the script started again, so every thread it makes is born on that core
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        os.execv(sys.executable, [sys.executable, *sys.argv])
    device = jax.devices()[0]
    cores = len(os.sched_getaffinity(0))
    print(f"JAX {jax.__version__} on {device.platform}: {device.device_kind} "
          f"({jax.device_count()} device(s), {cores} core(s) for this process)")  # fmt: skip
    env = Env(args.players)
    rates = {}
    for batch in args.batches:
        compile_s, wall, cpu = measure(env, batch, args.steps, args.repeats)
        rates[batch] = (wall, cpu)
        print(f"JAX env B={batch:>6}, {args.players} players: {wall:>12,.0f} steps/s wall, "
              f"{cpu:>12,.0f} steps/s CPU time "
              f"(compile and first call {compile_s:.1f} s)")  # fmt: skip
    measured = run_c(args.c_games, args.players, 1, args.repeats)
    if measured is None:
        return
    cpu_s, per_game = measured
    c_rate = args.c_games * per_game / cpu_s
    print(f"C playout, {args.players} players: {c_rate:,.0f} decisions/s (CPU time, one core)")
    for batch, (wall, cpu) in rates.items():
        print(f"C ÷ JAX at B={batch}: {c_rate / wall:.1f} by wall clock, "
              f"{c_rate / cpu:.1f} by CPU time")  # fmt: skip


if __name__ == "__main__":
    main()
