"""The chef: the top level, a search that plays each move in many dealt worlds with the
master network as prior, as the other cooks' policy and as the judge of where a world
arrives.

The search itself is compiled (:mod:`._search_kernel`, module doc there); this module turns
a seat's :class:`~kingsbreakfast.engine.View` into the kernel's row, so the bot that plays
on the server, in the terminal and in tournaments runs the very search the kernel
evaluation measured (``benchmarks/chef_strength.py``). It reads the view only: the deck and
the other hands' draws are not in it, and the kernel deals them at random for each world.

It lives with the compiled simulators (it plays the compiled rules), above the bots; the
registry builds it through one declared import (``pyproject.toml``'s layer contract).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from kingsbreakfast.bots.base import legal_choices
from kingsbreakfast.bots.master import MasterBot, MasterWeights
from kingsbreakfast.engine import DECK_SIZE, MUST_DRAW, NUM_DISHES, Action, View

from . import _search_kernel as kernel
from ._rules_kernel import (
    COOK,
    FEEDS,
    MAX_ACTIONS,
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
from ._rules_kernel import _king_feeds as king_feeds
from .warm import notice_first_compile

CANDIDATES: Final = 2
"""Actions searched: the network's best two (docs/analysis.md, *The chef*)."""
WORLDS: Final = 32
"""Worlds dealt for each move; every candidate is played in each."""
DEPTH: Final = 0
"""The mover's own later decisions played by the master policy before the leaf value."""
PRIOR_WEIGHT: Final = 0.0
"""How much of the network's own estimate is added to the search's mean."""
COMPILE_SECONDS: Final = 110.0
"""About how long numba takes to compile the search the first time on one core."""

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
        the dealt worlds, None for an action not searched (:func:`._search_kernel.search`)."""
        legal = view.legal_actions()
        _, values = self._searcher(view).search(view, seed, self.budget)
        return list(zip(legal, values, strict=True))

    def act(self, view: View, rng: random.Random) -> Action:
        return self.choose(view, rng.getrandbits(64))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Games played by :func:`evaluate`: seat ``g % n`` of game ``g`` is the chef's."""

    share: np.ndarray[Any, Any]
    """(games, n) each seat's share of the win."""
    points: np.ndarray[Any, Any]
    actions: np.ndarray[Any, Any]
    seeds: np.ndarray[Any, Any]
    decks: np.ndarray[Any, Any]
    """(games, 110) each game's deck."""
    first_cooks: np.ndarray[Any, Any]
    searches: int

    def chef_shares(self) -> np.ndarray[Any, Any]:
        n = self.share.shape[1]
        return np.array([self.share[g, g % n] for g in range(self.share.shape[0])])


def deal_decks(count: int, n: int, seed: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``count`` shuffled decks and first cooks from ``seed`` (numpy's PCG64)."""
    from kingsbreakfast.engine import UNSHUFFLED_DECK

    rng = np.random.default_rng(seed)
    fresh = np.array(UNSHUFFLED_DECK, np.int8)
    decks = np.array([rng.permutation(fresh) for _ in range(count)], np.int8)
    return decks, rng.integers(0, n, count).astype(np.int64)


def evaluate(
    decks: int, n: int, opponents: int | Sequence[int], seed: int,
    budget: SearchBudget = SearchBudget(), weights: MasterWeights | None = None,
    must_draw: bool = False, dragon_min: int = 1,
) -> Evaluation:
    """Seat-rotated games: each of ``decks`` decks dealt from ``seed`` is played ``n``
    times, the chef in each seat once, the other seats ``opponents``
    (:data:`._search_kernel.SEAT_COUNTER` or ``SEAT_MASTER``, one kind or one per seat
    index away from the chef)."""
    weights = MasterBot().weights if weights is None else weights
    deck_array, cooks = deal_decks(decks, n, seed)
    games_count = decks * n
    kinds = np.zeros((games_count, n), np.int64)
    others = [opponents] * (n - 1) if isinstance(opponents, int) else list(opponents)
    for g in range(games_count):
        chef = g % n
        for k in range(1, n):
            kinds[g, (chef + k) % n] = others[k - 1]
        kinds[g, chef] = kernel.SEAT_CHEF
    games = new_games(1, n, must_draw, dragon_min, deck_array)
    world = new_games(2, n, must_draw, dragon_min)
    net = kernel.new_net(weights.arrays(), n)
    share = np.zeros((games_count, n))
    points = np.zeros((games_count, n), np.int64)
    actions = np.zeros((games_count, MAX_ACTIONS), np.int64)
    seeds = np.zeros((games_count, MAX_ACTIONS), np.uint64)
    from ._policy_kernel import HEURISTIC, rooms

    legal_room, _, counter_room = rooms([HEURISTIC])
    with notice_first_compile(("chef-games", n), COMPILE_SECONDS):
        searches = kernel.play_chef_games(
            games_count, games, world, np.repeat(np.arange(decks), n), np.repeat(cooks, n),
            kinds, np.uint64(seed), budget.candidates, budget.worlds, budget.depth,
            budget.prior_weight, net,
            share, points, actions, seeds, legal_room, counter_room,
        )
    return Evaluation(share, points, actions, seeds, np.repeat(deck_array, n, axis=0),
                      np.repeat(cooks, n), int(searches))


__all__ = ["CANDIDATES", "DEPTH", "WORLDS", "ChefBot", "Evaluation", "SearchBudget",
           "evaluate", "view_row"]
