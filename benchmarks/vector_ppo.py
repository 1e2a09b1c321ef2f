"""A learning curve on the vector environment: PPO (clipped) in plain numpy, against three
random seats, until it reaches the win share MaskablePPO reached through the Gymnasium
environment (44.7% after 30,000 steps and 235 s of training, docs/research.md).

    python benchmarks/vector_ppo.py [--target 0.447] [--hidden 64] [--envs 1024]
    python benchmarks/vector_ppo.py --opponents hard --target 2 --max-updates 20 \
        --curve-every 4 --json curve.json        # a learning curve against three `hard`

The policy is a small network (one hidden layer of ``--hidden`` ReLU units; 0 makes it
linear) giving a softmax over the 38 action ids with the illegal ones masked out, trained
by Adam, with a linear value baseline: nothing beyond numpy, no deep-learning library.
Every update collects ``envs × horizon`` learner steps from ``VectorGames`` (the learner in
seat 0, three built-in random seats, first cook drawn per game), gives every step of a
finished game that game's rank reward (R12), and takes PPO's clipped-ratio steps on it.
After each update the win share of the games finished during it is printed (a shared win,
R12, counted as 1/k); training stops once it reaches ``--target`` over at least 2,000
games, and a separate evaluation plays ``--eval-games`` fresh games with the policy's most
likely action. Wall-clock time is printed for training alone, beside the Gymnasium run's
235 s. ``--opponents`` sets the three other seats (a bot or level whose policy the vector
environment plays: ``random``, or ``hard``, the card counter); ``--curve-every K`` plays
``--curve-games`` fresh evaluation games after every K updates (most likely action, against
the same opponents, seat-rotated: ``curves.py``) and prints them with their Wilson interval
and the CPU seconds spent so far, evaluations excluded; ``--json`` writes that curve.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from curves import PLAYERS, point, position, rotations, write  # type: ignore[import-not-found]

from kingsbreakfast.bots import batch_policy
from kingsbreakfast.sim.vector import OBS_SIZE, VectorGames

ACTIONS = 38


class Policy:
    """A masked softmax policy: obs -> (ReLU layer) -> logits, trained by Adam."""

    def __init__(self, hidden: int, rng: np.random.Generator, lr: float) -> None:
        width = hidden or OBS_SIZE
        self.hidden = hidden
        self.params = {
            "w2": np.zeros((width, ACTIONS)),
            "b2": np.zeros(ACTIONS),
        }
        if hidden:
            self.params["w1"] = rng.normal(0, np.sqrt(2 / OBS_SIZE), (OBS_SIZE, hidden))
            self.params["b1"] = np.zeros(hidden)
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.lr = lr
        self.t = 0

    def features(self, obs: np.ndarray) -> np.ndarray:
        if not self.hidden:
            return obs
        return np.maximum(obs @ self.params["w1"] + self.params["b1"], 0.0)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = self.features(obs)
        logits = h @ self.params["w2"] + self.params["b2"]
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True), h

    def ascend(self, obs: np.ndarray, h: np.ndarray, grad_logits: np.ndarray) -> None:
        n = len(obs)
        grads = {"w2": h.T @ grad_logits / n, "b2": grad_logits.mean(axis=0)}
        if self.hidden:
            dh = grad_logits @ self.params["w2"].T
            dh[h <= 0] = 0.0
            grads["w1"] = obs.T @ dh / n
            grads["b1"] = dh.mean(axis=0)
        self.t += 1
        for key, grad in grads.items():
            m, v = self.moments[key]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad**2
            step = (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)
            self.params[key] += self.lr * step


def win_share(games: VectorGames, done: np.ndarray) -> np.ndarray:
    """The learner's (seat 0) share of the win in each finished game (R12)."""
    points = games.points[done].astype(np.int64)
    discarded = games.discarded[done].astype(np.int64)
    key = points * 1000 - discarded  # more points, then fewer discards
    winners = key == key.max(axis=1, keepdims=True)
    return winners[:, 0] / winners.sum(axis=1)


def evaluate(
    policy: Policy, games_wanted: int, seed: int, opponents: str = "random"
) -> dict[str, Any]:
    """``games_wanted`` fresh games with the policy's most likely action, seat-rotated
    (``curves``): a quarter of them with the first cook at each seat, every game played to
    its end once (no auto-reset, so short games are not favoured). Returns a curve point
    without its steps and seconds."""
    per_cook = rotations(games_wanted)
    shares: list[float] = []
    positions: list[int] = []
    for cook in range(PLAYERS):
        games = VectorGames(per_cook, PLAYERS, ["caller"] + [opponents] * 3,
                            first_cook=cook, autoreset=False)  # fmt: skip
        obs, mask = games.reset(seed=seed)
        finished = np.zeros(per_cook, np.bool_)
        share = np.zeros(per_cook)
        while not finished.all():
            actions = policy.probs(obs, mask)[0].argmax(axis=1)
            obs, mask, _, done = games.step(actions)
            ended = done & ~finished
            if ended.any():
                share[ended] = win_share(games, ended)
                finished |= ended
        shares += share.tolist()
        positions += [position(cook)] * per_cook
    return point(shares, positions)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.447)
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (0: linear)")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--horizon", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.003, help="Adam's step size")
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--max-updates", type=int, default=400)
    parser.add_argument("--eval-games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--opponents", default="random",
                        help="a bot or level with a compiled policy: random, hard, ...")
    parser.add_argument("--curve-every", type=int, default=0, help="evaluate every K updates")
    parser.add_argument("--curve-games", type=int, default=4096)
    parser.add_argument("--json", help="write the evaluation curve here")
    args = parser.parse_args(argv)
    opponents = batch_policy(args.opponents)  # a level (hard) or bot name -> kernel policy
    curve: list[dict[str, Any]] = []
    cpu_start = time.process_time()
    evaluating = 0.0
    rng = np.random.default_rng(args.seed)
    policy = Policy(args.hidden, rng, args.lr)
    value = np.zeros(OBS_SIZE + 1)
    games = VectorGames(args.envs, PLAYERS, ["caller"] + [opponents] * 3)
    obs, mask = games.reset(seed=args.seed)
    obs, mask = obs.copy(), mask.copy()
    # the steps of each game still being played, per slot: (obs, mask, action, prob)
    open_steps: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [
        [] for _ in range(args.envs)
    ]
    start = time.perf_counter()
    steps = 0
    reached = None
    rows = np.arange(args.envs)
    if args.curve_every:
        before = time.process_time()
        measured = evaluate(policy, args.curve_games, args.seed * 100_000, opponents)
        evaluating += time.process_time() - before
        curve.append({"seed": args.seed, "update": 0, "learner_steps": 0, "cpu_s": 0.0,
                      **measured})  # fmt: skip
    for update in range(1, args.max_updates + 1):
        batch: list[tuple[np.ndarray, np.ndarray, int, float]] = []
        returns: list[float] = []
        shares: list[float] = []
        for _ in range(args.horizon):
            probs = policy.probs(obs, mask)[0]
            u = rng.random((args.envs, 1))
            actions = (probs.cumsum(axis=1) < u).sum(axis=1).clip(0, ACTIONS - 1)
            chosen = probs[rows, actions]
            for g in range(args.envs):
                open_steps[g].append((obs[g], mask[g], int(actions[g]), float(chosen[g])))
            new_obs, new_mask, rewards, done = games.step(actions)
            steps += args.envs
            if done.any():
                shares += win_share(games, done).tolist()
                for g in np.flatnonzero(done):
                    batch += open_steps[g]
                    returns += [float(rewards[g, 0])] * len(open_steps[g])
                    open_steps[g] = []
            obs, mask = new_obs.copy(), new_mask.copy()
        if not batch:
            continue
        x = np.asarray([b[0] for b in batch])
        m = np.asarray([b[1] for b in batch])
        a = np.asarray([b[2] for b in batch])
        old = np.asarray([b[3] for b in batch])
        ret = np.asarray(returns)
        xb = np.hstack([x, np.ones((len(x), 1))])
        taken = np.arange(len(a))
        # the baseline: least squares of the returns on the observation (a gradient step
        # on it diverged), fitted on this batch
        value = np.linalg.lstsq(xb.T @ xb + 1e-3 * np.eye(len(value)), xb.T @ ret, rcond=None)[0]
        baseline = xb @ value
        for _ in range(args.epochs):
            advantage = ret - baseline
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            probs, h = policy.probs(x, m)
            ratio = probs[taken, a] / old
            active = np.where(advantage >= 0, ratio < 1 + args.clip, ratio > 1 - args.clip)
            coef = (advantage * ratio * active)[:, None]
            grad_logits = -probs * coef
            grad_logits[taken, a] += coef[:, 0]
            policy.ascend(x, h, grad_logits)
        share = float(np.mean(shares)) if shares else 0.0
        elapsed = time.perf_counter() - start
        print(f"update {update:3}: {steps:>10,} steps, {elapsed:6.1f} s, "
              f"training win share {share:.3f} over {len(shares)} games", flush=True)
        if args.curve_every and update % args.curve_every == 0:
            before = time.process_time()
            measured = evaluate(policy, args.curve_games, args.seed * 100_000 + update,
                                opponents)
            evaluating += time.process_time() - before
            spent = time.process_time() - cpu_start - evaluating
            curve.append({"seed": args.seed, "update": update, "learner_steps": steps,
                          "cpu_s": round(spent, 1), **measured})  # fmt: skip
            print(f"  evaluation after {steps:,} steps, {spent:.1f} CPU s of training: "
                  f"win share {measured['win_share']:.1%} [{measured['low']:.1%}–"
                  f"{measured['high']:.1%}] over {args.curve_games} games", flush=True)
        if share >= args.target and len(shares) >= 2000:
            reached = (steps, elapsed)
            break
    training = time.perf_counter() - start
    final = evaluate(policy, args.eval_games, args.seed * 100_000 + 99_999, opponents)
    if args.json:
        write(args.json, learner="numpy vector PPO", seed=args.seed, opponents=args.opponents,
              policy=opponents, curve=curve, final=final)  # fmt: skip
    print(f"training: {steps:,} steps in {training:.1f} s wall clock")
    if reached is not None:
        print(f"reached a training win share of {args.target:.1%} after {reached[0]:,} steps "
              f"and {reached[1]:.1f} s (MaskablePPO through Gymnasium: 30,000 steps, 235 s)")
    else:
        print(f"did not reach {args.target:.1%} in {args.max_updates} updates")
    print(f"evaluation, {args.eval_games} games, most likely action: win share "
          f"{final['win_share']:.1%} [{final['low']:.1%}–{final['high']:.1%}]")


if __name__ == "__main__":
    main()
