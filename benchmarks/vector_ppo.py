"""A learning curve on the vector environment: PPO (clipped) in plain numpy, against three
random seats, until it reaches the win share MaskablePPO reached through the Gymnasium
environment (44.7% after 30,000 steps and 235 s of training, docs/research.md).

    python benchmarks/vector_ppo.py [--target 0.447] [--envs 1024] [--horizon 64]

The policy is linear (softmax over the 38 action ids of W · observation + b, illegal
actions masked out, Adam steps) with a linear value baseline, so it needs nothing beyond numpy: no
deep-learning library. Every update collects ``envs × horizon`` learner steps from
``VectorGames`` (the learner in seat 0, three built-in random seats, first cook drawn per
game), gives every step of a finished game that game's rank reward (R12), and takes PPO's
clipped-ratio steps on it. After each update the win share of the finished games is
printed (a shared win, R12, counted as 1/k); at the end a separate evaluation plays
``--eval-games`` fresh games with the policy's most likely action. Wall-clock time is
printed for training alone, beside the Gymnasium run's 235 s.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kingsbreakfast.sim.vector import OBS_SIZE, VectorGames

ACTIONS = 38


def policy(weights: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = obs @ weights[:-1] + weights[-1]
    logits = np.where(mask, logits, -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def win_share(games: VectorGames, done: np.ndarray) -> np.ndarray:
    """The learner's (seat 0) share of the win in each finished game (R12)."""
    points = games.points[done].astype(np.int64)
    discarded = games.discarded[done].astype(np.int64)
    key = points * 1000 - discarded  # more points, then fewer discards
    best = key.max(axis=1, keepdims=True)
    winners = key == best
    return winners[:, 0] / winners.sum(axis=1)


def evaluate(weights: np.ndarray, games_wanted: int, seed: int) -> float:
    games = VectorGames(1024, 4, ["caller", "random", "random", "random"])
    obs, mask = games.reset(seed=seed)
    shares: list[float] = []
    while len(shares) < games_wanted:
        actions = policy(weights, obs, mask).argmax(axis=1)
        obs, mask, _, done = games.step(actions)
        shares += win_share(games, done).tolist()
    return float(np.mean(shares[:games_wanted]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.447)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--horizon", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's step size")
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--max-updates", type=int, default=300)
    parser.add_argument("--eval-games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((OBS_SIZE + 1, ACTIONS))
    value = np.zeros(OBS_SIZE + 1)
    moment = np.zeros_like(weights)  # Adam's running moments of the policy gradient
    square = np.zeros_like(weights)
    adam_t = 0
    games = VectorGames(args.envs, 4, ["caller", "random", "random", "random"])
    obs, mask = games.reset(seed=args.seed)
    obs, mask = obs.copy(), mask.copy()
    # samples of each game still being played, per slot: (obs, mask, action, prob)
    open_steps: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [
        [] for _ in range(args.envs)
    ]
    start = time.perf_counter()
    steps = 0
    reached = None
    for update in range(1, args.max_updates + 1):
        batch_obs, batch_mask, batch_act, batch_old, batch_ret = [], [], [], [], []
        shares: list[float] = []
        for _ in range(args.horizon):
            probs = policy(weights, obs, mask)
            cumulative = probs.cumsum(axis=1)
            actions = (cumulative < rng.random((args.envs, 1))).sum(axis=1).clip(0, ACTIONS - 1)
            chosen = probs[np.arange(args.envs), actions]
            for g in range(args.envs):
                open_steps[g].append((obs[g], mask[g], int(actions[g]), float(chosen[g])))
            new_obs, new_mask, rewards, done = games.step(actions)
            steps += args.envs
            if done.any():
                shares += win_share(games, done).tolist()
                for g in np.flatnonzero(done):
                    reward = float(rewards[g, 0])
                    for o, m, a, p in open_steps[g]:
                        batch_obs.append(o)
                        batch_mask.append(m)
                        batch_act.append(a)
                        batch_old.append(p)
                        batch_ret.append(reward)
                    open_steps[g] = []
            obs, mask = new_obs.copy(), new_mask.copy()
        if not batch_obs:
            continue
        x = np.asarray(batch_obs)
        m = np.asarray(batch_mask)
        a = np.asarray(batch_act)
        old = np.asarray(batch_old)
        ret = np.asarray(batch_ret)
        xb = np.hstack([x, np.ones((len(x), 1))])
        for _ in range(args.epochs):
            baseline = xb @ value
            advantage = ret - baseline
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            probs = policy(weights, x, m)
            ratio = probs[np.arange(len(a)), a] / old
            active = np.where(advantage >= 0, ratio < 1 + args.clip, ratio > 1 - args.clip)
            coef = (advantage * ratio * active)[:, None]
            grad_logits = -probs * coef
            grad_logits[np.arange(len(a)), a] += coef[:, 0]
            gradient = (xb.T @ grad_logits) / len(a)
            adam_t += 1
            moment = 0.9 * moment + 0.1 * gradient
            square = 0.999 * square + 0.001 * gradient**2
            weights += args.lr * (moment / (1 - 0.9**adam_t)) / (
                np.sqrt(square / (1 - 0.999**adam_t)) + 1e-8
            )
            value += 0.5 * xb.T @ (ret - baseline) / len(a)
        share = float(np.mean(shares)) if shares else 0.0
        elapsed = time.perf_counter() - start
        print(f"update {update:3}: {steps:>10,} steps, {elapsed:6.1f} s, "
              f"training win share {share:.3f} over {len(shares)} games", flush=True)
        if reached is None and share >= args.target and len(shares) >= 2000:
            reached = (steps, elapsed)
            break
    training = time.perf_counter() - start
    final = evaluate(weights, args.eval_games, args.seed + 1)
    print(f"training: {steps:,} steps in {training:.1f} s wall clock")
    if reached is not None:
        print(f"reached a training win share of {args.target:.1%} after {reached[0]:,} steps "
              f"and {reached[1]:.1f} s (MaskablePPO through Gymnasium: 30,000 steps, 235 s)")
    else:
        print(f"did not reach {args.target:.1%} in {args.max_updates} updates")
    print(f"evaluation, {args.eval_games} games, most likely action: win share {final:.3f}")


if __name__ == "__main__":
    main()
