"""Self-play for the master bot, compiled: whole games in which some seats play from the
network and the others are the card counter (the ``hard`` level), with every choice a
network seat made recorded for training.

A thin driver over the compiled rules (:mod:`.rules`) and the one game loop of
:mod:`.policies`: the card counter's seats move in that loop, which stops at every
network seat; this module only chooses the network's action and records its row, so it
adds no reading of R4-R12 and plays every variant the rules kernel plays.
``tests/sim/test_master_kernel_differential.py`` replays its games in the engine, action
for action, and checks the network seats chose what the bot would. The rows the network
reads are :func:`kingsbreakfast.compiled.features.encode`, compiled here from the very function
the bot runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kingsbreakfast.engine import DECK_SIZE

from . import features
from .card_counter import VALUES
from .games import (
    ACTIONS,
    PENDING,
    REMOVED_DRAGONS,
    TO_MOVE,
    TOP,
    TURNS_LEFT,
    Games,
    below,
    game_stream,
    next_word,
)
from .policies import CALLER, HEURISTIC, LEGAL_ROOM, card_counter_values, play
from .rules import deal, legal, list_legal, rank, score, step

NUM_FEATURES = features.NUM_FEATURES
SEAT_COUNTER = 0
"""A seat played by the card counter (``hard``), ties at random."""
SEAT_NET = 1
"""A seat played by the network: the best row by its win head, or with chance ``epsilon``
any legal action (exploration while training)."""
MAX_ROWS_PER_GAME = 64

_encode = njit(cache=True)(features.encode)
_FEED_A = features.FEED_A
_FEED_B = features.FEED_B


@njit(cache=True)
def forward(x: Any, count: int, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any,
             hidden1: Any, hidden2: Any, out: Any) -> None:
    """The network on ``count`` rows: two ReLU layers, then two outputs (win share, points).
    Written as loops: the matrices are small and numba's dot would need a BLAS."""
    n_in = w1.shape[0]
    h1 = w1.shape[1]
    h2 = w2.shape[1]
    for i in range(count):
        for j in range(h1):
            acc = b1[j]
            for k in range(n_in):
                acc += x[i, k] * w1[k, j]
            hidden1[j] = acc if acc > 0.0 else 0.0
        for j in range(h2):
            acc = b2[j]
            for k in range(h1):
                acc += hidden1[k] * w2[k, j]
            hidden2[j] = acc if acc > 0.0 else 0.0
        for o in range(2):
            acc = b3[o]
            for k in range(h2):
                acc += hidden2[k] * w3[k, o]
            out[i, o] = acc


@njit(cache=True)
def play_master_games(
    num_games: int,
    games: Games,
    seed: Any,
    seat_kind: Any,
    epsilon: float,
    first_cook_by_game: Any,
    w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any,
    out_rows: Any,
    out_row_game: Any,
    out_row_seat: Any,
    out_points: Any,
    out_share: Any,
    out_actions: Any,
    out_decks: Any,
    legal_room: Any,
    counter_room: Any,
) -> int:
    """Play ``num_games`` games in row 0 of ``games``; ``seat_kind[g, s]`` says who plays
    seat ``s`` of game ``g``.

    Every choice a network seat made among two or more actions writes its chosen row to
    ``out_rows`` (with its game and seat); returns how many rows were written. Final points
    and each seat's share of the win (R12: 1/k among k winners) go to ``out_points`` and
    ``out_share``; every action and the dealt deck to ``out_actions`` / ``out_decks`` (for
    the differential test; ``out_actions`` rows end with -1).
    """
    n = games.n
    state = games.state[0]
    seats = np.zeros(n, np.int64)
    rows = np.zeros((LEGAL_ROOM, NUM_FEATURES))
    block = np.zeros((features.NUM_DISHES, features.DISH_WIDTH))
    counter = np.zeros(LEGAL_ROOM)
    values = np.zeros((LEGAL_ROOM, 2))
    hidden1 = np.zeros(w1.shape[1])
    hidden2 = np.zeros(w2.shape[1])
    counts = np.zeros(out_actions.shape[1], np.int64)
    discarded = np.zeros(n, np.int64)
    written = 0
    for g in range(num_games):
        for s in range(n):
            seats[s] = HEURISTIC if seat_kind[g, s] == SEAT_COUNTER else CALLER
        games.rng[0] = game_stream(seed, g)
        deal(games, 0, 0, first_cook_by_game[g])
        while not play(games, 0, seats, legal_room, None, counter_room, True, out_actions[g],
                       counts):
            seat = state[TO_MOVE]
            count = list_legal(legal(games, 0), legal_room)
            if count == 1:
                action = legal_room[0]
            else:
                card_counter_values(games, 0, seat, legal_room, count, counter_room)
                for i in range(count):
                    counter[i] = counter_room[VALUES + i]
                _encode(
                    rows, block, legal_room, count, games.table[0], games.king[0],
                    games.takes[0], games.draws[0, seat], games.hidden[0], games.removed[0],
                    state[REMOVED_DRAGONS], state[PENDING] != 0, seat, n, state[TURNS_LEFT],
                    DECK_SIZE - state[TOP], counter, _FEED_A, _FEED_B,
                )
                s = next_word(games.rng[0])
                games.rng[0] = s
                if epsilon > 0.0 and below(s, 1 << 30) < epsilon * (1 << 30):
                    s = next_word(s)
                    games.rng[0] = s
                    pick = np.int64(below(s, count))
                else:
                    forward(rows, count, w1, b1, w2, b2, w3, b3, hidden1, hidden2, values)
                    pick = np.int64(best_row(values, count))
                action = legal_room[pick]
                if written < out_rows.shape[0]:
                    for k in range(NUM_FEATURES):
                        out_rows[written, k] = rows[pick, k]
                    out_row_game[written] = g
                    out_row_seat[written] = seat
                    written += 1
            out_actions[g, state[ACTIONS]] = action
            if step(games, 0, action):
                break
        for t in range(state[ACTIONS], out_actions.shape[1]):
            out_actions[g, t] = -1
        for c in range(DECK_SIZE):
            out_decks[g, c] = games.deck[0, c]
        # R11, and R12's winners: the seats of the highest rank
        score(games, 0, out_points[g], discarded)
        best = -2.0
        for seat in range(n):
            best = max(best, rank(out_points[g], discarded, n, seat))
        winners = 0
        for seat in range(n):
            if rank(out_points[g], discarded, n, seat) == best:
                winners += 1
        for seat in range(n):
            won = rank(out_points[g], discarded, n, seat) == best
            out_share[g, seat] = 1.0 / winners if won else 0.0
    return written


@njit(cache=True)
def best_row(values: Any, count: int) -> int:
    """The row with the highest win estimate; the points estimate breaks ties, then the
    lowest index (the bot does the same, so its choices are the kernel's)."""
    best = 0
    for i in range(1, count):
        if values[i, 0] > values[best, 0] or (
            values[i, 0] == values[best, 0] and values[i, 1] > values[best, 1]
        ):
            best = i
    return best
