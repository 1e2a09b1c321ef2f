"""The chef's compiled search against the rules engine and the chef bot.

The evaluation kernel (compiled/chef_games.py) plays chef seats with the search and the other
seats as master or hard; every game it played is replayed in the engine with the checked
``play`` (every action legal, the same final points and shares), and at every decision of a
chef seat the engine's chef bot, given only the engine's view of that seat and the seed the
kernel used, chooses the very action the kernel played: the level that plays on the server
and in the terminal is the one the strength benchmark measures.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from kingsbreakfast.bots.chef import ChefBot, SearchBudget  # noqa: E402
from kingsbreakfast.compiled import search as kernel  # noqa: E402
from kingsbreakfast.engine import Rules, State  # noqa: E402
from kingsbreakfast.sim.chef_evaluation import evaluate  # noqa: E402

BUDGET = SearchBudget(candidates=3, worlds=3, depth=0)


def replay(result, bot: ChefBot, rules: Rules) -> tuple[int, set[str]]:
    """Replay every game of ``result`` in the engine; returns the chef decisions compared
    and the kinds of action played."""
    n = result.share.shape[1]
    compared = 0
    kinds: set[str] = set()
    for g in range(result.share.shape[0]):
        state = State([int(c) for c in result.decks[g]], n, int(result.first_cooks[g]), rules)
        t = 0
        while not state.is_over:
            action = int(result.actions[g, t])
            seat = state.to_move
            legal = state.legal_actions()
            if seat == g % n and len(legal) > 1:
                assert result.seeds[g, t] != 0
                chosen = bot.choose(state.view(seat), int(result.seeds[g, t]))
                assert int(chosen) == action, (g, t)
                compared += 1
            kinds.add(legal[[int(a) for a in legal].index(action)].kind)
            state.play(action)  # checked: raises if the kernel played an illegal action
            t += 1
        assert result.actions[g, t] == -1
        scoring = state.score()
        assert [int(x) for x in result.points[g]] == scoring.points
        shares = [1 / len(scoring.winners) if s in scoring.winners else 0.0 for s in range(n)]
        assert list(result.share[g]) == pytest.approx(shares)
    return compared, kinds


@pytest.mark.parametrize(("players", "opponents"), [
    (3, kernel.SEAT_COUNTER), (4, kernel.SEAT_MASTER), (5, kernel.SEAT_COUNTER),
    (4, [kernel.SEAT_MASTER, kernel.SEAT_COUNTER, kernel.SEAT_MASTER]),
])
def test_the_engine_replays_the_kernel_and_the_bot_searches_alike(players, opponents) -> None:
    result = evaluate(3, players, opponents, 777 + players, BUDGET)
    assert result.searches > 0
    bot = ChefBot(candidates=BUDGET.candidates, worlds=BUDGET.worlds, depth=BUDGET.depth)
    compared, kinds = replay(result, bot, Rules())
    assert compared == result.searches
    assert {"take", "draw"} <= kinds


@pytest.mark.parametrize(
    "rules", [Rules("must_draw", 1), Rules("draw_or_feed", 2)]
)
def test_the_search_plays_the_variants_as_the_engine_does(rules: Rules) -> None:
    """The search reads R5a's and R8's variants from the rules kernel: its games replay in
    the engine under the same rules, and the bot chooses alike there too."""
    result = evaluate(2, 4, kernel.SEAT_MASTER, 31, BUDGET,
                      must_draw=rules.empty_table == "must_draw",
                      dragon_min=rules.dragon_min_on_table)
    bot = ChefBot(candidates=BUDGET.candidates, worlds=BUDGET.worlds, depth=BUDGET.depth)
    compared, _ = replay(result, bot, rules)
    assert compared == result.searches > 0
