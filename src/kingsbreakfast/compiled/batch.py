"""The batch simulator's driver: whole games, one after another, in one row of the rules.

Each game is dealt into the one row of a :class:`~.games.Games` record from its own
random stream, played to its end by the game loop of :mod:`.policies` (and, for
scripted games, the given actions, each checked against the legal actions first), scored
(R11) and its winners found (R12); its final state is then copied out. The rules are
:mod:`.rules`'s, held equal to the engine by ``tests/sim/test_batch_differential.py``.
"""

from __future__ import annotations

from typing import Any

from kingsbreakfast.engine import DECK_SIZE, DRAGON, NUM_ACTIONS, NUM_DISHES

from .games import (
    ACTIONS,
    MAX_ACTIONS,
    REMOVED_DRAGONS,
    REMOVED_UNSEEN,
    ROUND,
    Games,
    game_stream,
    uncounted,
)
from .policies import play
from .rules import count_legal, deal, legal, rank, score, step

__all__ = ["MAX_ACTIONS", "play_games"]


@uncounted
def play_games(
    num_games: int,
    games: Games,
    first_cook: int,
    seats: Any,
    seed: Any,
    script: Any,
    record: bool,
    legal_room: Any,
    greedy_room: Any,
    counter_room: Any,
    out_king: Any,
    out_table: Any,
    out_takes: Any,
    out_draws: Any,
    out_removed: Any,
    out_extra: Any,
    out_points: Any,
    out_discarded: Any,
    out_winners: Any,
    out_actions: Any,
    out_legal_count: Any,
    out_decks: Any,
) -> None:
    """Play ``num_games`` games in row 0 of ``games`` and write their final states into the
    ``out_*`` arrays.

    ``seats[s]`` is seat ``s``'s policy code; a CALLER seat plays ``script[g]`` (the first
    action that is not legal stops the game, its index in ``out_extra[g, 5]``).
    ``out_extra[g]`` = (table dragons, removed dragons, removed unseen, rounds, actions,
    illegal-at or -1). With ``record`` every action and the size of the legal set it was
    chosen from go to ``out_actions`` / ``out_legal_count``, and the deck as it was dealt to
    ``out_decks`` (for the differential tests).
    """
    n = games.n
    state = games.state[0]
    for g in range(num_games):
        row = g if record else 0
        games.rng[0] = game_stream(seed, g)
        deal(games, 0, g, first_cook)
        illegal_at = -1
        while not play(
            games, 0, seats, legal_room, greedy_room, counter_room, record,
            out_actions[row], out_legal_count[row],
        ):  # a scripted seat is to move: its given action, if legal
            t = state[ACTIONS]
            action = script[g, t]
            bits = legal(games, 0)
            if action < 0 or action >= NUM_ACTIONS or not (bits >> action) & 1:
                illegal_at = t
                break
            if record:
                out_actions[g, t] = action
                out_legal_count[g, t] = count_legal(bits)
            if step(games, 0, action):
                break
        # R11 scoring and R12 winners: the seats of the highest rank
        score(games, 0, out_points[g], out_discarded[g])
        best = -2.0
        winners = 0  # bit s: seat s has the highest rank so far
        for seat in range(n):
            mine = rank(out_points[g], out_discarded[g], n, seat)
            if mine > best:
                best = mine
                winners = 1 << seat
            elif mine == best:
                winners |= 1 << seat
        for seat in range(n):
            out_winners[g, seat] = (winners >> seat) & 1
            for d in range(NUM_DISHES):
                out_takes[g, seat, d] = games.takes[0, seat, d]
                out_draws[g, seat, d] = games.draws[0, seat, d]
        for d in range(NUM_DISHES):
            out_king[g, d] = games.king[0, d]
            out_table[g, d] = games.table[0, d]
            out_removed[g, d] = games.removed[0, d]
        out_extra[g, 0] = games.table[0, DRAGON]
        out_extra[g, 1] = state[REMOVED_DRAGONS]
        out_extra[g, 2] = state[REMOVED_UNSEEN]
        out_extra[g, 3] = state[ROUND]
        out_extra[g, 4] = state[ACTIONS]
        out_extra[g, 5] = illegal_at
        if record:
            for c in range(DECK_SIZE):
                out_decks[g, c] = games.deck[0, c]
