"""The perfect-recall information state (game parameter ``infostate="history"``).

The string lists each deal in R1 order, so deals that differ only in the order their cards
were turned up (R4: they are turned up together) are one information state; the tensor is
made from the same history, so equal strings always come with equal tensors.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import kingsbreakfast.interop.openspiel  # noqa: E402, F401  (registers the game)
from kingsbreakfast.interop import encoding, openspiel_history  # noqa: E402

GAME = "python_kings_breakfast"


def deal_then_play(game: object, deal: list[int], moves: int, seed: int) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for card in deal:
        state.apply_action(card)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_deals_in_another_order_are_one_information_state() -> None:
    game = pyspiel.load_game(GAME, {"players": 4, "infostate": "history"})
    deal = [0, 0, 1, 2, 3, 4, 5, 6]
    first = deal_then_play(game, deal, 40, seed=1)
    second = deal_then_play(game, deal[::-1], 40, seed=1)
    assert first.history() != second.history()
    for player in range(4):
        assert first.information_state_string(player) == second.information_state_string(
            player
        )
        assert first.information_state_tensor(player) == second.information_state_tensor(
            player
        )
    # the default keeps the order the cards came in, and so tells them apart
    plain = pyspiel.load_game(GAME, {"players": 4})
    assert deal_then_play(plain, deal, 0, 1).information_state_string(0) != deal_then_play(
        plain, deal[::-1], 0, 1
    ).information_state_string(0)


def test_equal_strings_come_with_equal_tensors_and_the_tensor_has_its_size() -> None:
    game = pyspiel.load_game(GAME, {"players": 3, "infostate": "history"})
    seen: dict[str, list[float]] = {}
    distinct_tensors = set()
    for seed in range(12):
        state = deal_then_play(game, [], 0, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            for player in range(3):
                text = state.information_state_string(player)
                tensor = state.information_state_tensor(player)
                assert len(tensor) == openspiel_history.SIZE
                assert all(0.0 <= v <= 1.0 for v in tensor)
                assert seen.setdefault(text, tensor) == tensor
                distinct_tensors.add(tuple(tensor))
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(distinct_tensors) == len(seen)  # and different strings, different tensors


def test_the_default_tensor_is_still_the_view_tensor_and_bad_values_are_named() -> None:
    game = pyspiel.load_game(GAME, {"players": 3})
    state = deal_then_play(game, [], 10, seed=2)
    assert len(state.information_state_tensor(0)) == encoding.SIZE
    with pytest.raises(Exception, match="infostate must be"):
        pyspiel.load_game(GAME, {"players": 3, "infostate": "full"})


def test_openspiel_random_simulation_passes_with_the_history_tensor() -> None:
    game = pyspiel.load_game(GAME, {"players": 4, "infostate": "history"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
