"""The rules of one game as array functions: the legal set (R5–R8), a turn and the round's
end (R3–R10), the score (R11) and the rank utility (R12).

This is a copy of the engine's rules written for XLA: no Python branch depends on a game's
values, so every function runs unchanged under ``jit`` and ``vmap``, and each step does the
same work whatever the action (a branch not taken is computed and then not selected).
``tests/jax_env`` replays engine games through it and JAX games through the engine.

A game's cards are counts: ``deck`` holds how many of each kind (7 dishes, then the dragon)
are still in the deck, not in which order, so no state can be searched or copied into
knowing a future card. The cards a step turns up come from outside, as an array ``cards`` of
:func:`chance_size` card numbers, drawn from the deck without replacement in order
(:func:`draw_cards` makes one from a key). A draw takes the first (R7); the next table, when
the round ends, takes the 2 × players that follow (R4).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from kingsbreakfast.engine import (
    DRAGON,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    NUM_DISHES,
    PASS_ID,
    PLACE_DRAGON_ID,
)

Array = jax.Array

CARD_KINDS = NUM_DISHES + 1
"""A card is a dish number (0–6) or the dragon (7), as in the engine."""
FULL_DECK = np.array([15] * NUM_DISHES + [5], np.int32)
"""R1: 15 of each dish and 5 dragons."""
_FED = np.array([[(a == d) + (b == d) for d in range(NUM_DISHES)] for a, b in FEED_PAIRS], np.int32)
"""One row per feed pair (R8): how many of each dish it takes from the king. A feed is
applied as a product with a one-hot row rather than a gather, which XLA's CPU code runs far
slower."""
_KIND = np.arange(CARD_KINDS, dtype=np.int32)


def chance_size(num_players: int) -> int:
    """Cards one step may turn up: a draw, then a whole table when the draw ends the round."""
    return 1 + 2 * num_players


def draw_cards(deck: Array, key: Array, count: int) -> Array:
    """``count`` cards drawn from ``deck`` (counts by kind) without replacement, in order: the
    top cards of a uniformly shuffled deck. Past the deck's last card the value is
    ``CARD_KINDS`` (no card)."""
    return cards_from(deck, jax.random.uniform(key, (count,)))


def cards_from(deck: Array, uniform: Array) -> Array:
    """:func:`draw_cards` with its random numbers given: one uniform in [0, 1) per card.

    The cards are drawn one after another inside a ``lax.scan``, so each is computed once and
    stored: written as one expression, XLA's CPU fusion copies the whole chain of earlier
    draws into every use of a later card (a table's one-hot count evaluated it 64 times)."""

    def one_card(counts: Array, u: Array) -> tuple[Array, Array]:
        left = counts.sum()
        pick = jnp.minimum(jnp.floor(u * left).astype(jnp.int32), left - 1)
        running = counts[0]  # the kinds whose running count is at most pick lie before it
        card = (running <= pick).astype(jnp.int32)
        for kind in range(1, CARD_KINDS):
            running = running + counts[kind]
            card = card + (running <= pick).astype(jnp.int32)
        card = jnp.where(left > 0, card, CARD_KINDS)
        return counts - (card == _KIND), card

    _, cards = jax.lax.scan(one_card, jnp.asarray(deck, jnp.int32), uniform)
    return cards


def one_hot(index: Array, size: int) -> Array:
    """int32 one-hot of ``index`` (all zeros when it is outside 0..size-1)."""
    return (jnp.arange(size, dtype=jnp.int32) == index).astype(jnp.int32)


def legal_mask(
    table: Array, king: Array, deck: Array, pending: Array, must_draw: bool, dragon_min: int
) -> Array:
    """The 38 legal actions of the player to move (R5–R8, R5a, R5b, R7a), by action id."""
    on_table = table[:NUM_DISHES] > 0
    can_draw = ~pending & (deck.sum() > 0)
    pair_ok = (king[None, :] >= _FED).all(axis=1)  # the king has the dishes a feed takes
    feeds_allowed = (table[DRAGON] >= dragon_min) & ~(
        must_draw & can_draw & ~on_table.any()
    )  # R5a's must_draw variant: an empty table with cards in the deck means drawing
    feeds = pair_ok & (pending | feeds_allowed)
    mask = jnp.concatenate(
        [
            on_table & ~pending,  # R6
            can_draw[None],  # R7
            pending[None],  # R7a: place the drawn dragon
            feeds,  # R7a, R8
            jnp.zeros(1, bool),
        ]
    )
    return mask.at[PASS_ID].set(~mask.any())  # R5b: pass only when nothing else is legal


def score(king: Array, takes: Array, draws: Array) -> tuple[Array, Array]:
    """R11: every seat's points and discarded cards."""
    held = takes + draws
    over = held > king[None, :]
    points = jnp.where(over, 0, held * king[None, :]).sum(axis=1)
    discarded = jnp.where(over, held, 0).sum(axis=1)
    return points, discarded


def rank_utility(points: Array, discarded: Array) -> Array:
    """R12 as the ``rank`` utility: (seats ranked below − seats ranked above) / (players − 1),
    a seat ranking above another on more points, or equal points and fewer discards."""
    n = points.shape[0]
    p_other, p_me = points[None, :], points[:, None]
    x_other, x_me = discarded[None, :], discarded[:, None]
    above = (p_other > p_me) | ((p_other == p_me) & (x_other < x_me))
    below = (p_other < p_me) | ((p_other == p_me) & (x_other > x_me))
    return ((below.sum(axis=1) - above.sum(axis=1)) / (n - 1)).astype(jnp.float32)


def turn(fields: dict[str, Array], action: Array, cards: Array, n: int) -> dict[str, Any]:
    """One legal ``action`` of the player to move, then the next seat or the round's end:
    R9 (serve the king), R3 (the next cook), R4 (the next table) or R10 (the end).

    ``fields`` and the result are the game variables of :class:`~.env.State` by name;
    ``done`` in the result is True when the game ended with this action.
    """
    table = fields["table"]
    king = fields["king"]
    takes = fields["takes"]
    draws = fields["draws"]
    deck = fields["deck"]
    removed = fields["removed_dishes"]
    pending = fields["pending_dragon"]
    seat = fields["current_player"]
    cook = fields["cook"]

    is_take = action < NUM_DISHES
    is_draw = action == DRAW_ID
    is_place = action == PLACE_DRAGON_ID
    is_feed = (action >= FIRST_FEED_ID) & (action < PASS_ID)
    seat_row = one_hot(seat, n)[:, None]

    # R6: all the cards of one dish
    taken = jnp.where(is_take & (jnp.arange(NUM_DISHES) == action), table[:NUM_DISHES], 0)
    takes = takes + seat_row * taken[None, :]
    table = table.at[:NUM_DISHES].add(-taken)

    # R7: the top card; a dragon is shown and waits to be used or placed (R7a)
    drawn = jnp.where(is_draw, cards[0], CARD_KINDS)
    drew_dragon = drawn == DRAGON
    deck = deck - one_hot(drawn, CARD_KINDS)
    draws = draws + seat_row * one_hot(drawn, NUM_DISHES)[None, :]

    # R7a: place it; R7a/R8: a dragon and two of the king's dishes leave the game
    pair = one_hot(action - FIRST_FEED_ID, len(FEED_PAIRS))[:, None]  # zeros unless a feed
    fed = (pair * _FED).sum(axis=0)
    king = king - fed
    removed = removed + fed
    table = table.at[DRAGON].add(
        is_place.astype(jnp.int32) - (is_feed & ~pending).astype(jnp.int32)
    )
    removed_dragons = fields["removed_dragons"] + is_feed.astype(jnp.int32)

    # R5: one turn each from the cook; the drawer of a dragon keeps the turn (R7a)
    turn_over = ~drew_dragon
    turns_left = fields["turns_left"] - turn_over.astype(jnp.int32)
    round_over = turn_over & (turns_left == 0)
    # R9: what is left of the dishes goes to the king; dragons stay
    served = jnp.where(round_over, table[:NUM_DISHES], 0)
    king = king + served
    table = table.at[:NUM_DISHES].add(-served)
    cook = jnp.where(round_over, (cook + 1) % n, cook)  # R3
    left = deck.sum()
    done = round_over & (left < 2 * n)  # R10
    deal = round_over & ~done
    # R4: the next 2 × players cards, after the one drawn
    start = is_draw.astype(jnp.int32)
    position = jnp.arange(cards.shape[0])
    turned = (deal & (position >= start) & (position < start + 2 * n)).astype(jnp.int32)
    table_up = (turned[:, None] * (cards[:, None] == _KIND[None, :])).sum(axis=0)
    table = table + table_up
    deck = deck - table_up
    removed_unseen = jnp.where(done, left, fields["removed_unseen"])
    deck = jnp.where(done, 0, deck)  # R10: the rest of the deck leaves the game unseen

    to_move = jnp.where(turn_over, (seat + 1) % n, seat)
    to_move = jnp.where(round_over, cook, to_move)
    return {
        "current_player": jnp.where(done, -1, to_move).astype(jnp.int32),
        "table": table,
        "king": king,
        "takes": takes,
        "draws": draws,
        "deck": deck,
        "removed_dishes": removed,
        "removed_dragons": removed_dragons,
        "removed_unseen": removed_unseen,
        "pending_dragon": drew_dragon,
        "cook": cook,
        "round": fields["round"] + deal.astype(jnp.int32),
        "turns_left": jnp.where(deal, n, jnp.where(done, 0, turns_left)).astype(jnp.int32),
        "done": done,
    }
