"""The batch simulator's interface: seeding, shapes, statistics, policies, bad input."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.engine import Rules, State, score_hand  # noqa: E402
from kingsbreakfast.engine.cards import UNSHUFFLED_DECK  # noqa: E402
from kingsbreakfast.sim.batch import simulate  # noqa: E402


def test_same_seed_same_games_and_game_g_does_not_depend_on_batch_size() -> None:
    a = simulate(300, 4, seed=11, record=True)
    b = simulate(300, 4, seed=11, record=True)
    c = simulate(40, 4, seed=11, record=True)
    d = simulate(300, 4, seed=12)
    assert (a.points == b.points).all()
    assert a.actions is not None and c.actions is not None
    assert (a.actions[:40] == c.actions).all()
    assert (a.points[:40] == c.points).all()
    assert not (a.points == d.points).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shapes_and_card_conservation(players: int) -> None:
    r = simulate(500, players, seed=2, record=True)
    assert r.points.shape == (500, players)
    assert r.takes.shape == r.draws.shape == (500, players, 7)
    total = (
        r.hands.sum(axis=(1, 2)).astype(int)
        + r.king.sum(axis=1)
        + r.table.sum(axis=1)
        + r.table_dragons
        + r.removed_dishes.sum(axis=1)
        + r.removed_dragons
        + r.removed_unseen
    )
    assert (total == 110).all()
    # R1: 15 of each dish, wherever they ended; dragons are on the table or removed
    dishes = r.hands.sum(axis=1) + r.king + r.removed_dishes
    assert (dishes <= 15).all()
    assert ((r.table_dragons + r.removed_dragons) <= 5).all()
    assert (r.winners.sum(axis=1) >= 1).all()
    assert r.decks is not None
    assert (np.sort(r.decks, axis=1) == np.array(sorted(UNSHUFFLED_DECK))).all()


def test_random_decks_are_uniform_enough() -> None:
    """The lazy shuffle gives each card kind its share of the top position."""
    r = simulate(20000, 3, seed=9, record=True)
    assert r.decks is not None
    top = np.bincount(r.decks[:, 0], minlength=8) / 20000
    assert np.allclose(top[:7], 15 / 110, atol=0.01)
    assert abs(top[7] - 5 / 110) < 0.01


def test_statistics_and_a_greedy_seat_beats_random_seats() -> None:
    r = simulate(4000, 4, ["greedy", "random", "random", "random"], seed=3)
    stats = r.stats()
    assert stats.games == 4000
    assert abs(sum(stats.win_rate) - 1.0) < 1e-9
    assert stats.win_rate[0] > 0.5
    assert stats.mean_points[0] > max(stats.mean_points[1:])
    assert "greedy" in "\n".join(stats.lines())
    assert set(r.game(0)) >= {"points", "winners", "king"}


def test_batch_of_one_and_variants() -> None:
    for rules in (Rules("must_draw", 2), Rules()):
        r = simulate(1, 5, "greedy", rules=rules, seed=1)
        assert r.games == 1
        assert r.rules == rules


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be from 1"),
        ({"players": 6}, "players must be from 3 to 5"),
        ({"policies": "clever"}, "unknown batch policy 'clever'"),
        ({"policies": ["random", "random"]}, "2 policies given for 4 players"),
        ({"decks": [[0] * 110]}, "not a full deck"),
        ({"decks": [[0] * 10]}, "decks must have shape"),
        ({"actions": [[99]]}, "action ids from 0 to 37"),
        ({"seed": -1}, "seed must be from 0"),
    ],
)
def test_bad_input_is_refused_clearly(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"games": 1, "players": 4}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        simulate(**arguments)  # type: ignore[arg-type]


def greedy_choice(state: State) -> int:
    """The plain-greedy policy as its documentation states it, computed with the engine's own
    scoring (R11): the action leaving my hand worth most against the king as R9 would
    serve him, ties to the lowest id."""
    seat = state.to_move
    assert seat is not None
    hand = list(state.hand(seat))
    served = [k + t for k, t in zip(state.king, state.table, strict=True)]
    best, best_value = -1, -1
    for action in state.legal_actions():
        king, mine = list(served), list(hand)
        if action.kind == "take":
            dish = int(action)
            king[dish] -= state.table[dish]
            mine[dish] += state.table[dish]
        elif action.kind == "feed":
            assert action.dishes is not None
            for dish in action.dishes:
                king[dish] -= 1
        value = score_hand(king, mine)[0]
        if value > best_value:
            best, best_value = int(action), value
    return best


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_greedy_policy_chooses_as_documented(players: int) -> None:
    seats = ["plain-greedy", *["random"] * (players - 1)]
    result = simulate(150, players, seats, seed=21, record=True)
    assert result.actions is not None and result.decks is not None
    checked = 0
    for g in range(150):
        state = State([int(c) for c in result.decks[g]], players)
        for t in range(int(result.num_actions[g])):
            if state.to_move == 0:
                assert int(result.actions[g, t]) == greedy_choice(state), (g, t)
                checked += 1
            state.play(int(result.actions[g, t]))
    assert checked > 150 * 5
