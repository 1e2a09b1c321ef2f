"""One name, one policy: the batch simulator's ``greedy`` is the greedy bot's policy.

At every move of a greedy seat in recorded batch games (3, 4 and 5 players, every variant),
the simulator's choice must be one of the actions the bot (bots/greedy.py) scores best
from the same view, and where the bot sees a tie the simulator must pick among the tied
actions at random rather than always the same one. The vector environment's built-in
``greedy`` seat uses the same compiled function.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.bots import batch_policy  # noqa: E402
from kingsbreakfast.bots.greedy import immediate_scores  # noqa: E402
from kingsbreakfast.engine import Rules, State  # noqa: E402
from kingsbreakfast.sim.batch import simulate  # noqa: E402

VARIANTS = [Rules(e, d) for e, d in product(("draw_or_feed", "must_draw"), (1, 2))]


def best_actions(state: State) -> set[int]:
    scored = immediate_scores(state.view(state.to_move))
    best = max(scored.values())
    return {int(a) for a, value in scored.items() if value == best}


@pytest.mark.parametrize(("players", "rules"), [(n, r) for n in (3, 4, 5) for r in VARIANTS])
def test_every_choice_of_the_batch_greedy_is_one_the_bot_would_make(
    players: int, rules: Rules
) -> None:
    seats = ["greedy", "random", *["greedy"] * (players - 2)]
    result = simulate(60, players, seats, seed=players, rules=rules, record=True)
    assert result.actions is not None and result.decks is not None
    checked = ties = 0
    draws = 0
    for g in range(result.games):
        state = State([int(c) for c in result.decks[g]], players, 0, rules)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            if state.to_move != 1:
                best = best_actions(state)
                assert action in best, (g, t, action, sorted(best))
                checked += 1
                ties += len(best) > 1
                draws += action == 7
            state.play(action)
    assert checked > 500 and ties > 0 and draws > 0


def test_ties_are_broken_at_random() -> None:
    # wherever the bot sees a tie, the simulator must sometimes pick other than the lowest
    # id and sometimes the lowest (a fixed rule would do one or the other every time)
    result = simulate(200, 3, "greedy", seed=5, record=True)
    assert result.actions is not None and result.decks is not None
    outcomes: Counter[str] = Counter()
    for g in range(result.games):
        state = State([int(c) for c in result.decks[g]], 3)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            best = best_actions(state)
            if len(best) > 1:
                outcomes["lowest" if action == min(best) else "other"] += 1
            state.play(action)
    assert outcomes["lowest"] > 10 and outcomes["other"] > 10, outcomes


def test_the_registry_names_the_greedy_bot_s_batch_policy_greedy() -> None:
    assert batch_policy("greedy") == "greedy"
    assert batch_policy("easy") == "greedy"
    with pytest.raises(ValueError, match="unknown batch policy"):
        simulate(1, 3, "plain")
