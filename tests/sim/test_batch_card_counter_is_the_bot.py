"""One name, one policy: the batch simulator's ``heuristic`` is the card counter.

At every move of a ``heuristic`` seat in recorded batch games (3, 4 and 5 players, every
variant), the simulator's choice must be one of the actions the heuristic bot
(bots/heuristic.py) values best from the same view (within the bot's own tolerance), and
where the bot sees a tie the simulator must pick among the tied actions at random. The
``medium`` policy slips as often as the registry's ``medium`` level, and the vector
environment's built-in seats play the same compiled function.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.bots import (  # noqa: E402
    batch_policy,
    heuristic,
    knowledge,
)
from kingsbreakfast.bots.registry import MEDIUM_MISTAKES  # noqa: E402
from kingsbreakfast.compiled import card_counter, policies  # noqa: E402
from kingsbreakfast.engine import Rules, State, shuffled_deck  # noqa: E402
from kingsbreakfast.sim.batch import simulate  # noqa: E402
from kingsbreakfast.sim.vector import VectorGames  # noqa: E402

VARIANTS = [Rules(e, d) for e, d in product(("draw_or_feed", "must_draw"), (1, 2))]


def best_actions(state: State) -> tuple[set[int], int]:
    """The bot's best actions from the mover's own view (R7b: only what it may see), and
    how many actions were legal."""
    view = state.view(state.to_move)
    legal = view.legal_actions()
    if len(legal) == 1:
        return {int(legal[0])}, 1
    values = heuristic.evaluate(view)
    best = max(values[a] for a in legal)
    return {int(a) for a in legal if values[a] >= best - 1e-9}, len(legal)


def test_the_port_uses_the_bot_s_constants() -> None:
    assert card_counter.LEADER_WEIGHT == heuristic.LEADER_WEIGHT
    assert card_counter.REACH_KING == knowledge.REACH_KING
    assert card_counter.DRAW_SHARE == knowledge.DRAW_SHARE
    assert card_counter.MAX_EXTRA == knowledge.MAX_EXTRA
    assert policies.MEDIUM_SLIPS == MEDIUM_MISTAKES


@pytest.mark.parametrize(("players", "rules"), [(n, r) for n in (3, 4, 5) for r in VARIANTS])
def test_every_choice_of_the_batch_card_counter_is_one_the_bot_would_make(
    players: int, rules: Rules
) -> None:
    seats = ["heuristic", "random", *["heuristic"] * (players - 2)]
    result = simulate(30, players, seats, seed=players, rules=rules, record=True)
    assert result.actions is not None and result.decks is not None
    kinds: Counter[str] = Counter()
    for g in range(result.games):
        state = State([int(c) for c in result.decks[g]], players, 0, rules)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            if state.to_move != 1:
                best, _ = best_actions(state)
                assert action in best, (g, t, action, sorted(best))
                kinds["checked"] += 1
                kinds["take" if action < 7 else "draw" if action == 7 else "other"] += 1
            state.play(action)
    assert kinds["checked"] > 300 and kinds["take"] > 0 and kinds["draw"] > 0, kinds


def test_ties_are_broken_at_random() -> None:
    # wherever the bot sees a tie, the simulator must sometimes pick other than the lowest
    # id and sometimes the lowest (a fixed rule would do one or the other every time)
    result = simulate(80, 3, "heuristic", seed=5, record=True)
    assert result.actions is not None and result.decks is not None
    outcomes: Counter[str] = Counter()
    for g in range(result.games):
        state = State([int(c) for c in result.decks[g]], 3)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            best, _ = best_actions(state)
            if len(best) > 1:
                outcomes["lowest" if action == min(best) else "other"] += 1
            state.play(action)
    assert outcomes["lowest"] > 5 and outcomes["other"] > 5, outcomes


def test_medium_slips_as_often_as_the_level_does() -> None:
    # a slip is a uniformly random legal action with chance MEDIUM_MISTAKES wherever there
    # is a choice, so it misses the bot's best set with chance 0.25 * (1 - best / legal)
    result = simulate(80, 4, "medium", seed=11, record=True)
    assert result.actions is not None and result.decks is not None
    expected = variance = 0.0
    missed = 0
    for g in range(result.games):
        state = State([int(c) for c in result.decks[g]], 4)
        for t in range(int(result.num_actions[g])):
            action = int(result.actions[g, t])
            best, legal = best_actions(state)
            p = MEDIUM_MISTAKES * (1 - len(best) / legal)
            expected += p
            variance += p * (1 - p)
            missed += action not in best
            state.play(action)
    assert expected > 200
    assert abs(missed - expected) < 5 * variance**0.5, (missed, expected)


def test_the_registry_names_the_card_counter_s_batch_policies() -> None:
    assert batch_policy("heuristic") == "heuristic"
    assert batch_policy("hard") == "heuristic"
    assert batch_policy("medium") == "medium"
    with pytest.raises(ValueError, match="unknown batch policy"):
        simulate(1, 3, "hard")


def followers(state: State, seats: list[str]) -> list[State]:
    """Every state the card counter's seats can reach from ``state`` by playing only the
    bot's best actions, until another seat is to move or the game is over."""
    if state.is_over or seats[state.to_move] != "heuristic":
        return [state]
    best, _ = best_actions(state)
    reached: list[State] = []
    for action in sorted(best):
        after = state.clone()
        after.play(action)
        reached.extend(followers(after, seats))
    return reached


def matching(candidates: list[State], games: VectorGames, g: int) -> State:
    """The candidate the vector environment's game ``g`` agrees with: the same mover and
    observation, or the same final points."""
    from kingsbreakfast.interop.encoding import encode

    for state in candidates:
        if state.is_over:
            if games.to_move[g] < 0 and games.points[g].tolist() == state.score().points:
                return state
        elif games.to_move[g] == state.to_move and np.array_equal(
            games.observations[g], np.asarray(encode(state.view(state.to_move)), np.float32)
        ):
            return state
    raise AssertionError(f"game {g}: no move of the card counter's best leads where it went")


@pytest.mark.parametrize(
    "seats", [["caller", "heuristic", "heuristic"], ["heuristic", "caller", "heuristic", "caller"]]
)
def test_the_vector_environment_s_card_counter_seats_play_as_the_bot(seats: list[str]) -> None:
    pytest.importorskip("gymnasium")
    players = len(seats)
    rng = random.Random(players)
    decks = [shuffled_deck(rng) for _ in range(12)]
    games = VectorGames(12, players, seats, first_cook=0, decks=decks, autoreset=False)
    games.reset(seed=3)
    states = [matching(followers(State(deck, players, 0), seats), games, g)
              for g, deck in enumerate(decks)]
    steps = 0
    while not all(state.is_over for state in states):
        actions = np.zeros(len(states), np.int64)
        for g, state in enumerate(states):
            if not state.is_over:
                actions[g] = int(rng.choice(list(state.legal_actions())))
        games.step(actions)
        for g, state in enumerate(states):
            if not state.is_over:
                state.play(int(actions[g]))
                states[g] = matching(followers(state, seats), games, g)
                steps += 1
    assert steps > 100


def test_the_batch_command_plays_the_hard_and_medium_levels() -> None:
    import json

    from typer.testing import CliRunner

    from kingsbreakfast.cli.main import app

    result = CliRunner().invoke(
        app,
        ["batch", "--games", "20", "--players", "3", "--policy", "hard", "--policy", "medium",
         "--policy", "random", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policies"] == ["heuristic", "medium", "random"]
