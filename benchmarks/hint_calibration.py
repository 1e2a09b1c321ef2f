"""How right the hint's numbers are: its estimates against played-out results.

    .venv/bin/python benchmarks/hint_calibration.py --seeds 4242,4243 --games 300
    .venv/bin/python benchmarks/hint_calibration.py --seeds 7001,7002 --games 300 --fit

Positions come from four-, three- and five-player games of master bots (one game per
``seed * 100_000 + g``, the player count cycling 4, 3, 5; two positions per game, at random
moments). At each position one legal action is chosen at random and played out ``--playouts``
times: each playout deals the cards the mover cannot see anew from the mover's view
(``sample_world``, seeded), plays the action, and lets master bots finish the game. The
mean of the mover's final points (R11) and share of the win (R12, a shared win in part) is
what the hint should have said.

For every chosen action the script keeps, side by side in the same loop (so the load of a
shared machine hits both alike), the numbers of the hint *before* (the network's raw
estimate, clipped, as the hint showed it) and *after* (:func:`kingsbreakfast.bots.hint.
rank_actions`: exact where the outcome is settled, played out in the game's last turns,
calibrated elsewhere). It prints the mean absolute error of the points (all rows, and the
exact, played-out and other rows apart), the win chance's calibration table (predicted against
observed, by bins of the prediction) and the Brier score, and writes every sample to
``benchmarks/results/hint-calibration-<seeds>.json``.

``--fit`` fits the correction of :mod:`kingsbreakfast.bots.calibration` on these samples
(by stage of the game: a straight line for the points, a logistic curve on the network's
win logit) and prints its numbers; fit it on other seeds than the ones reported.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from kingsbreakfast.bots.calibration import STAGES, stage_of
from kingsbreakfast.bots.hint import rank_actions
from kingsbreakfast.bots.last_turns import is_played_out
from kingsbreakfast.bots.master import MasterBot, action_values
from kingsbreakfast.engine import Action, State, View, sample_world

RESULTS = Path(__file__).parent / "results"
PLAYERS = (4, 3, 5)


def outcome(state: State, seat: int) -> tuple[float, float]:
    """The seat's final points and share of the win (R12: a shared win in part)."""
    scoring = state.score()
    win = 1.0 / len(scoring.winners) if seat in scoring.winners else 0.0
    return float(scoring.points[seat]), win


def play_out(state: State, bot: MasterBot, rng: random.Random) -> None:
    while not state.is_over:
        view = state.view(state.to_move)
        state.apply(bot.act(view, rng))


def before(view: View, action: Action, bot: MasterBot) -> tuple[float, float]:
    """The hint as it was: the network's raw values, clipped (win share, points)."""
    for a, win, points in action_values(view, bot.weights):
        if a == action:
            return min(1.0, max(0.0, win)), max(0.0, points)
    raise AssertionError("the action is not legal")


def positions(
    seed: int, g: int, bot: MasterBot
) -> tuple[int, random.Random, list[tuple[int, View, Action]]]:
    """Game ``g`` of ``seed``: its player count, its generator (to go on with), and the two
    chosen positions with their chosen actions."""
    rng = random.Random(seed * 100_000 + g)
    players = PLAYERS[g % len(PLAYERS)]
    state = State.new(players, rng)
    history: list[State] = []
    while not state.is_over:
        history.append(state.clone())
        state.apply(bot.act(state.view(state.to_move), rng))
    chosen = []
    for at in sorted(rng.sample(range(len(history)), 2)):
        view = history[at].view(history[at].to_move)
        legal = view.legal_actions()
        chosen.append((at, view, legal[rng.randrange(len(legal))]))
    return players, rng, chosen


def after(view: View, action: Action) -> dict[str, Any]:
    """The hint as it is now, for ``action``."""
    row = next(e for e in rank_actions(view) if e.action == action)
    return {"points": row.expected_points, "win": row.win_chance, "exact": row.exact,
            "result": row.result, "stage": stage_of(view), "played_out": is_played_out(view)}


def sample(
    seed: int, games: int, playouts: int, bot: MasterBot, sink: Any
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for g in range(games):
        players, rng, chosen = positions(seed, g, bot)
        for at, view, action in chosen:
            mover = view.to_move
            assert mover is not None
            raw_win, raw_points = before(view, action, bot)
            points: list[float] = []
            wins: list[float] = []
            for k in range(playouts):
                world = sample_world(view, random.Random(seed * 10**7 + g * 100 + at * 7 + k))
                world.apply(action)
                play_out(world, bot, rng)
                p, w = outcome(world, mover)
                points.append(p)
                wins.append(w)
            out.append({
                "seed": seed, "game": g, "players": players, "at": at, "action": str(action),
                "deck": view.deck_size, "raw_points": raw_points, "raw_win": raw_win,
                **after(view, action),
                "played_points": float(np.mean(points)), "played_win": float(np.mean(wins)),
                "played_points_all": points, "played_win_all": wins,
            })
            sink.write(json.dumps(out[-1]) + "\n")
            sink.flush()
        if (g + 1) % 25 == 0:
            print(f"seed {seed}: {g + 1}/{games} games, {len(out)} positions",
                  file=sys.stderr, flush=True)
    return out


def rescore(samples: list[dict[str, Any]], bot: MasterBot) -> list[dict[str, Any]]:
    """The samples with the hint's numbers of now: each position rebuilt from its seed (the
    master bots' games are deterministic), the raw numbers checked against the stored ones."""
    out = []
    games: dict[tuple[int, int], list[tuple[int, View, Action]]] = {}
    for s in samples:
        key = (s["seed"], s["game"])
        if key not in games:
            games[key] = positions(*key, bot)[2]
        _, view, action = next(c for c in games[key] if c[0] == s["at"])
        assert str(action) == s["action"]
        assert (s["raw_win"], s["raw_points"]) == before(view, action, bot)
        out.append({**s, **after(view, action)})
    return out


def table(samples: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The win chance's calibration: predicted and observed mean by bin of the prediction."""
    edges = [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001]
    rows = []
    for low, high in itertools.pairwise(edges):
        inside = [s for s in samples if low <= s[key] < high]
        if inside:
            rows.append({
                "bin": f"{low:.2f}-{min(high, 1.0):.2f}", "n": len(inside),
                "predicted": round(float(np.mean([s[key] for s in inside])), 4),
                "observed": round(float(np.mean([s["played_win"] for s in inside])), 4),
            })
    return rows


def summary(samples: list[dict[str, Any]]) -> dict[str, Any]:
    def mae(items: list[dict[str, Any]], key: str) -> float | None:
        if not items:
            return None
        return round(float(np.mean([abs(s[key] - s["played_points"]) for s in items])), 3)

    def brier(key: str) -> float:
        return round(float(np.mean([(s[key] - s["played_win"]) ** 2 for s in samples])), 5)

    exact = [s for s in samples if s["exact"]]
    played = [s for s in samples if s.get("played_out") and not s["exact"]]
    rest = [s for s in samples if not s["exact"] and not s.get("played_out")]
    by_stage = {
        str(stage): {"n": len(items), "mae_before": mae(items, "raw_points"),
                     "mae_after": mae(items, "points")}
        for stage in range(len(STAGES))
        if (items := [s for s in samples if s["stage"] == stage])
    }
    exact_wrong = sum(1 for s in exact for p in s["played_points_all"] if p != s["points"])
    # what the target's own noise alone would give: the mean of |mean of k playouts - its
    # expectation| for a normal spread, sqrt(2/pi) * sd / sqrt(k)
    floor = float(np.mean([
        math.sqrt(2 / math.pi) * float(np.std(s["played_points_all"], ddof=1))
        / math.sqrt(len(s["played_points_all"]))
        for s in samples if len(s["played_points_all"]) > 1
    ]))
    return {
        "positions": len(samples),
        "points_noise_floor": round(floor, 3),
        "points_mae_before": mae(samples, "raw_points"),
        "points_mae_after": mae(samples, "points"),
        "exact_rows": len(exact),
        "exact_mae_before": mae(exact, "raw_points"),
        "exact_mae_after": mae(exact, "points"),
        "exact_playouts_that_differ": exact_wrong,
        "played_out_rows": len(played),
        "played_out_mae_before": mae(played, "raw_points"),
        "played_out_mae_after": mae(played, "points"),
        "other_rows_mae_before": mae(rest, "raw_points"),
        "other_rows_mae_after": mae(rest, "points"),
        "by_stage": by_stage,
        "win_brier_before": brier("raw_win"),
        "win_brier_after": brier("win"),
        "win_table_before": table(samples, "raw_win"),
        "win_table_after": table(samples, "win"),
    }


def logit(p: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    p = np.clip(p, 1e-3, 1 - 1e-3)
    return np.log(p / (1 - p))  # type: ignore[no-any-return]


def fit_logistic(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> tuple[float, float]:
    """a, b of win = sigmoid(a + b * logit(raw)), by Newton steps on the log loss (y may be
    a fraction: a shared win, or the mean of several playouts)."""
    a, b = 0.0, 1.0
    for _ in range(50):
        z = a + b * x
        p = 1 / (1 + np.exp(-z))
        g = np.array([np.sum(p - y), np.sum((p - y) * x)])
        w = p * (1 - p) + 1e-9
        h = np.array([[np.sum(w), np.sum(w * x)], [np.sum(w * x), np.sum(w * x * x)]])
        step = np.linalg.solve(h + 1e-6 * np.eye(2), g)
        a, b = a - step[0], b - step[1]
        if np.max(np.abs(step)) < 1e-9:
            break
    return float(a), float(b)


def fit(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """The correction's numbers, stage by stage, on the rows the hint corrects (not exact,
    not played out)."""
    points, wins = [], []
    for stage in range(len(STAGES)):
        items = [s for s in samples
                 if s["stage"] == stage and not s["exact"] and not s["played_out"]]
        raw = np.array([s["raw_points"] for s in items])
        target = np.array([s["played_points"] for s in items])
        slope, intercept = np.polyfit(raw, target, 1)
        points.append((round(float(intercept), 4), round(float(slope), 4)))
        a, b = fit_logistic(logit(np.array([s["raw_win"] for s in items])),
                            np.array([s["played_win"] for s in items]))
        wins.append((round(a, 4), round(b, 4)))
    return {"POINTS_LINES": points, "WIN_CURVES": wins}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="4242,4243")
    parser.add_argument("--games", type=int, default=300, help="games per seed")
    parser.add_argument("--playouts", type=int, default=4)
    parser.add_argument("--fit", action="store_true", help="fit the correction and print it")
    parser.add_argument("--load", help="read the samples (JSON lines) from this file instead "
                        "of playing")
    parser.add_argument("--rescore", action="store_true", help="with --load: rebuild each "
                        "position from its seed and value it with the hint as it is now")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if {0, 1} & set(seeds):
        parser.error("seeds 0 and 1 are the ones the project trains and tests on: use others")
    bot = MasterBot()
    if args.load:
        samples = [json.loads(line) for line in Path(args.load).read_text().splitlines()
                   if line.strip()]
        if args.rescore:
            samples = rescore(samples, bot)
    else:
        start = time.perf_counter()
        RESULTS.mkdir(exist_ok=True)
        name = RESULTS / f"hint-calibration-{'-'.join(map(str, seeds))}.jsonl"
        with name.open("w") as sink:
            samples = [s for seed in seeds
                       for s in sample(seed, args.games, args.playouts, bot, sink)]
        seconds = time.perf_counter() - start
        print(f"samples written to {name} ({seconds:.0f} s)", file=sys.stderr)
    if args.fit:
        print(json.dumps(fit(samples), indent=1))
    print(json.dumps(summary(samples), indent=1))
    assert all(math.isfinite(s["points"]) for s in samples)


if __name__ == "__main__":
    main()
