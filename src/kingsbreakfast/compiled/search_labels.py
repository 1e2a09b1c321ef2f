"""Training rows for the master network from the chef's search, compiled: expert iteration.

The chef plays better than the network it searches with (docs/analysis.md, *The chef*),
because its value of an action is measured rather than guessed: the action is played in
many dealt worlds, the other cooks answer, and the network judges the position the mover
meets next (or R12 judges the finished game). That measured value is a better target for
the network than the outcome of one whole game: it carries the luck of one round of answers
instead of the luck of the rest of the game.

:func:`label_games` plays whole games in which the learning seats search *every* legal
action (not only the network's favourites, so that no action's value is left to drift) and
writes, for each, the network's input row as the mover sees it and the search's mean share
of the win and mean points. The seat then plays the best searched action (with chance
``epsilon`` any legal action, so that the rows also cover positions a greedy player would
not reach); the other seats are the card counter (``hard``) or the master network.

The rows are read from a dealt world, exactly as :func:`.search.search` reads its
prior, so they are what the bot sees at play time; the search reads the mover's view only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .games import ACTIONS, TO_MOVE, Games, below, game_stream, next_word, splitmix
from .network import best_row
from .policies import CALLER, HEURISTIC, play
from .rules import deal, legal, list_legal, step
from .search import (
    SEAT_CHEF,
    SEAT_COUNTER,
    Net,
    deal_world,
    legal_rows,
    play_candidates,
    value_legal_master,
)

SEAT_LEARNER = SEAT_CHEF
"""A seat that searches every action, writes a row for each and plays the best."""


@njit(cache=True)
def search_every_action(
    root: Games, r: int, world: Games, seed: Any, worlds: int, depth: int, net: Net,
    out_rows: Any, out_values: Any, at: int,
) -> int:
    """Every legal action of row ``r``'s mover searched in ``worlds`` worlds: the input rows
    go to ``out_rows[at:]``, the mean share of the win and mean points (/ POINTS_SCALE) to
    ``out_values[at:]``, in the engine's legal order. Returns how many actions; 0 if the
    row is malformed or ``out_rows`` has no room for them."""
    mover = root.state[r, TO_MOVE]
    s = splitmix(seed)
    if not deal_world(root, r, world, 0, mover, s, net):
        return 0
    count = legal_rows(world, 0, mover, net)
    if at + count > out_rows.shape[0]:
        return 0
    actions = net.legal[:count].copy()
    for i in range(count):
        out_rows[at + i, :] = net.rows[i, :]
    sums = np.zeros(count)
    point_sums = np.zeros(count)
    if not play_candidates(root, r, world, s, actions, np.arange(count), count, worlds, depth,
                           net, sums, point_sums):
        return 0
    for i in range(count):
        out_values[at + i, 0] = sums[i] / worlds
        out_values[at + i, 1] = point_sums[i] / worlds
    return count


@njit(cache=True)
def label_games(
    num_games: int,
    games: Games,
    world: Games,
    seed: Any,
    seat_kind: Any,
    first_cooks: Any,
    worlds: int,
    depth: int,
    epsilon: float,
    net: Net,
    out_rows: Any,
    out_values: Any,
    out_decision: Any,
    legal_room: Any,
    counter_room: Any,
) -> int:
    """Play ``num_games`` games in row 0 of ``games`` (game ``g`` from its own stream of
    ``seed``, first cook ``first_cooks[g]``); ``seat_kind[g, s]`` is :data:`SEAT_LEARNER`,
    ``SEAT_MASTER`` or ``SEAT_COUNTER``. Returns how many rows were written (module doc);
    ``out_decision[i]`` numbers the decision row ``i`` belongs to (the rows of one decision
    are its legal actions, side by side). It stops early, at a game's end, once ``out_rows``
    is nearly full."""
    n = games.n
    state = games.state[0]
    seats = np.zeros(n, np.int64)
    values = np.zeros((legal_room.shape[0], 2))
    written = 0
    decisions = 0
    for g in range(num_games):
        if written + 64 * legal_room.shape[0] > out_rows.shape[0]:
            break
        for s in range(n):
            seats[s] = HEURISTIC if seat_kind[g, s] == SEAT_COUNTER else CALLER
        games.rng[0] = game_stream(seed, g)
        deal(games, 0, 0, first_cooks[g])
        # no record is kept (``play`` writes none when told so; its out arrays go unused)
        while not play(games, 0, seats, legal_room, None, counter_room, False, legal_room,
                       legal_room):
            seat = state[TO_MOVE]
            count = list_legal(legal(games, 0), legal_room)
            if count == 1:
                action = legal_room[0]
            elif seat_kind[g, seat] == SEAT_LEARNER:
                move_seed = game_stream(seed ^ np.uint64(0x5EA5C4), g * 1000 + state[ACTIONS])
                found = search_every_action(games, 0, world, move_seed, worlds, depth, net,
                                            out_rows, out_values, written)
                pick = np.int64(best_row(out_values[written:], found) if found == count else 0)
                if found > 0:
                    for i in range(found):
                        out_decision[written + i] = decisions
                    decisions += 1
                    written += found
                s = next_word(games.rng[0])
                games.rng[0] = s
                if epsilon > 0.0 and below(s, 1 << 30) < epsilon * (1 << 30):
                    s = next_word(s)
                    games.rng[0] = s
                    pick = np.int64(below(s, count))
                action = legal_room[pick]
            else:
                count = value_legal_master(games, 0, seat, net, values)
                action = net.legal[best_row(values, count)]
            if step(games, 0, action):
                break
    return written


__all__ = ["SEAT_LEARNER", "label_games", "search_every_action"]
