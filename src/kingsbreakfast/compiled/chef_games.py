"""Whole games of the chef's search (:func:`.search.search`), the master network and the card
counter (``hard``) on given decks, compiled: the evaluation that
``benchmarks/chef_strength.py`` runs through :func:`kingsbreakfast.sim.chef_evaluation.evaluate`.
Each search's seed is written out, so the chef bot can repeat any of its moves
(``tests/sim/test_chef_kernel_differential.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .games import ACTIONS, TO_MOVE, Games, splitmix
from .network import best_row
from .policies import CALLER, HEURISTIC, LEGAL_ROOM, play
from .rules import deal, legal, list_legal, step
from .search import (
    SEAT_CHEF,
    SEAT_COUNTER,
    Net,
    search,
    value_legal_master,
    win_share,
)


@njit(cache=True)
def play_chef_games(
    num_games: int,
    games: Games,
    world: Games,
    deck_rows: Any,
    first_cooks: Any,
    seat_kind: Any,
    seed: Any,
    candidates: int,
    worlds: int,
    depth: int,
    prior_weight: float,
    net: Net,
    out_share: Any,
    out_points: Any,
    out_actions: Any,
    out_seeds: Any,
    legal_room: Any,
    counter_room: Any,
) -> int:
    """Play ``num_games`` games in row 0 of ``games`` (dealt from given decks: game ``g``
    from deck ``deck_rows[g]``, first cook ``first_cooks[g]``); ``seat_kind[g, s]`` says
    who plays seat ``s`` (:data:`SEAT_COUNTER`, :data:`SEAT_MASTER`, :data:`SEAT_CHEF`).

    The chef's search at action ``t`` of game ``g`` is seeded by ``out_seeds[g, t]``
    (derived from ``seed``, ``g`` and ``t``; 0 where no search ran), so the engine's bot
    can repeat it. Each seat's share of the win and points go to ``out_share`` and
    ``out_points``, every action to ``out_actions`` (rows end with -1). Returns the number
    of searches run (decisions of chef seats with a choice)."""
    n = games.n
    state = games.state[0]
    seats = np.zeros(n, np.int64)
    values = np.zeros((LEGAL_ROOM, 2))
    scratch_value = np.zeros(LEGAL_ROOM)
    searches = 0
    counts = np.zeros(out_actions.shape[1], np.int64)
    base = splitmix(seed)
    for g in range(num_games):
        for s in range(n):
            seats[s] = HEURISTIC if seat_kind[g, s] == SEAT_COUNTER else CALLER
        games.rng[0] = splitmix(base ^ splitmix(np.uint64(g)))
        deal(games, 0, deck_rows[g], first_cooks[g])
        for t in range(out_seeds.shape[1]):
            out_seeds[g, t] = 0
        while not play(games, 0, seats, legal_room, None, counter_room, True, out_actions[g],
                       counts):
            seat = state[TO_MOVE]
            count = list_legal(legal(games, 0), legal_room)
            if count == 1:
                action = legal_room[0]
            elif seat_kind[g, seat] == SEAT_CHEF:
                move_seed = splitmix(base ^ splitmix(np.uint64(g * 1000 + state[ACTIONS] + 1)))
                out_seeds[g, state[ACTIONS]] = move_seed
                pick = search(games, 0, world, move_seed, candidates, worlds, depth,
                              prior_weight, net, scratch_value)
                action = legal_room[pick]
                searches += 1
            else:
                count = value_legal_master(games, 0, seat, net, values)
                action = net.legal[best_row(values, count)]
            out_actions[g, state[ACTIONS]] = action
            if step(games, 0, action):
                break
        for t in range(state[ACTIONS], out_actions.shape[1]):
            out_actions[g, t] = -1
        for s in range(n):
            out_share[g, s] = win_share(games, 0, s, net)
            out_points[g, s] = net.points[s]
    return searches


__all__ = ["play_chef_games"]
