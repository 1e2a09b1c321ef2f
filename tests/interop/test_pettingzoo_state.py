"""PettingZoo's global state for centralised critics: ``state()`` and ``state_space``."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from kingsbreakfast.engine import State  # noqa: E402
from kingsbreakfast.interop.encoding import STATE_FIELDS, STATE_SIZE, encode, encode_state  # noqa: E402
from kingsbreakfast.interop.pettingzoo import env, parallel_env  # noqa: E402


def fields(values: list[float]) -> dict[str, list[float]]:
    out = {}
    start = 0
    for field in STATE_FIELDS:
        out[field.name] = [round(v * field.scale) for v in values[start : start + field.size]]
        start += field.size
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_state_holds_every_hidden_draw_and_the_deck_s_contents(players: int) -> None:
    rng = random.Random(players)
    state = State.new(players, rng)
    while not state.is_over:
        values = encode_state(state)
        assert len(values) == STATE_SIZE and all(0.0 <= v <= 1.0 for v in values)
        parts = fields(values)
        view = state.view(None)
        assert values[: len(encode(view, 0))] == encode(view, 0)
        for seat in range(players):
            assert tuple(parts[f"draws_{seat}"]) == state.view(seat).hands[seat].draws
        for seat in range(players, 5):
            assert parts[f"draws_{seat}"] == [0] * 7
        assert sum(parts["deck_dishes"]) + parts["deck_dragons"][0] == view.deck_size
        state.play(rng.choice(state.legal_actions()))
    parts = fields(encode_state(state))
    assert sum(parts["deck_dishes"]) + parts["deck_dragons"][0] == state.view(None).removed_unseen


def test_aec_and_parallel_environments_give_the_state_in_its_space() -> None:
    game = env(players=4)
    game.reset(seed=3)
    raw = game.unwrapped
    assert raw.state_space.shape == (STATE_SIZE,)
    first = raw.state()
    assert raw.state_space.contains(first)
    assert np.array_equal(first, np.asarray(encode_state(raw.game), np.float32))
    parallel = parallel_env(players=3)
    parallel.reset(seed=2)
    assert parallel.state_space.contains(parallel.state())
    mover = next(a for a in parallel.agents if parallel.aec.agent_selection == a)
    legal = np.flatnonzero(parallel.aec.observe(mover)["action_mask"])
    parallel.step({mover: int(legal[0])})
    assert parallel.state_space.contains(parallel.state())
