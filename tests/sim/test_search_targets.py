"""The chef's search as a teacher (sim/search_targets.py): its values are the chef's own,
they read the mover's view only, and a labelling run is a function of its seed.

Hidden information (docs/rules.md, *Who sees what*): a training row is what the mover may
see, so two states the mover sees alike must give the very same rows and targets.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kingsbreakfast.bots.chef import ChefBot, view_row  # noqa: E402
from kingsbreakfast.bots.master import MasterBot, view_rows  # noqa: E402
from kingsbreakfast.compiled import features  # noqa: E402
from kingsbreakfast.compiled import search as kernel  # noqa: E402
from kingsbreakfast.compiled.games import new_games  # noqa: E402
from kingsbreakfast.compiled.search_labels import search_every_action  # noqa: E402
from kingsbreakfast.engine import View  # noqa: E402
from kingsbreakfast.sim.search_targets import label  # noqa: E402
from sim.test_chef import position, twin_views  # noqa: E402

WORLDS = 4


def every_action(
    view: View, seed: int, playout: int = kernel.SEAT_MASTER
) -> tuple[np.ndarray, np.ndarray]:
    """The rows and targets of every legal action of ``view``'s mover, the other cooks of
    the play-outs being ``playout``."""
    n = view.num_players
    root = new_games(1, n, False, 1)
    view_row(view, root)
    net = kernel.new_net(MasterBot().weights.arrays(), n, playout)
    rows = np.zeros((64, features.NUM_FEATURES), np.float32)
    values = np.zeros((64, 2))
    count = search_every_action(root, 0, new_games(2, n, False, 1), np.uint64(seed), WORLDS,
                                0, net, rows, values, 0)
    assert count == len(view.legal_actions())
    return rows[:count], values[:count]


def test_the_targets_are_the_chefs_values_of_every_action() -> None:
    state = position(5, 4, 14)
    view = state.view(state.to_move)
    _, values = every_action(view, 77)
    chef = ChefBot(candidates=64, worlds=WORLDS)  # every action a candidate
    assert [v for _, v in chef.values(view, 77)] == list(values[:, 0])
    assert np.all(values[:, 1] >= 0.0)  # points, never negative (R11) but for network noise


def test_the_rows_are_the_network_inputs_the_master_bot_reads() -> None:
    state = position(8, 3, 20)
    view = state.view(state.to_move)
    rows, _ = every_action(view, 5)
    legal, bot_rows = view_rows(view)
    assert len(legal) == len(rows)
    assert np.allclose(rows, bot_rows, atol=1e-6)


def test_play_outs_against_the_card_counter_value_the_same_rows_differently() -> None:
    state = position(12, 4, 10)
    view = state.view(state.to_move)
    rows, values = every_action(view, 3)
    counter_rows, counter_values = every_action(view, 3, kernel.SEAT_COUNTER)
    assert np.array_equal(rows, counter_rows)
    assert not np.array_equal(values, counter_values)
    assert np.all((counter_values[:, 0] > -0.1) & (counter_values[:, 0] < 1.1))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5), moves=st.integers(0, 60),
       world_seed=st.integers(0, 2**32), search_seed=st.integers(1, 2**63),
       playout=st.sampled_from([kernel.SEAT_MASTER, kernel.SEAT_COUNTER]))
def test_the_rows_and_targets_depend_only_on_the_view(
    seed: int, players: int, moves: int, world_seed: int, search_seed: int, playout: int
) -> None:
    twins = twin_views(seed, players, moves, world_seed)
    if twins is None:
        return
    view, other_view = twins
    rows, values = every_action(view, search_seed, playout)
    other_rows, other_values = every_action(other_view, search_seed, playout)
    assert np.array_equal(rows, other_rows) and np.array_equal(values, other_values)


def test_a_labelling_run_is_a_function_of_its_seed() -> None:
    weights = MasterBot().weights
    first = label(weights, 3, 4, seed=11, worlds=2)
    again = label(weights, 3, 4, seed=11, worlds=2)
    other = label(weights, 3, 4, seed=12, worlds=2)
    exploring = label(weights, 3, 4, seed=11, worlds=2, epsilon=1.0)  # every move at random
    assert len(first.rows) > 30
    assert np.array_equal(first.rows, again.rows) and np.array_equal(first.values, again.values)
    for changed in (other, exploring):
        assert not (len(first.rows) == len(changed.rows)
                    and np.array_equal(first.rows, changed.rows))
    # a decision's rows lie side by side, numbered from 0 upwards
    steps = np.diff(first.decision)
    assert first.decision[0] == 0 and set(np.unique(steps)) <= {0, 1}
    assert np.all((first.values[:, 0] > -0.1) & (first.values[:, 0] < 1.1))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="worlds"):
        label(MasterBot().weights, 1, 4, seed=1, worlds=0)
