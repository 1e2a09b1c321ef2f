"""The C playout (benchmarks/c_playout/playout.c) plays the engine's game.

It is a copy of the rules (default variant, uniformly random play) that the speed
benchmarks measure the engine and the vector games against, so a drift would make those
figures compare different games. Built with the system's C compiler, it is checked twice:

- game by game: the engine plays random games from shuffled decks, and the C program
  replays each (the same deck, first cook and actions) and writes what it found legal at
  every step and how the game ended; every legal set (R5-R8, R10), the king's plate (R9)
  and every seat's R11 points and discards must be the engine's;
- on average, its own random play: 100,000 games from a fixed seed against 3,000 of the
  engine played the same way; for 3, 4 and 5 players the mean actions per game and the
  mean R11 points per seat must agree within five standard errors of their difference
  (from both samples' own spread), so its shuffle and its uniform choice are the engine's
  too.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from kingsbreakfast.engine import Rules, State, shuffled_deck

SOURCE = Path(__file__).resolve().parent.parent / "benchmarks" / "c_playout" / "playout.c"
C_GAMES = 100_000
ENGINE_GAMES = 3_000
TOLERANCE = 5.0
"""Standard errors of the difference the two means may be apart."""
REPLAYED_GAMES = 400
"""Games of each table size replayed by the C program, enough for every kind of action
(a feed from a drawn dragon and from the table, R8, a pass, R5b) to occur many times."""


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


def engine_game(players: int, rng: random.Random) -> tuple[str, list[str]]:
    """One random game in the engine: the replay's input line and, for each step, what the
    C program should write (the legal actions, then the king's plate and every seat's
    points/discards)."""
    deck = shuffled_deck(rng)
    cook = rng.randrange(players)
    state = State(deck, players, cook, Rules())
    actions: list[int] = []
    steps: list[str] = []
    while not state.is_over:
        legal = [int(action) for action in state.legal_actions()]
        steps.append(",".join(map(str, legal)))
        actions.append(rng.choice(legal))
        state.play(actions[-1])
    scoring = state.score()
    result = [str(k) for k in state.king] + [
        f"{points}/{discarded}"
        for points, discarded in zip(scoring.points, scoring.discarded, strict=True)
    ]
    line = " ".join(map(str, [players, cook, *deck, len(actions), *actions]))
    return line, [*steps, "=", *result]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_c_playout_replays_every_game_as_the_engine_plays_it(
    playout: Path, players: int
) -> None:
    rng = random.Random(players)
    games = [engine_game(players, rng) for _ in range(REPLAYED_GAMES)]
    out = subprocess.run(
        [str(playout), "replay"], input="\n".join(line for line, _ in games) + "\n",
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    assert len(out) == REPLAYED_GAMES
    feeds = 0
    for g, ((_, want), got) in enumerate(zip(games, out, strict=True)):
        assert got.split() == want, (players, g)
        steps = want[: want.index("=")]
        feeds += sum(any(9 <= int(a) <= 36 for a in step.split(",") if a) for step in steps)
    assert feeds > REPLAYED_GAMES, "the replayed games should offer the dragons' feeds often"
