"""The vectorized environment against the rules engine: same decks and actions, same games.

The vector environment steps games with the batch kernel's rules, so it is trusted only as
far as these tests go. For 3, 4 and 5 players and every combination of the variants, the
engine and the vector environment are dealt the same decks and given the same actions
(chosen at random among the engine's legal ones); at every step the mover, the observation
tensor (interop/encoding.py, exactly), the legal-action mask must agree, and at each game's
end the rank rewards (R12) and the R11 points. Every game is played twice in its slot, the
second time after the auto-reset, which must deal the slot's deck again.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from kingsbreakfast.engine import Rules, State, shuffled_deck  # noqa: E402
from kingsbreakfast.interop.encoding import SIZE, encode  # noqa: E402
from kingsbreakfast.interop.utility import utilities  # noqa: E402
from kingsbreakfast.sim.vector import OBS_SIZE, VectorGames  # noqa: E402

VARIANTS = [
    Rules(empty_table, dragon_min)
    for empty_table, dragon_min in product(("draw_or_feed", "must_draw"), (1, 2))
]
CASES = [(n, rules) for n in (3, 4, 5) for rules in VARIANTS]
GAMES = 24


def test_the_tensor_has_the_documented_length() -> None:
    assert OBS_SIZE == SIZE


def engine_mask(state: State) -> list[bool]:
    legal = {int(a) for a in state.legal_actions()}
    return [a in legal for a in range(38)]


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_same_decks_and_actions_give_the_same_trajectories(players: int, rules: Rules) -> None:
    rng = random.Random(players * 31 + rules.dragon_min_on_table)
    decks = [shuffled_deck(rng) for _ in range(GAMES)]
    cook = players - 1
    games = VectorGames(GAMES, players, "caller", rules=rules, first_cook=cook, decks=decks)
    games.reset(seed=5)
    states = [State(deck, players, cook, rules) for deck in decks]
    finished = [0] * GAMES
    kinds: set[str] = set()
    while min(finished) < 2:
        actions = np.zeros(GAMES, np.int64)
        for g, state in enumerate(states):
            mover = state.to_move
            assert mover is not None
            assert games.to_move[g] == mover
            expected = np.asarray(encode(state.view(mover)), np.float32)
            assert np.array_equal(games.observations[g], expected), g
            assert games.masks[g].tolist() == engine_mask(state)
            action = rng.choice(list(state.legal_actions()))
            actions[g] = int(action)
            kinds.add("feed" if 9 <= int(action) <= 36 else str(min(int(action), 7)))
            state.play(action)
        _, _, rewards, done = games.step(actions)
        assert not games.illegal.any()
        for g, state in enumerate(states):
            assert bool(done[g]) == state.is_over
            if state.is_over:
                scoring = state.score()
                assert rewards[g].tolist() == pytest.approx(utilities(scoring, "rank"))
                assert games.points[g].tolist() == scoring.points
                assert games.discarded[g].tolist() == scoring.discarded
                finished[g] += 1
                states[g] = State(decks[g], players, cook, rules)
            else:
                assert not rewards[g].any()
    assert {"0", "7", "feed"} <= kinds


def test_an_illegal_action_is_replaced_by_the_lowest_legal_one_and_flagged() -> None:
    deck = shuffled_deck(random.Random(3))
    games = VectorGames(1, 4, "caller", first_cook=0, decks=[deck])
    games.reset()
    state = State(deck, 4, 0)
    lowest = min(int(a) for a in state.legal_actions())
    illegal = next(a for a in range(38) if not engine_mask(state)[a])
    games.step(np.array([illegal]))
    assert games.illegal.tolist() == [True]
    state.play(lowest)
    assert np.array_equal(
        games.observations[0], np.asarray(encode(state.view(state.to_move)), np.float32)
    )
    games.step(np.array([min(int(a) for a in state.legal_actions())]))
    assert games.illegal.tolist() == [False]


def test_built_in_seats_move_until_the_callers_seat_is_to_move() -> None:
    games = VectorGames(64, 5, ["random", "greedy", "caller", "random", "greedy"])
    games.reset(seed=9)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        assert (games.to_move == 2).all()
        assert games.masks.any(axis=1).all()
        choice = np.array([rng.choice(np.flatnonzero(row)) for row in games.masks])
        _, _, rewards, done = games.step(choice)
        ends += int(done.sum())
        assert np.all(np.abs(rewards.sum(axis=1)) < 1e-5)  # rank is zero-sum
    assert ends > 64


def test_a_seed_fixes_every_game() -> None:
    first = VectorGames(16, 4, ["caller", "random", "greedy", "random"])
    second = VectorGames(16, 4, ["caller", "random", "greedy", "random"])
    for games in (first, second):
        games.reset(seed=77)
    for _ in range(40):
        actions = np.argmax(first.masks, axis=1)
        a = [x.copy() for x in first.step(actions)]
        b = [x.copy() for x in second.step(actions)]
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_games": 0}, "num_games"),
        ({"players": 6}, "players"),
        ({"seats": "smart"}, "unknown seat policy"),
        ({"seats": ["caller", "random"]}, "2 seat policies"),
        ({"seats": "random"}, "caller"),
        ({"first_cook": 4}, "first_cook"),
        ({"decks": [[0] * 110]}, "full deck"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"num_games": 1, "players": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        VectorGames(**settings)  # type: ignore[arg-type]


def test_actions_of_the_wrong_shape_are_refused() -> None:
    games = VectorGames(3, 3)
    games.reset()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        games.step(np.zeros(2, np.int64))
