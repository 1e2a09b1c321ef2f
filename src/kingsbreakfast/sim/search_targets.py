"""The chef's search as a teacher for the master network (expert iteration).

:func:`label` plays games in which one seat searches every legal action with the chef's
search (:mod:`kingsbreakfast.compiled.search_labels`) and returns, for each, the network's
input row and the search's mean share of the win and mean points: targets for fine-tuning the
network toward what the search measures. ``benchmarks/expert_iteration.py`` runs the whole
experiment (label, fine-tune, measure against three ``hard`` seats); docs/analysis.md, *Expert
iteration*, says what it found. """

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kingsbreakfast.bots.master import MasterWeights
from kingsbreakfast.compiled import features
from kingsbreakfast.compiled import search as search_kernel
from kingsbreakfast.compiled.games import new_games
from kingsbreakfast.compiled.policies import HEURISTIC, rooms
from kingsbreakfast.compiled.search_labels import SEAT_LEARNER, label_games

from .warm import notice_first_compile

COMPILE_SECONDS = 120.0
"""About how long numba takes to compile the labelling games the first time on one core."""
ROWS_PER_GAME = 400
"""Room for one game's rows: a seat's decisions times its legal actions (about 200 in a
four-player game)."""


@dataclass(frozen=True, slots=True)
class SearchTargets:
    """Rows of the network's input and the search's values of them."""

    rows: np.ndarray[Any, Any]
    """(rows, NUM_FEATURES) float32: one legal action as the mover saw it."""
    values: np.ndarray[Any, Any]
    """(rows, 2): the search's mean share of the win and mean points / POINTS_SCALE."""
    decision: np.ndarray[Any, Any]
    """(rows,) which decision a row belongs to: a decision's legal actions lie side by side."""


def label(
    weights: MasterWeights | Sequence[np.ndarray[Any, Any]], games: int, n: int, seed: int,
    worlds: int = 16,
    epsilon: float = 0.0, opponent: int = search_kernel.SEAT_COUNTER,
    playout_opponent: int = search_kernel.SEAT_MASTER,
) -> SearchTargets:
    """``games`` games of ``n`` players from ``seed``: in each, one seat (drawn from the seed)
    searches every action in ``worlds`` worlds with ``weights`` (a network, or its layers
    w1, b1, w2, b2, w3, b3) and plays the best (any legal action with chance ``epsilon``);
    the other seats are ``opponent`` (the card
    counter or the master network). In the search's play-outs the other cooks answer as
    ``playout_opponent`` would (the chef's search assumes the master network)."""
    if games < 1 or worlds < 1 or not 0.0 <= epsilon <= 1.0:
        raise ValueError("games and worlds must be at least 1, epsilon a chance from 0 to 1")
    arrays = tuple(weights.arrays() if isinstance(weights, MasterWeights) else weights)
    rng = np.random.default_rng(seed)
    kinds = np.full((games, n), opponent, np.int64)
    kinds[np.arange(games), rng.integers(0, n, games)] = SEAT_LEARNER
    cooks = rng.integers(0, n, games).astype(np.int64)
    room = games * ROWS_PER_GAME + 64 * 64
    rows = np.zeros((room, features.NUM_FEATURES), np.float32)
    values = np.zeros((room, 2))
    decision = np.zeros(room, np.int64)
    legal_room, _, counter_room = rooms([HEURISTIC])
    with notice_first_compile(("search-targets", n), COMPILE_SECONDS):
        written = label_games(
            games, new_games(1, n, False, 1), new_games(2, n, False, 1), np.uint64(seed),
            kinds, cooks, worlds, 0, epsilon,
            search_kernel.new_net(arrays, n, playout_opponent),
            rows, values, decision, legal_room,
            counter_room,
        )
    return SearchTargets(rows[:written], values[:written], decision[:written])


__all__ = ["SearchTargets", "label"]
