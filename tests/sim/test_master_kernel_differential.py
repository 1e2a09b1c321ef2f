"""The master bot's self-play kernel against the rules engine and the bot itself.

The kernel plays with the batch kernel's compiled rules, and its network seats read rows
compiled from the bot's own encoder; these tests hold all of it to the engine: every game
the kernel played is replayed in the engine with the checked ``play`` (every action legal,
the same final points), and at every choice of a network seat the bot, given the engine's
view, writes the very row the kernel recorded and (away from near-ties) picks the same action.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.bots.master import MasterWeights, view_rows  # noqa: E402
from kingsbreakfast.compiled import network as kernel  # noqa: E402
from kingsbreakfast.compiled.features import NUM_FEATURES  # noqa: E402
from kingsbreakfast.engine import Rules, State  # noqa: E402
from kingsbreakfast.sim.train import evaluate_vs_hard, play_batch  # noqa: E402

GAMES = 40


def random_layers(seed: int, hidden: int = 32) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.normal(0, 0.3, (NUM_FEATURES, hidden)), rng.normal(0, 0.1, hidden),
        rng.normal(0, 0.3, (hidden, hidden)), rng.normal(0, 0.1, hidden),
        rng.normal(0, 0.3, (hidden, 2)), np.zeros(2),
    ]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_engine_replays_the_kernel_and_the_bot_reads_the_same_rows(players: int) -> None:
    layers = random_layers(players)
    weights = MasterWeights(*layers, header={})
    rng = np.random.default_rng(players)
    seat_kind = (rng.random((GAMES, players)) < 0.6).astype(np.int64)
    cooks = rng.integers(0, players, GAMES)
    out = play_batch(layers, GAMES, players, 100 + players, seat_kind, 0.0, cooks)
    row = 0
    compared = agreed = 0
    kinds: set[str] = set()
    for g in range(GAMES):
        state = State([int(c) for c in out["decks"][g]], players, int(cooks[g]))
        t = 0
        while not state.is_over:
            action = int(out["actions"][g, t])
            t += 1
            seat = state.to_move
            legal = state.legal_actions()
            if seat_kind[g, seat] == kernel.SEAT_NET and len(legal) > 1:
                actions, rows = view_rows(state.view(seat))
                assert out["game"][row] == g and out["seat"][row] == seat
                chosen = [int(a) for a in actions].index(action)
                np.testing.assert_allclose(rows[chosen], out["rows"][row], atol=1e-9)
                values = weights.values(rows)[:, 0]
                top = np.sort(values)[::-1]
                if top[0] - top[1] > 1e-9:  # the bot's pick, unless two rows tie
                    compared += 1
                    agreed += int(actions[int(np.argmax(values))]) == action
                row += 1
            kinds.add(legal[[int(a) for a in legal].index(action)].kind)
            state.play(action)  # checked: raises if the kernel played an illegal action
        assert out["actions"][g, t] == -1
        scoring = state.score()
        assert [int(x) for x in out["points"][g]] == scoring.points
        shares = [1 / len(scoring.winners) if s in scoring.winners else 0.0
                  for s in range(players)]
        assert list(out["share"][g]) == pytest.approx(shares)
    assert row == len(out["rows"])
    assert compared > 100 and agreed == compared
    assert {"take", "draw", "feed"} <= kinds


def test_exploration_plays_other_moves_and_evaluation_rotates_the_seat() -> None:
    layers = random_layers(9)
    seat_kind = np.ones((30, 4), np.int64)
    greedy = play_batch(layers, 30, 4, 5, seat_kind, 0.0)
    exploring = play_batch(layers, 30, 4, 5, seat_kind, 0.5)
    assert (greedy["actions"] != exploring["actions"]).any()
    share, half = evaluate_vs_hard(layers, 40)
    assert 0.0 <= share <= 1.0 and half >= 0.0


@pytest.mark.parametrize(
    "rules", [Rules("must_draw", 1), Rules("draw_or_feed", 2), Rules("must_draw", 2)]
)
def test_the_self_play_kernel_plays_every_variant_as_the_engine_does(rules: Rules) -> None:
    """The kernel reads the variants (R5a, R8) from the rules kernel, not the default game:
    the engine replays its games under the same rules, every action legal there."""
    players = 4
    layers = random_layers(5)
    rng = np.random.default_rng(7)
    seat_kind = (rng.random((GAMES, players)) < 0.5).astype(np.int64)
    out = play_batch(layers, GAMES, players, 21, seat_kind, 0.1, rules=rules)
    for g in range(GAMES):
        state = State([int(c) for c in out["decks"][g]], players, 0, rules)
        t = 0
        while not state.is_over:
            state.play(int(out["actions"][g, t]))  # checked under the variant's rules
            t += 1
        assert out["actions"][g, t] == -1
        assert [int(x) for x in out["points"][g]] == state.score().points
