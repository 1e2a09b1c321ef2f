"""The chef level's search, compiled: determinized worlds, the master network as prior, as
the other cooks' policy and as the leaf value.

One move of the chef is :func:`search` on a row that holds what the mover may see (the rest
of the row is never read): the table, the king, every public take, the number of cards each
hand drew, the mover's own draws, the dragons. From it the search

1. values every legal action with the master network (its after-state estimate of the
   mover's share of the win, :mod:`kingsbreakfast.bots.master`) and keeps the best
   ``candidates`` of them, best first;
2. deals ``worlds`` worlds (:func:`deal_world`): the dish cards the mover cannot see go
   at random to the other hands (as many as each drew, never a dragon: R7b) and the rest,
   with the unseen dragons, into the deck, whose order the rules kernel draws lazily
   from the world's stream (R4, R7);
3. in each world plays each candidate, then the other seats by the master policy up to the
   mover's next decision (``depth`` more of the mover's own decisions played by the master
   policy too), and values the position reached by the network (the mover's best win
   estimate there) or, if the game ended, by R12 (the mover's share of the win);
   every candidate is played in the same world from the same stream (common random
   numbers), so the comparison between candidates is not drowned by the luck of the deal;
4. plays the candidate with the best mean value plus ``prior_weight`` times the network's
   own estimate (the prior's order breaks ties).

Everything is deterministic for a given seed. The search reads the mover's view only, so
the chef bot (:mod:`kingsbreakfast.bots.chef`) builds such a row from a
:class:`~kingsbreakfast.engine.View` and calls this very function: the games measured here
are the games played on the server and in the terminal
(``tests/sim/test_chef_kernel_differential.py``).

:func:`.chef_games.play_chef_games` is the evaluation driver: whole games of chef, master
and card counter (``hard``) seats on given decks.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kingsbreakfast.engine import DECK_SIZE, DRAGON, NUM_DISHES

from . import features
from .card_counter import VALUES, new_scratch
from .features import POINTS_SCALE
from .games import (
    CARDS_PER_DISH,
    NUM_DRAGONS,
    OVER,
    PENDING,
    REMOVED_DRAGONS,
    STATE_COLUMNS,
    TO_MOVE,
    TOP,
    TURNS_LEFT,
    Games,
    below,
    next_word,
    splitmix,
)
from .network import best_row
from .network import forward as master_forward
from .policies import CALLER, HEURISTIC, LEGAL_ROOM, card_counter_values, play
from .rules import legal, list_legal, rank, score, step

SEAT_COUNTER = 0
"""A seat played by the card counter (``hard``), ties at random."""
SEAT_MASTER = 1
"""A seat played by the master network (``master``)."""
SEAT_CHEF = 2
"""A seat played by the search."""

_encode = njit(cache=True)(features.encode)
_FEED_A = features.FEED_A
_FEED_B = features.FEED_B


class Net(NamedTuple):
    """The master network's layers and the scratch room one evaluation needs."""

    w1: Any
    b1: Any
    w2: Any
    b2: Any
    w3: Any
    b3: Any
    f1: Any
    """The layers again in single precision: what the search's own evaluations use."""
    c1: Any
    f2: Any
    c2: Any
    f3: Any
    c3: Any
    rows: Any
    """(LEGAL_ROOM, NUM_FEATURES) the rows of one seat's legal actions."""
    block: Any
    counter: Any
    values: Any
    """(LEGAL_ROOM, 2) the network's (win share, points / 50) of each row."""
    hidden1: Any
    hidden2: Any
    single1: Any
    single2: Any
    legal: Any
    """(LEGAL_ROOM,) int64 the legal actions of the seat being valued."""
    counter_room: Any
    """The card counter's scratch (its values are one of the network's inputs)."""
    points: Any
    discarded: Any
    cards: Any
    """(DECK_SIZE,) int64: the unseen cards while a world is dealt."""
    leaf: Any
    """(1,) the points (/ ``POINTS_SCALE``) of the position the last :func:`play_out`
    reached: the network's estimate, or R11's final points if the game ended."""
    opponents: Any
    """(1,) int64: who the other cooks are in a play-out: :data:`SEAT_MASTER` (the chef's
    own assumption) or :data:`SEAT_COUNTER` (the card counter, as ``hard`` plays)."""
    seats: Any
    """(n,) int64: the policy codes of a play-out's seats, when the others are the counter."""


def new_net(arrays: tuple[Any, ...], n: int, opponents: int = SEAT_MASTER) -> Net:
    """Room for the search of an ``n``-player game with the network ``arrays``
    (w1, b1, w2, b2, w3, b3, as :class:`kingsbreakfast.bots.master.MasterWeights` has them);
    ``opponents`` says how the other cooks answer in a play-out."""
    w1, b1, w2, b2, w3, b3 = (np.ascontiguousarray(a, np.float64) for a in arrays)
    return Net(
        w1, b1, w2, b2, w3, b3,
        w1.astype(np.float32), b1.astype(np.float32), w2.astype(np.float32),
        b2.astype(np.float32), w3.astype(np.float32), b3.astype(np.float32),
        np.zeros((LEGAL_ROOM, features.NUM_FEATURES)),
        np.zeros((features.NUM_DISHES, features.DISH_WIDTH)),
        np.zeros(LEGAL_ROOM), np.zeros((LEGAL_ROOM, 2)),
        np.zeros(w1.shape[1]), np.zeros(w2.shape[1]),
        np.zeros(w1.shape[1], np.float32), np.zeros(w2.shape[1], np.float32),
        np.zeros(LEGAL_ROOM, np.int64), new_scratch(),
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(DECK_SIZE, np.int64),
        np.zeros(1), np.array([opponents], np.int64), np.zeros(n, np.int64),
    )


@njit(cache=True)
def forward(x: Any, count: int, net: Net, out: Any) -> None:
    """The network on ``count`` rows (two ReLU layers, two outputs) in single precision,
    input by input so that the inner loops run along the weights' rows, eight or sixteen
    numbers at a time (and skip the many zero inputs): the master network's arithmetic
    rounded differently, about 1e-6 apart, which is the search's own business (the master
    seats of an evaluation play with the master kernel's arithmetic)."""
    w1 = net.f1
    w2 = net.f2
    h1 = net.single1
    h2 = net.single2
    n_in = w1.shape[0]
    size1 = w1.shape[1]
    size2 = w2.shape[1]
    for i in range(count):
        h1[:] = net.c1
        for k in range(n_in):
            xk = np.float32(x[i, k])
            if xk != 0.0:
                for j in range(size1):
                    h1[j] += xk * w1[k, j]
        h2[:] = net.c2
        for k in range(size1):
            hk = h1[k]
            if hk > 0.0:
                for j in range(size2):
                    h2[j] += hk * w2[k, j]
        win = np.float64(net.c3[0])
        pts = np.float64(net.c3[1])
        for k in range(size2):
            hk = h2[k]
            if hk > 0.0:
                win += hk * net.f3[k, 0]
                pts += hk * net.f3[k, 1]
        out[i, 0] = win
        out[i, 1] = pts


@njit(cache=True)
def value_legal(games: Games, g: int, seat: int, net: Net) -> int:
    """The network's values of ``seat``'s legal actions in row ``g`` into ``net.values``
    (the actions in ``net.legal``, id order); returns how many. Reads what the seat sees."""
    count = legal_rows(games, g, seat, net)
    forward(net.rows, count, net, net.values)
    return count


@njit(cache=True)
def legal_rows(games: Games, g: int, seat: int, net: Net) -> int:
    """``seat``'s legal actions in row ``g`` into ``net.legal`` and the network's input row
    of each into ``net.rows`` (the card counter's values among them); returns how many."""
    count = list_legal(legal(games, g), net.legal)
    card_counter_values(games, g, seat, net.legal, count, net.counter_room)
    for i in range(count):
        net.counter[i] = net.counter_room[VALUES + i]
    state = games.state[g]
    _encode(
        net.rows, net.block, net.legal, count, games.table[g], games.king[g], games.takes[g],
        games.draws[g, seat], games.hidden[g], games.removed[g], state[REMOVED_DRAGONS],
        state[PENDING] != 0, seat, games.n, state[TURNS_LEFT], DECK_SIZE - state[TOP],
        net.counter, _FEED_A, _FEED_B,
    )
    return count


@njit(cache=True)
def win_share(games: Games, g: int, seat: int, net: Net) -> float:
    """R11 and R12 for a finished game: ``seat``'s share of the win (1/k among k winners)."""
    n = games.n
    score(games, g, net.points, net.discarded)
    top = -2.0
    for s in range(n):
        top = max(top, rank(net.points, net.discarded, n, s))
    winners = 0
    for s in range(n):
        if rank(net.points, net.discarded, n, s) == top:
            winners += 1
    if rank(net.points, net.discarded, n, seat) != top:
        return 0.0
    return 1.0 / winners


@njit(cache=True)
def copy_row(src: Games, r: int, dst: Games, h: int) -> None:
    """Row ``r`` of ``src`` into row ``h`` of ``dst``, the random stream included."""
    dst.deck[h, :] = src.deck[r, :]
    dst.table[h, :] = src.table[r, :]
    dst.king[h, :] = src.king[r, :]
    dst.takes[h, :, :] = src.takes[r, :, :]
    dst.draws[h, :, :] = src.draws[r, :, :]
    dst.removed[h, :] = src.removed[r, :]
    dst.hidden[h, :] = src.hidden[r, :]
    dst.state[h, :] = src.state[r, :]
    dst.rng[h] = src.rng[r]


@njit(cache=True)
def deal_world(root: Games, r: int, world: Games, h: int, mover: int, s: Any, net: Net) -> bool:
    """A world in row ``h`` of ``world`` (whose deck is drawn lazily) agreeing with what
    ``mover`` sees of row ``r`` of ``root``: public numbers and the mover's own draws kept,
    the unseen dish cards dealt at random to the other hands (each gets as many as it drew,
    R7b) and the rest, with the unseen dragons, put in the deck. The others' draws and the
    deck of ``root`` are never read. False if the counts do not add up (a malformed row)."""
    n = root.n
    world.table[h, :] = root.table[r, :]
    world.king[h, :] = root.king[r, :]
    world.takes[h, :, :] = root.takes[r, :, :]
    world.removed[h, :] = root.removed[r, :]
    world.hidden[h, :] = root.hidden[r, :]
    world.state[h, :] = root.state[r, :]
    world.draws[h, :, :] = 0
    world.draws[h, mover, :] = root.draws[r, mover, :]
    cards = net.cards
    count = 0
    for d in range(NUM_DISHES):
        u = CARDS_PER_DISH - root.table[r, d] - root.king[r, d] - root.removed[r, d]
        u -= root.draws[r, mover, d]
        for seat in range(n):
            u -= root.takes[r, seat, d]
        if u < 0:
            return False
        for _ in range(u):
            cards[count] = d
            count += 1
    pending = 1 if root.state[r, PENDING] != 0 else 0
    dragons = NUM_DRAGONS - root.table[r, DRAGON] - root.state[r, REMOVED_DRAGONS] - pending
    dealt = 0
    for seat in range(n):
        if seat == mover:
            continue
        for _ in range(root.hidden[r, seat]):
            if dealt >= count:
                return False
            s = next_word(s)
            j = dealt + below(s, count - dealt)
            card = cards[j]
            cards[j] = cards[dealt]
            cards[dealt] = card
            world.draws[h, seat, card] += 1
            dealt += 1
    top = root.state[r, TOP]
    if top + (count - dealt) + dragons != DECK_SIZE or dragons < 0:
        return False
    t = top
    for i in range(dealt, count):
        world.deck[h, t] = cards[i]
        t += 1
    for _ in range(dragons):
        world.deck[h, t] = DRAGON
        t += 1
    world.rng[h] = splitmix(s)
    return True


@njit(cache=True)
def play_out(world: Games, h: int, mover: int, depth: int, net: Net) -> float:
    """From a world just after the mover's action: the other seats by the master policy (or
    the card counter: ``net.opponents``) up to the mover's next decision (the mover's next
    ``depth`` decisions by the master policy), then the network's value of that position
    for the mover (its best win estimate), or R12's share of the win if the game ends
    first. The points of that position go to ``net.leaf`` (the network's estimate, or R11's
    points once the game is over)."""
    state = world.state[h]
    turns = 0
    counter = net.opponents[0] == SEAT_COUNTER
    if counter:
        net.seats[:] = HEURISTIC
        net.seats[mover] = CALLER
    while True:
        if counter and state[TO_MOVE] != mover and state[TO_MOVE] != OVER:
            # the card counter's seats move in the policy loop until the mover or the end
            play(world, h, net.seats, net.legal, None, net.counter_room, False, net.legal,
                 net.legal)
        seat = state[TO_MOVE]
        if seat == OVER:
            share = win_share(world, h, mover, net)
            net.leaf[0] = net.points[mover] / POINTS_SCALE
            return share
        if seat == mover:
            if turns >= depth:
                count = value_legal(world, h, mover, net)
                best = best_row(net.values, count)
                net.leaf[0] = net.values[best, 1]
                return float(net.values[best, 0])
            turns += 1
        count = list_legal(legal(world, h), net.legal)
        if count == 1:
            action = net.legal[0]
        else:
            count = value_legal(world, h, seat, net)
            action = net.legal[best_row(net.values, count)]
        step(world, h, action)


@njit(cache=True)
def search(
    root: Games, r: int, world: Games, seed: Any, candidates: int, worlds: int, depth: int,
    prior_weight: float, net: Net, out_value: Any,
) -> int:
    """The chef's move for the mover of row ``r`` of ``root``: the index of the chosen
    action among the legal actions in id order (the engine's legal order). ``world`` has
    two rows of room (a dealt world and the one being played). ``out_value[i]`` gets the
    search's value of legal action ``i`` (its mean over the worlds; NaN for an action not
    searched, the network's prior when only one action was looked at); see the module doc."""
    mover = root.state[r, TO_MOVE]
    s = splitmix(seed)
    # the prior is read from a dealt world: the card counter (one of the network's inputs)
    # counts the others' hidden cards from their draws, and a world has them in the right
    # numbers while the root row need not (it may hold only what the mover sees)
    if not deal_world(root, r, world, 0, mover, s, net):
        return 0
    count = value_legal(world, 0, mover, net)
    actions = np.zeros(count, np.int64)
    prior = np.zeros(count)
    prior_points = np.zeros(count)
    for i in range(count):
        actions[i] = net.legal[i]
        prior[i] = net.values[i, 0]
        prior_points[i] = net.values[i, 1]
        out_value[i] = np.nan
    if count == 1:
        out_value[0] = prior[0]
        return 0
    # the candidates: the best by the prior (master's order), at most ``candidates``
    order = np.arange(count)
    for j in range(1, count):
        cur = order[j]
        m = j - 1
        while m >= 0 and (
            prior[cur] > prior[order[m]]
            or (prior[cur] == prior[order[m]] and prior_points[cur] > prior_points[order[m]])
        ):
            order[m + 1] = order[m]
            m -= 1
        order[m + 1] = cur
    kept = min(candidates, count)
    if kept <= 1 or worlds <= 0:
        out_value[order[0]] = prior[order[0]]
        return int(order[0])
    sums = np.zeros(kept)
    if not play_candidates(root, r, world, s, actions, order, kept, worlds, depth, net, sums,
                           np.zeros(kept)):
        return int(order[0])
    best = 0
    best_score = -1e300
    for c in range(kept):
        out_value[order[c]] = sums[c] / worlds
        score_c = sums[c] / worlds + prior_weight * prior[order[c]]
        if score_c > best_score:
            best = c
            best_score = score_c
    return int(order[best])


@njit(cache=True)
def play_candidates(
    root: Games, r: int, world: Games, s: Any, actions: Any, order: Any, kept: int,
    worlds: int, depth: int, net: Net, sums: Any, point_sums: Any,
) -> bool:
    """The heart of the search: ``worlds`` worlds dealt from the stream after ``s``, and in
    each, every one of the first ``kept`` candidates (``actions[order[c]]``) played from the
    same world and valued by :func:`play_out`; the values add up in ``sums[c]``, the leaves'
    points in ``point_sums[c]``. False if a world cannot be dealt (a malformed row)."""
    mover = root.state[r, TO_MOVE]
    for _ in range(worlds):
        s = next_word(s)
        if not deal_world(root, r, world, 0, mover, s, net):
            return False
        for c in range(kept):
            copy_row(world, 0, world, 1)
            step(world, 1, actions[order[c]])
            sums[c] += play_out(world, 1, mover, depth, net)
            point_sums[c] += net.leaf[0]
    return True


@njit(cache=True)
def value_legal_master(games: Games, g: int, seat: int, net: Net, values: Any) -> int:
    """:func:`value_legal` with the master kernel's own arithmetic (for the master seats of
    an evaluation, which must play as the master bot does)."""
    count = legal_rows(games, g, seat, net)
    master_forward(net.rows, count, net.w1, net.b1, net.w2, net.b2, net.w3, net.b3,
                   net.hidden1, net.hidden2, values)
    return count


__all__ = [
    "SEAT_CHEF",
    "SEAT_COUNTER",
    "SEAT_MASTER",
    "STATE_COLUMNS",
    "Net",
    "deal_world",
    "new_net",
    "play_candidates",
    "search",
    "value_legal_master",
]
