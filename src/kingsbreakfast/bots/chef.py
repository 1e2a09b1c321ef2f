"""The chef: the top level, a search that plays each move in many dealt worlds with the
master network as prior, as the other cooks' policy and as the judge of where a world
arrives.

The search itself is compiled (:mod:`kingsbreakfast.compiled.search`, module doc there);
this module turns a seat's :class:`~kingsbreakfast.engine.View` into the kernel's row, so
the bot that plays on the server, in the terminal and in tournaments runs the very search
the kernel evaluation measured (``benchmarks/chef_strength.py``). It reads the view only:
the deck and the other hands' draws are not in it, and the kernel deals them at random for
each world.

A bot like the others, above the compiled game it plays (``pyproject.toml``'s layer
contract); the registry imports it only when the level is asked for, since it loads numba.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

import numpy as np

from kingsbreakfast.compiled import search as kernel
from kingsbreakfast.compiled.games import (
    COOK,
    FEEDS,
    ON_TABLE,
    PENDING,
    REMOVED_DRAGONS,
    ROUND,
    TO_MOVE,
    TOP,
    TURNS_LEFT,
    Games,
    new_games,
)
from kingsbreakfast.compiled.rules import king_feeds
from kingsbreakfast.engine import DECK_SIZE, MUST_DRAW, NUM_DISHES, Action, View

from .base import legal_choices
from .master import MasterBot, MasterWeights

CANDIDATES: Final = 2
"""Actions searched: the network's best two (docs/analysis.md, *The chef*)."""
WORLDS: Final = 32
"""Worlds dealt for each move; every candidate is played in each."""
DEPTH: Final = 0
"""The mover's own later decisions played by the master policy before the leaf value."""
PRIOR_WEIGHT: Final = 0.0
"""How much of the network's own estimate is added to the search's mean."""

DESCRIPTION = (
    "Chef searches with master's network: before each move it deals the cards it cannot "
    "see many times, plays master's best few actions in every one of those worlds, lets "
    "the other cooks answer as master would, and plays the action that leaves it best "
    "placed on average. It sees only what its seat may see."
)


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much one move searches (defaults: the shipped level)."""

    candidates: int = CANDIDATES
    worlds: int = WORLDS
    depth: int = DEPTH
    prior_weight: float = PRIOR_WEIGHT


def view_row(view: View, games: Games, g: int = 0) -> None:
    """Write what ``view``'s mover sees into row ``g`` of ``games``: public numbers and the
    mover's own draws; the other hands' draws and the deck stay empty (the search deals
    them)."""
    mover = view.to_move
    if mover is None or mover < 0:
        raise ValueError("the game is over: there is no action to search")
    hand = view.hands[mover]
    if hand.draws is None:
        raise ValueError("the chef searches only for the seat to move, from its own view")
    games.deck[g, :] = 0
    games.table[g, :NUM_DISHES] = view.table
    games.table[g, NUM_DISHES] = view.table_dragons
    games.king[g, :] = view.king
    games.takes[g] = np.array([h.takes for h in view.hands], np.int64)
    games.draws[g, :, :] = 0
    games.draws[g, mover, :] = hand.draws
    games.removed[g, :] = view.removed_dishes
    games.hidden[g, :] = [h.hidden for h in view.hands]
    state = games.state[g]
    state[:] = 0
    state[TOP] = DECK_SIZE - view.deck_size
    state[PENDING] = 1 if view.pending_dragon else 0
    state[COOK] = view.cook
    state[ROUND] = view.round
    state[TURNS_LEFT] = view.turns_left
    state[TO_MOVE] = mover
    state[REMOVED_DRAGONS] = view.removed_dragons
    state[ON_TABLE] = sum(1 << d for d in range(NUM_DISHES) if view.table[d] > 0)
    state[FEEDS] = king_feeds(games.king[g])
    games.rng[g] = 1


class _Searcher:
    """The kernel's rooms for one number of players and one set of rules."""

    def __init__(self, weights: MasterWeights, n: int, must_draw: bool, dragon_min: int):
        self.root = new_games(1, n, must_draw, dragon_min)
        self.world = new_games(2, n, must_draw, dragon_min)
        self.net = kernel.new_net(weights.arrays(), n)
        self.values = np.zeros(40)

    def search(
        self, view: View, seed: int, budget: SearchBudget
    ) -> tuple[int, list[float | None]]:
        view_row(view, self.root)
        # no compile notice here: a bot may play inside a full-screen game or a server,
        # whose standard error is not the player's; `python -m kingsbreakfast.sim.warm`
        # compiles ahead of time
        pick = kernel.search(
            self.root, 0, self.world, np.uint64(seed), budget.candidates, budget.worlds,
            budget.depth, budget.prior_weight, self.net, self.values,
        )
        count = len(view.legal_actions())
        return int(pick), [None if np.isnan(v) else float(v) for v in self.values[:count]]


class ChefBot:
    """Plays the action the search values best (module doc)."""

    name = "chef"
    description = DESCRIPTION

    def __init__(
        self, weights: str | None = None, candidates: int = CANDIDATES, worlds: int = WORLDS,
        depth: int = DEPTH, prior_weight: float = PRIOR_WEIGHT,
    ) -> None:
        if candidates < 1 or worlds < 1 or depth < 0 or not prior_weight >= 0.0:
            raise ValueError("candidates and worlds must be at least 1, depth and prior_weight "
                             "at least 0")
        self.weights = MasterBot(weights).weights
        self.budget = SearchBudget(candidates, worlds, depth, prior_weight)
        self.candidates = candidates
        self.worlds = worlds
        self.depth = depth
        self.prior_weight = prior_weight
        self._rooms: dict[tuple[int, bool, int], _Searcher] = {}

    def _searcher(self, view: View) -> _Searcher:
        key = (view.num_players, view.rules.empty_table == MUST_DRAW,
               view.rules.dragon_min_on_table)
        if key not in self._rooms:
            self._rooms[key] = _Searcher(self.weights, *key)
        return self._rooms[key]

    def choose(self, view: View, seed: int) -> Action:
        """The move for ``view``'s mover with the search seeded by ``seed`` (64 bits)."""
        legal = legal_choices(view)
        if len(legal) == 1:
            return legal[0]
        pick, _ = self._searcher(view).search(view, seed, self.budget)
        return legal[pick]

    def values(self, view: View, seed: int) -> list[tuple[Action, float | None]]:
        """Each legal action with the search's value: the mover's mean share of the win over
        the dealt worlds, None for an action not searched
        (:func:`kingsbreakfast.compiled.search.search`)."""
        legal = view.legal_actions()
        _, values = self._searcher(view).search(view, seed, self.budget)
        return list(zip(legal, values, strict=True))

    def act(self, view: View, rng: random.Random) -> Action:
        return self.choose(view, rng.getrandbits(64))


__all__ = ["CANDIDATES", "DEPTH", "WORLDS", "ChefBot", "SearchBudget", "view_row"]
