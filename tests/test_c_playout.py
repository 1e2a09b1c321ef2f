"""The C playout (benchmarks/c_playout/playout.c) plays the engine's game.

It is a copy of the rules (default variant, uniformly random play) that the speed
benchmarks measure the engine and the vector games against, so a drift would make those
figures compare different games. Built with the system's C compiler, it plays 100,000
games from a fixed seed; the engine plays 3,000 games the same way. For 3, 4 and 5
players the mean actions per game and the mean R11 points per seat must agree within
five standard errors of their difference (from both samples' own spread): a rule that
differs moves either mean by far more, while the same game keeps the test green for these
seeds.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from kingsbreakfast.engine import State

SOURCE = Path(__file__).resolve().parent.parent / "benchmarks" / "c_playout" / "playout.c"
C_GAMES = 100_000
ENGINE_GAMES = 3_000
TOLERANCE = 5.0
"""Standard errors of the difference the two means may be apart."""


@pytest.fixture(scope="module")
def playout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None, "a C compiler (cc or gcc) is needed to check the C playout"
    program = tmp_path_factory.mktemp("playout") / "playout"
    subprocess.run([compiler, "-O2", "-o", str(program), str(SOURCE)], check=True)
    return program


def mean_and_error(total: float, squares: float, count: int) -> tuple[float, float]:
    mean = total / count
    variance = max(squares / count - mean * mean, 0.0) * count / (count - 1)
    return mean, (variance / count) ** 0.5


def engine_games(players: int, seed: int) -> tuple[list[int], list[int]]:
    """Actions per game and every seat's points, uniformly random play in the engine."""
    rng = random.Random(seed)
    actions: list[int] = []
    points: list[int] = []
    for _ in range(ENGINE_GAMES):
        state = State.new(players, rng)
        count = 0
        legal = state.legal_actions()
        while legal:
            state.play(legal[int(rng.random() * len(legal))])
            count += 1
            legal = state.legal_actions()
        actions.append(count)
        points.extend(state.score().points)
    return actions, points


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_c_playout_plays_as_many_actions_and_points_as_the_engine(
    playout: Path, players: int
) -> None:
    out = subprocess.run(
        [str(playout), str(C_GAMES), str(players), "7", "score"], capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    games, actions, points, actions_sq, points_sq = (
        int(out[0]), int(out[1]), float(out[4]), float(out[5]), float(out[6])
    )
    assert games == C_GAMES
    engine_actions, engine_points = engine_games(players, 7)
    for (c_total, c_squares, c_count), engine in (
        ((actions, actions_sq, games), engine_actions),
        ((points, points_sq, games * players), engine_points),
    ):
        c_mean, c_error = mean_and_error(c_total, c_squares, c_count)
        e_mean, e_error = mean_and_error(
            float(sum(engine)), float(sum(x * x for x in engine)), len(engine)
        )
        bound = TOLERANCE * (c_error**2 + e_error**2) ** 0.5
        assert abs(c_mean - e_mean) < bound, (players, c_mean, e_mean, bound)
