"""OpenSpiel's Python ISMCTS in ``evaluate_bots`` (through the shim), seeded and repeatable."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import kingsbreakfast.interop.openspiel  # noqa: E402, F401  (registers the game)
from kingsbreakfast.interop.openspiel_bots import (  # noqa: E402
    Restartable,
    restartable,
    seeded_ismcts,
)

evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots").evaluate_bots


def play(game: object, seed: int) -> tuple[list[float], list[int]]:
    bots = restartable([
        seeded_ismcts(game, seed, max_simulations=8),
        pyspiel.make_uniform_random_bot(1, 11),
        seeded_ismcts(game, seed + 1, max_simulations=8),
    ])
    state = game.new_initial_state()  # type: ignore[attr-defined]
    returns = evaluate_bots(state, bots, np.random.RandomState(5))
    return list(returns), list(state.history())


def test_python_ismcts_needs_the_shim_in_evaluate_bots() -> None:
    game = pyspiel.load_game("python_kings_breakfast", {"players": 3})
    bots = [seeded_ismcts(game, 1, max_simulations=4), pyspiel.make_uniform_random_bot(1, 1),
            pyspiel.make_uniform_random_bot(2, 2)]
    with pytest.raises(Exception, match="RestartAt"):
        evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    wrapped = restartable(bots)
    assert isinstance(wrapped[0], Restartable)
    assert wrapped[1] is bots[1] and wrapped[2] is bots[2]  # pyspiel's own bots stay


def test_one_seed_gives_one_game_and_another_seed_another() -> None:
    game = pyspiel.load_game("python_kings_breakfast", {"players": 3})
    returns, history = play(game, 21)
    assert sum(returns) == pytest.approx(0.0)  # rank is zero-sum
    assert play(game, 21) == (returns, history)
    others = [play(game, seed)[1] for seed in (22, 23)]
    assert any(other != history for other in others)
