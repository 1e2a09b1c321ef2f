"""The game log's copy of the round rules (``web/static/tablelog.js``) against the engine,
game by game.

The table page tells where each round ends from the history alone (R3: a round is one turn
per player; R7a: a drawn dragon used or placed at once is the same turn), and works out
what the king was served (R9) and what the cook turned up for the next round (R4) from two
views in a row. The engine plays random games; the browser's own module, loaded from the
real server into the real chromium, reads every view of each game (``roundEnds`` on every
prefix of the history) and follows the views as a page would, some of them missed
(``RoundWitness``). Every round end it finds must be the engine's, and every round it says
it saw served or dealt must have been served or dealt those very cards.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from kingsbreakfast.engine import (  # noqa: E402
    DISHES,
    DRAGON,
    DRAW_ID,
    NUM_DISHES,
    Rules,
    State,
    shuffled_deck,
)
from server.kb_live import LiveServer  # noqa: E402

READ = """async (games) => {
  const m = await import('/static/tablelog.js');
  return games.map(([views, seen]) => {
    const ends = views.map((v) => [...m.roundEnds(v.history, v.num_players, v.pending_dragon)]);
    const witness = new m.RoundWitness();
    let before = null;
    for (const i of seen) {
      witness.observe(before, views[i], []);
      before = views[i];
    }
    return [ends, [...witness.served], [...witness.dealt]];
  });
}"""

GAMES = 40
"""Random games for each seed: about 2,700 views, a few hundred dragons drawn or fed."""


def names(counts: list[int]) -> dict[str, int]:
    return {DISHES[d]: counts[d] for d in range(NUM_DISHES)}


def engine_game(rng: random.Random) -> dict[str, Any]:
    """A random game: one seat's view before the first move and after every move, and what
    the engine did at each round's end: the history index that ended it (R3), the dishes
    left on the table that the king was served (R9), the cards the cook turned up (R4)."""
    players = rng.randint(3, 5)
    deck = shuffled_deck(rng)
    state = State(deck, players, rng.randrange(players), Rules())
    seat = rng.randrange(players)
    views = [state.view(seat).to_dict()]
    ends: dict[int, int] = {}
    served: dict[int, dict[str, int]] = {}
    dealt: dict[int, dict[str, Any]] = {
        1: {"dishes": names(list(state.table)), "dragons": state.table_dragons}
    }
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        round_, table, left = state.round, list(state.table), state.deck_size
        state.play(action)
        index = len(state.history) - 1
        if state.is_over or state.round != round_:
            ends[index] = round_
            left_over = [0 if d == action else table[d] for d in range(NUM_DISHES)]
            served[round_] = names(left_over)
            if not state.is_over:
                top = len(deck) - left + (1 if action == DRAW_ID else 0)
                cards = deck[top : len(deck) - state.deck_size]
                counts = [cards.count(d) for d in range(NUM_DISHES)]
                dealt[state.round] = {"dishes": names(counts), "dragons": cards.count(DRAGON)}
        views.append(state.view(seat).to_dict())
    return {"views": views, "ends": ends, "served": served, "dealt": dealt}


@pytest.mark.parametrize("seed", [1, 2])
def test_the_game_log_reads_rounds_as_the_engine_plays_them(
    server: LiveServer, browser: Any, seed: int
) -> None:
    rng = random.Random(seed)
    games = [engine_game(rng) for _ in range(GAMES)]
    # the first game of each seed is followed view by view; the others miss a view in four
    seen = [
        [i for i in range(len(game["views"])) if g == 0 or i in (0, len(game["views"]) - 1)
         or rng.random() < 0.75]
        for g, game in enumerate(games)
    ]
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.base + "/")
    answers = page.evaluate(READ, [[game["views"], s] for game, s in zip(games, seen, strict=True)])
    context.close()
    witnessed = 0
    for g, (game, (ends, served, dealt)) in enumerate(zip(games, answers, strict=True)):
        for v, found in enumerate(ends):
            length = len(game["views"][v]["history"])
            want = {i: r for i, r in game["ends"].items() if i < length}
            assert dict(found) == want, (seed, g, v)
        for round_, cards in served:
            assert cards == game["served"][round_], (seed, g, round_)
        for round_, cards in dealt:
            assert cards == game["dealt"][round_], (seed, g, round_)
        witnessed += len(served) + len(dealt)
        if g == 0:  # every view seen: every round's serving and dealing is told
            assert sorted(r for r, _ in served) == sorted(game["served"])
            assert sorted(r for r, _ in dealt) == sorted(game["dealt"])
    dragons = sum(
        entry["type"] in ("feed", "place_dragon")
        for game in games for entry in game["views"][-1]["history"]
    )
    assert dragons > GAMES and witnessed > 10 * GAMES, (dragons, witnessed)
