"""Whole games of the chef's search against the master network or the card counter, played
in compiled code (:func:`kingsbreakfast.compiled.chef_games.play_chef_games`): how
``benchmarks/chef_strength.py`` measures the chef level, seat-rotated over dealt decks.
The bot that plays on the server (:class:`kingsbreakfast.bots.chef.ChefBot`) runs the very
search these games play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from kingsbreakfast.bots.chef import SearchBudget
from kingsbreakfast.bots.master import MasterBot, MasterWeights
from kingsbreakfast.compiled import search as kernel
from kingsbreakfast.compiled.chef_games import play_chef_games
from kingsbreakfast.compiled.games import MAX_ACTIONS, new_games
from kingsbreakfast.compiled.policies import HEURISTIC, rooms
from kingsbreakfast.engine import UNSHUFFLED_DECK

from .warm import notice_first_compile

COMPILE_SECONDS: Final = 110.0
"""About how long numba takes to compile the search the first time on one core."""
SHIPPED: Final = SearchBudget()
"""The chef level's own budget."""


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
    rng = np.random.default_rng(seed)
    fresh = np.array(UNSHUFFLED_DECK, np.int8)
    decks = np.array([rng.permutation(fresh) for _ in range(count)], np.int8)
    return decks, rng.integers(0, n, count).astype(np.int64)


def evaluate(
    decks: int, n: int, opponents: int | Sequence[int], seed: int,
    budget: SearchBudget = SHIPPED, weights: MasterWeights | None = None,
    must_draw: bool = False, dragon_min: int = 1,
) -> Evaluation:
    """Seat-rotated games: each of ``decks`` decks dealt from ``seed`` is played ``n``
    times, the chef in each seat once, the other seats ``opponents``
    (:data:`kingsbreakfast.compiled.search.SEAT_COUNTER` or ``SEAT_MASTER``, one kind or
    one per seat index away from the chef)."""
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
    legal_room, _, counter_room = rooms([HEURISTIC])
    with notice_first_compile(("chef-games", n), COMPILE_SECONDS):
        searches = play_chef_games(
            games_count, games, world, np.repeat(np.arange(decks), n), np.repeat(cooks, n),
            kinds, np.uint64(seed), budget.candidates, budget.worlds, budget.depth,
            budget.prior_weight, net,
            share, points, actions, seeds, legal_room, counter_room,
        )
    return Evaluation(share, points, actions, seeds, np.repeat(deck_array, n, axis=0),
                      np.repeat(cooks, n), int(searches))


__all__ = ["Evaluation", "deal_decks", "evaluate"]
