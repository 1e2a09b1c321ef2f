"""Training the master bot: deep Monte-Carlo on self-play, in the manner of DouZero.

Actors play whole games in the compiled kernel (:mod:`kingsbreakfast.compiled.network`);
some seats are the network (exploring with chance epsilon), the others the card counter (``hard``),
so the network learns both from itself and from the player it has to beat. Every choice a network
seat made is a training row; its targets are how that game ended for that seat: its share of the win
(R12) and its final points (R11). The learner regresses the network on a window of recent rows (mean
squared error), and the actors play with the new weights.

Every ``eval_every`` seconds the greedy network plays a fixed set of 4-player games against
three ``hard`` seats (its seat rotating over the games); the figure goes to the log, the
learning curve and the checkpoint. The best checkpoint is what ships.

The learner is PyTorch's (the ``train`` extra; the shipped weights) or plain numpy's
(:mod:`.learners`); the actors need the ``batch`` extra (numpy, numba). With a game budget
(``max_games``) the run is a function of the seed and the budget alone.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kingsbreakfast.bots.master import MasterWeights, load_weights, save_weights
from kingsbreakfast.compiled import features
from kingsbreakfast.compiled import network as kernel
from kingsbreakfast.compiled.features import POINTS_SCALE
from kingsbreakfast.compiled.games import new_games
from kingsbreakfast.compiled.policies import HEURISTIC, rooms
from kingsbreakfast.compiled.search import SEAT_COUNTER
from kingsbreakfast.engine import DEFAULT_RULES, MUST_DRAW, Rules

from . import search_targets
from .learners import make_learner
from .warm import compile_seconds, notice_first_compile

EVAL_SEED = 987_654_321
"""The evaluation games' seed: the same games at every evaluation, so the curve compares
like with like."""


@dataclass(slots=True)
class TrainConfig:
    """One training run; every field is recorded in the weights' header."""

    seed: int = 1
    minutes: float = 60.0
    hidden: int = 128
    games_per_batch: int = 256
    steps_per_batch: int = 24
    batch_size: int = 512
    buffer_rows: int = 400_000
    learning_rate: float = 1e-3
    epsilon: float = 0.05
    self_play_share: float = 0.5
    """Share of games in which the seats besides one network seat are also the network (each
    with chance one half); the others are one network against the card counter."""
    eval_games: int = 2000
    eval_every: float = 300.0
    eval_every_games: int = 0
    """Evaluate (and checkpoint) after every this many self-play games instead of every
    ``eval_every`` seconds (0: by the clock). With a game budget it makes the checkpoints,
    and so a weight average of them, the same on any machine."""
    max_games: int = 0
    """Stop after this many self-play games (0: only the clock stops the run). With a game
    budget the step-size schedule follows the games, not the clock, so that the same seed
    and budget give the same network on any machine, however fast."""
    players: tuple[int, ...] = (4, 4, 3, 4, 5)
    """Table sizes in turn, one per batch of games."""
    commit: str = ""
    backend: str = "torch"
    """The learner: ``torch`` (the ``train`` extra; the shipped weights) or ``numpy``."""
    search_games: int = 0
    """Games a batch in which one seat values every legal action with the chef's search
    (the current network, ``search_worlds`` worlds, the other cooks of the play-outs as the
    card counter) and plays the best; each action's row joins the buffer with the search's
    values as its targets, beside the Monte-Carlo rows (expert iteration, docs/analysis.md).
    0: Monte-Carlo targets only."""
    search_worlds: int = 16
    td_lambda: float = 1.0
    """How far each row's targets look ahead: 1 is how the game ended (Monte-Carlo, as the
    shipped weights were trained); below 1 each target mixes in the network's own values of
    the seat's later choices in that game (λ-returns, :func:`lambda_targets`), which carry
    less of the deal's and the other seats' noise and more of the network's bias."""
    init: str = ""
    """A weights file to start from (a checkpoint of an earlier run), or empty: random. A
    file with fewer hidden units than ``hidden`` is widened first (:func:`widen`): the new
    units start with small random inputs and no outputs, so the network starts as the
    file's."""


@dataclass(slots=True)
class EvalPoint:
    seconds: float
    games_trained: int
    win_share: float
    half_width: float


@dataclass(slots=True)
class TrainResult:
    best: EvalPoint | None
    curve: list[EvalPoint] = field(default_factory=list)
    games: int = 0


def play_batch(
    layers: list[np.ndarray[Any, Any]],
    games: int,
    n: int,
    seed: int,
    seat_kind: np.ndarray[Any, Any],
    epsilon: float,
    first_cook: np.ndarray[Any, Any] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> dict[str, np.ndarray[Any, Any]]:
    """Play ``games`` games with the kernel (under ``rules``: the variants too); the rows of
    network seats and the results."""
    rows = np.zeros((games * kernel.MAX_ROWS_PER_GAME, kernel.NUM_FEATURES))
    row_game = np.zeros(rows.shape[0], np.int64)
    row_seat = np.zeros(rows.shape[0], np.int64)
    points = np.zeros((games, n), np.int64)
    share = np.zeros((games, n))
    actions = np.zeros((games, kernel.MAX_ROWS_PER_GAME), np.int64)
    decks = np.zeros((games, 110), np.int8)
    cooks = np.zeros(games, np.int64) if first_cook is None else first_cook
    table = new_games(1, n, rules.empty_table == MUST_DRAW, rules.dragon_min_on_table)
    legal_room, _, counter_room = rooms([HEURISTIC])
    play: Any = kernel.play_master_games  # numba's dispatcher: typed when it compiles
    with notice_first_compile(("master",), compile_seconds(False, True)):
        written = play(
            games, table, np.uint64(seed), seat_kind.astype(np.int64), epsilon, cooks,
            *layers, rows, row_game, row_seat, points, share, actions, decks, legal_room,
            counter_room,
        )
    return {
        "rows": rows[:written], "game": row_game[:written], "seat": row_seat[:written],
        "points": points, "share": share, "actions": actions, "decks": decks,
    }


def evaluate_vs_hard(
    layers: list[np.ndarray[Any, Any]], games: int, n: int = 4, seed: int = EVAL_SEED
) -> tuple[float, float]:
    """The greedy network's win share against n-1 card counters, its seat rotating over the
    games; with the 95% half-width of the estimate (normal approximation)."""
    seat_kind = np.zeros((games, n), np.int64)
    seat_kind[np.arange(games), np.arange(games) % n] = kernel.SEAT_NET
    out = play_batch(layers, games, n, seed, seat_kind, 0.0)
    mine = out["share"][np.arange(games), np.arange(games) % n]
    mean = float(mine.mean())
    half = 1.96 * float(mine.std(ddof=1)) / math.sqrt(games) if games > 1 else 0.0
    return mean, half


def _seating(
    rng: np.random.Generator, games: int, n: int, self_share: float
) -> np.ndarray[Any, Any]:
    seat_kind = np.zeros((games, n), np.int64)
    learner = rng.integers(0, n, games)
    seat_kind[np.arange(games), learner] = kernel.SEAT_NET
    selfish = rng.random(games) < self_share
    extra = (rng.random((games, n)) < 0.5) & selfish[:, None]
    seat_kind[extra] = kernel.SEAT_NET
    return seat_kind


def train(
    config: TrainConfig,
    output: Path,
    log: Callable[[str], None] = print,
    progress: Callable[[float, str], None] | None = None,
) -> TrainResult:
    """Train for ``config.minutes``; write checkpoints, the best weights to ``output`` and
    the learning curve beside it (``.curve.json``, and a ``.png`` when matplotlib is there)."""
    rng = np.random.default_rng(config.seed)
    f = features.NUM_FEATURES
    learner = make_learner(config.backend, f, config.hidden, config.learning_rate, config.seed)
    if config.init:
        start_from = load_weights(config.init)
        if start_from.w1.shape[1] > config.hidden or start_from.w2.shape[1] > config.hidden:
            raise ValueError(f"{config.init} has {start_from.w1.shape[1]} hidden units, more "
                             f"than {config.hidden}")
        learner.load(widen(list(start_from.arrays()), config.hidden, rng))
    buffer_x = np.zeros((config.buffer_rows, f), np.float32)
    buffer_y = np.zeros((config.buffer_rows, 2), np.float32)
    filled = 0
    cursor = 0
    result = TrainResult(best=None)
    start = time.monotonic()
    next_eval = 0.0
    next_eval_games = 0
    batch_index = 0
    checkpoints = output.parent / (output.stem + "-checkpoints")
    checkpoints.mkdir(parents=True, exist_ok=True)
    budget = config.minutes * 60.0
    while True:
        elapsed = time.monotonic() - start
        finished = elapsed >= budget or 0 < config.max_games <= result.games
        due = (result.games >= next_eval_games if config.eval_every_games > 0
               else elapsed >= next_eval)
        if due or finished:
            layers = learner.layers()
            share, half = evaluate_vs_hard(layers, config.eval_games)
            point = EvalPoint(elapsed, result.games, share, half)
            result.curve.append(point)
            tag = f"{int(elapsed):06d}s-{result.games:08d}g"
            header = _header(config, result.games, point)
            save_weights(checkpoints / f"master-{tag}.npz", _named(layers), header)
            if result.best is None or share > result.best.win_share:
                result.best = point
                save_weights(output, _named(layers), header)
            log(f"eval {tag}: {100 * share:.1f}% +- {100 * half:.1f} vs 3x hard "
                f"(best {100 * result.best.win_share:.1f}%)")
            _write_curve(output, result)
            next_eval = elapsed + config.eval_every
            next_eval_games = result.games + config.eval_every_games
            if finished:
                break
        layers = learner.layers()
        n = config.players[batch_index % len(config.players)]
        seat_kind = _seating(rng, config.games_per_batch, n, config.self_play_share)
        seed = int(rng.integers(0, 2**63))
        out = play_batch(layers, config.games_per_batch, n, seed, seat_kind, config.epsilon,
                         rng.integers(0, n, config.games_per_batch))
        targets = np.stack(
            [out["share"][out["game"], out["seat"]],
             out["points"][out["game"], out["seat"]] / POINTS_SCALE], axis=1
        )
        if config.td_lambda < 1.0:
            w1, b1, w2, b2, w3, b3 = layers
            values = MasterWeights(w1, b1, w2, b2, w3, b3, {}).values(out["rows"])
            targets = lambda_targets(out["game"], out["seat"], targets, values,
                                     config.td_lambda)
        batches = [(out["rows"], targets)]
        if config.search_games > 0:
            labels = search_targets.label(
                layers, config.search_games, n, int(rng.integers(0, 2**63)),
                config.search_worlds, playout_opponent=SEAT_COUNTER,
            )
            batches.append((labels.rows, labels.values))
        for rows, values in batches:
            for start_row in range(0, len(rows), config.buffer_rows):
                chunk = rows[start_row : start_row + config.buffer_rows]
                k = len(chunk)
                idx = (cursor + np.arange(k)) % config.buffer_rows
                buffer_x[idx] = chunk
                buffer_y[idx] = values[start_row : start_row + k]
                cursor = (cursor + k) % config.buffer_rows
                filled = min(config.buffer_rows, filled + k)
        result.games += config.games_per_batch
        batch_index += 1
        # the step size falls linearly to a tenth over the run: late batches refine
        done = _done(config, time.monotonic() - start, result.games)
        learner.set_step_size(config.learning_rate * (1.0 - 0.9 * done))
        loss_sum = 0.0
        for _ in range(config.steps_per_batch):
            pick = rng.integers(0, filled, config.batch_size)
            loss_sum += learner.step(buffer_x[pick], buffer_y[pick])
        if progress is not None:
            progress(_done(config, time.monotonic() - start, result.games),
                     f"{result.games} games, loss {loss_sum / config.steps_per_batch:.4f}")
    return result


def lambda_targets(
    game: np.ndarray[Any, Any],
    seat: np.ndarray[Any, Any],
    outcome: np.ndarray[Any, Any],
    values: np.ndarray[Any, Any],
    lam: float,
) -> np.ndarray[Any, Any]:
    """λ-returns of one batch's rows: for the last choice a seat made in a game, how the
    game ended for it (``outcome``); for every earlier one, ``(1 - lam)`` times the
    network's value of the seat's next choice (``values``: the row it chose then, as the
    network now sees it) plus ``lam`` times that next choice's own target. The rows of one
    game and seat are in the order they were played, as the kernel writes them."""
    targets = np.array(outcome, dtype=np.float64, copy=True)
    later: dict[tuple[int, int], int] = {}  # (game, seat) -> the row after, going back
    for i in range(len(game) - 1, -1, -1):
        key = (int(game[i]), int(seat[i]))
        after = later.get(key)
        if after is not None:
            targets[i] = (1.0 - lam) * values[after] + lam * targets[after]
        later[key] = i
    return targets


def widen(
    layers: list[np.ndarray[Any, Any]], hidden: int, rng: np.random.Generator
) -> list[np.ndarray[Any, Any]]:
    """The network of ``layers`` with ``hidden`` units in each hidden layer, computing the
    same function: a new unit gets small random input weights (so it has a gradient) and
    zero output weights (so it changes nothing until training moves them)."""
    w1, b1, w2, b2, w3, b3 = (np.asarray(a, np.float64) for a in layers)
    h1, h2 = w1.shape[1], w2.shape[1]
    if h1 == hidden and h2 == hidden:
        return [w1, b1, w2, b2, w3, b3]
    scale1 = float(w1.std()) or 0.1
    scale2 = float(w2.std()) or 0.1
    new_w1 = np.concatenate([w1, rng.normal(0.0, scale1, (w1.shape[0], hidden - h1))], axis=1)
    new_b1 = np.concatenate([b1, np.zeros(hidden - h1)])
    new_w2 = np.zeros((hidden, hidden))
    new_w2[:h1, :h2] = w2
    new_w2[:, h2:] = rng.normal(0.0, scale2, (hidden, hidden - h2))
    new_b2 = np.concatenate([b2, np.zeros(hidden - h2)])
    new_w3 = np.zeros((hidden, w3.shape[1]))
    new_w3[:h2] = w3
    return [new_w1, new_b1, new_w2, new_b2, new_w3, b3.copy()]


def _done(config: TrainConfig, seconds: float, games: int) -> float:
    """How far the run is (0-1): by games when it has a game budget, else by the clock."""
    if config.max_games > 0:
        return min(1.0, games / config.max_games)
    return min(1.0, seconds / (config.minutes * 60.0))


def _named(layers: list[np.ndarray[Any, Any]]) -> dict[str, np.ndarray[Any, Any]]:
    return dict(zip(("w1", "b1", "w2", "b2", "w3", "b3"), layers, strict=True))


def _header(config: TrainConfig, games: int, point: EvalPoint) -> dict[str, Any]:
    return {
        "seed": config.seed,
        "commit": config.commit,
        "hidden": [config.hidden, config.hidden],
        "outputs": ["win_share", "points/50"],
        "games_trained": games,
        "seconds_trained": round(point.seconds, 1),
        "eval_vs_3_hard": {"games": config.eval_games, "win_share": round(point.win_share, 4),
                           "half_width_95": round(point.half_width, 4)},
        "config": {k: getattr(config, k) for k in config.__slots__ if k != "commit"},
    }


def _write_curve(output: Path, result: TrainResult) -> None:
    data = [
        {"seconds": p.seconds, "games": p.games_trained, "win_share": p.win_share,
         "half_width": p.half_width}
        for p in result.curve
    ]
    output.with_suffix(".curve.json").write_text(json.dumps(data, indent=1) + "\n")


def curve_points(
    paths: list[Path], end_to_end: bool = True
) -> list[tuple[list[int], list[float], list[float]]]:
    """Each run's (games, win share %, 95% half-width %): with ``end_to_end`` each run's
    games counted on from where the run before stopped, else each from 0."""
    runs = []
    offset = 0
    for path in paths:
        data = json.loads(path.read_text())
        games = [offset + p["games"] for p in data]
        runs.append((games, [100 * p["win_share"] for p in data],
                     [100 * p["half_width"] for p in data]))
        offset = games[-1] if end_to_end else 0
    return runs


def plot_curve(curve_json: Path | list[Path], png: Path, labels: list[str] | None = None,
               marks: dict[str, float] | None = None, end_to_end: bool = True) -> None:
    """The learning curve: win share against three ``hard`` over training games. Several
    runs (each starting from the one before, as the shipped weights were made) are drawn end
    to end, each run's games counted on from where the one before stopped; with
    ``end_to_end`` False they are drawn side by side, each from 0 (runs that start from the
    same file, to compare settings); ``marks`` draws a level line for each named figure (a
    share, 0-1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = curve_json if isinstance(curve_json, list) else [curve_json]
    names = labels or (["master (greedy)"] if len(paths) == 1
                       else [f"run {i + 1}" for i in range(len(paths))])
    fig, ax = plt.subplots(figsize=(7, 4))
    for (games, share, half), name in zip(curve_points(paths, end_to_end), names, strict=True):
        ax.errorbar(games, share, yerr=half, marker="o", capsize=3, label=name)
    ax.axhline(25.0, color="grey", linestyle="--", label="parity (25%)")
    for (name, level), style in zip((marks or {}).items(), (":", "-.", "--"), strict=False):
        ax.axhline(100 * level, color="tab:grey", linestyle=style, label=name)
    ax.set_xlabel("self-play games" if len(paths) == 1 or not end_to_end
                  else "self-play games, runs in turn")
    ax.set_ylabel("win share vs 3 x hard (%)")
    ax.set_title("Master bot learning curve (4 players)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def average_checkpoints(paths: list[Path], output: Path, note: str = "") -> None:
    """Write the weight average of ``paths`` (checkpoints of one network shape) to
    ``output``: stochastic weight averaging, which beat every single checkpoint on fresh
    games (docs/analysis.md). The header is the last checkpoint's, with the files averaged."""
    if not paths:
        raise ValueError("name at least one checkpoint to average")
    weights = [load_weights(p) for p in paths]
    shapes = {tuple(a.shape for a in w.arrays()) for w in weights}
    if len(shapes) != 1:
        raise ValueError("the checkpoints have layers of different shapes: one network only")
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    arrays = {n: np.mean([w.arrays()[i] for w in weights], axis=0) for i, n in enumerate(names)}
    header = {k: v for k, v in weights[-1].header.items()
              if k not in ("format", "version", "features", "layout")}
    header["averaged_checkpoints"] = [p.name for p in paths]
    if note:
        header["note"] = note
    save_weights(output, arrays, header)


def join_networks(paths: list[Path], output: Path, note: str = "") -> None:
    """Write one network that answers the mean of the networks in ``paths`` (an ensemble):
    their hidden units side by side, each hidden layer block-diagonal (no unit reads
    another network's units), the output weights divided by their number. The file is an
    ordinary weights file, only wider, so the bot and the kernel read it unchanged."""
    if len(paths) < 2:
        raise ValueError("name at least two networks to join")
    weights = [load_weights(p) for p in paths]
    k = len(weights)
    w1 = np.concatenate([w.w1 for w in weights], axis=1)
    b1 = np.concatenate([w.b1 for w in weights])
    sizes1 = [w.w1.shape[1] for w in weights]
    sizes2 = [w.w2.shape[1] for w in weights]
    w2 = np.zeros((sum(sizes1), sum(sizes2)))
    r = c = 0
    for w, rows, cols in zip(weights, sizes1, sizes2, strict=True):
        w2[r : r + rows, c : c + cols] = w.w2
        r, c = r + rows, c + cols
    b2 = np.concatenate([w.b2 for w in weights])
    w3 = np.concatenate([w.w3 for w in weights], axis=0) / k
    b3 = np.mean([w.b3 for w in weights], axis=0)
    header = {key: value for key, value in weights[-1].header.items()
              if key not in ("format", "version", "features", "layout")}
    header["hidden"] = [sum(sizes1), sum(sizes2)]
    header["joined_networks"] = [p.name for p in paths]
    if note:
        header["note"] = note
    save_weights(output, {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "w3": w3, "b3": b3}, header)
