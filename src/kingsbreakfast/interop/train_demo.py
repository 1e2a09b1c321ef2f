"""A minimal learning run: a linear softmax policy trained by REINFORCE against random bots.

It shows the Gymnasium environment, the view tensor and the action mask at work, needs
only numpy (extra ``rl``), and finishes in well under a minute on a laptop:

    python -m kingsbreakfast.interop.train_demo [--episodes 2000] [--players 4] [--seed 0]

The policy is a softmax over the legal actions only (the mask) of θ · features(action),
a dozen features read from the shared view tensor, trained by REINFORCE on the rank reward
with a running-average baseline. Before and after
training it plays the same evaluation games (same seeds, so the same decks) and prints the
learner's win share and mean points next to what a uniformly random player gets.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from kingsbreakfast.engine import FEED_PAIRS, NUM_ACTIONS

from . import encoding
from .gymnasium import KingsBreakfastEnv

Matrix = np.ndarray[Any, np.dtype[np.float64]]


_AT = encoding.offsets()
NUM_FEATURES = 12


def _field(observation: Matrix, name: str) -> Matrix:
    start, stop = _AT[name]
    return observation[start:stop]


def action_features(observation: Matrix) -> Matrix:
    """Features of every action (rows), read from the shared view tensor.

    Columns: kind (take, draw, feed, place or pass), then for a take of dish d: table[d],
    king[d], mine[d], table[d]·king[d], mine[d] + table[d] − king[d] (how far the take
    would put me over the king, R11); for a draw: cards in the deck; for a feed of a and
    b: king[a] + king[b], mine[a] + mine[b]. Shared across dishes, so a dozen weights.
    """
    table = _field(observation, "table")
    king = _field(observation, "king")
    mine = _field(observation, "takes_0") + _field(observation, "my_draws")
    out = np.zeros((NUM_ACTIONS, NUM_FEATURES))
    for dish in range(7):
        out[dish, 0] = 1.0
        out[dish, 4:9] = (
            table[dish],
            king[dish],
            mine[dish],
            table[dish] * king[dish] * 15,
            mine[dish] + table[dish] - king[dish],
        )
    out[7, 1] = 1.0
    out[7, 9] = _field(observation, "deck")[0]
    out[8, 3] = 1.0
    out[37, 3] = 1.0
    for feed, (a, b) in enumerate(FEED_PAIRS):
        row = out[9 + feed]
        row[2] = 1.0
        row[10] = king[a] + king[b]
        row[11] = mine[a] + mine[b]
    return out


class LinearPolicy:
    """Scores θ · features(action); a softmax among the legal actions only."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.weights: Matrix = np.zeros(NUM_FEATURES)
        self.rng = rng

    def probabilities(self, features: Matrix, mask: np.ndarray[Any, Any]) -> Matrix:
        logits = np.where(mask, features @ self.weights, -np.inf)
        logits -= logits.max()
        weights = np.exp(logits)
        return np.asarray(weights / weights.sum(), np.float64)

    def act(self, features: Matrix, mask: np.ndarray[Any, Any], explore: bool) -> int:
        probs = self.probabilities(features, mask)
        if explore:
            return int(self.rng.choice(NUM_ACTIONS, p=probs))
        return int(np.argmax(probs))


def features_of(observation: np.ndarray[Any, Any]) -> Matrix:
    return action_features(observation.astype(np.float64))


def evaluate(
    env: KingsBreakfastEnv, policy: LinearPolicy | None, games: int, seed: int
) -> tuple[float, float]:
    """Win share (shared wins split) and mean points over ``games`` fixed-seed games;
    ``policy`` None plays uniformly at random."""
    wins = points = 0.0
    rng = np.random.default_rng(seed)
    for game in range(games):
        observation, info = env.reset(seed=seed * 100_003 + game)
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = policy.act(features_of(observation), mask, explore=True)
            observation, _, done, _, info = env.step(action)
        winners = info["winners"]
        wins += (env.seat in winners) / len(winners)
        points += info["points"]
    return wins / games, points / games


def train(
    env: KingsBreakfastEnv, policy: LinearPolicy, episodes: int, seed: int, rate: float
) -> None:
    baseline = 0.0
    for episode in range(episodes):
        observation, info = env.reset(seed=seed + episode)
        grads: list[tuple[int, Matrix, Matrix]] = []
        done = False
        reward = 0.0
        while not done:
            features = features_of(observation)
            mask = info["action_mask"].astype(bool)
            probs = policy.probabilities(features, mask)
            action = int(policy.rng.choice(NUM_ACTIONS, p=probs))
            grads.append((action, probs, features))
            observation, reward, done, _, info = env.step(action)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for action, probs, features in grads:
            # d log softmax / dθ = features[action] − Σ probs · features
            direction = features[action] - probs @ features
            policy.weights += rate * advantage * direction


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = KingsBreakfastEnv(players=args.players, opponents="random", first_cook=None)
    policy = LinearPolicy(np.random.default_rng(args.seed))
    start = time.perf_counter()
    random_wins, random_points = evaluate(env, None, args.eval_games, 7)
    before_wins, before_points = evaluate(env, policy, args.eval_games, 7)
    train(env, policy, args.episodes, 1_000_000 + args.seed * args.episodes, args.rate)
    after_wins, after_points = evaluate(env, policy, args.eval_games, 7)
    seconds = time.perf_counter() - start
    fair = 1 / args.players
    print(f"{args.players} players, learner vs random bots, {args.eval_games} evaluation games")
    print(f"  uniformly random player : wins {random_wins:6.1%}  points {random_points:6.1f}")
    print(f"  untrained linear policy : wins {before_wins:6.1%}  points {before_points:6.1f}")
    print(f"  after {args.episodes} episodes   : wins {after_wins:6.1%}  "
          f"points {after_points:6.1f}  (fair share {fair:.0%})")
    print(f"  {seconds:.1f} s in all")
    return {
        "random_wins": random_wins,
        "before_wins": before_wins,
        "after_wins": after_wins,
        "after_points": after_points,
        "seconds": seconds,
    }


if __name__ == "__main__":
    main()
