"""The view tensor of one seat, written from the project's layout table field by field.

Each field of the layout (``kingsbreakfast.tensor.FIELDS``: name, size, scale) is filled with
the raw counts its meaning names, then looked up as ``count / scale`` in float32 (the
quotient in double precision, rounded once), so the tensor is bit for bit the one
``kingsbreakfast.tensor.encode`` gives for the same seat's view. Seats are counted from the
viewer and padded to five; what the viewer may not know (others' draws, the deck) appears
only as counts.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from kingsbreakfast.engine import DRAGON, MAX_PLAYERS, MIN_PLAYERS, NUM_DISHES

from ._layout import FIELDS, SIZE

Array = jax.Array

_LARGEST = 111
_SCALE_LIST = sorted({field.scale for field in FIELDS})
_QUOTIENTS = np.array(
    [np.float32(count / scale) for scale in _SCALE_LIST for count in range(_LARGEST)],
    np.float32,
)
"""float32(count / scale), scale by scale: the encoding's numbers (a double quotient rounded
once). They are looked up, not divided, because XLA turns a division by a constant into a
multiplication by its reciprocal, which is one unit in the last place off for some."""
_BASE = np.array(
    [_SCALE_LIST.index(field.scale) * _LARGEST for field in FIELDS for _ in range(field.size)],
    np.int32,
)
"""Each entry's row of ``_QUOTIENTS``."""


def observe_fields(
    fields: dict[str, Array], seat: Array, n: int, must_draw: bool, dragon_min: int
) -> Array:
    """The view tensor of ``seat`` (float32, the layout's length) from the game variables."""
    table = fields["table"]
    king = fields["king"]
    removed = fields["removed_dishes"]
    takes = fields["takes"]
    draws = fields["draws"]
    pending = fields["pending_dragon"].astype(jnp.int32)
    to_move = fields["current_player"]
    # slot k is the seat k places to my left (padded to five): a 0/1 matrix, multiplied in,
    # because XLA's CPU code runs gathers far slower than products
    slots = (seat + jnp.arange(MAX_PLAYERS)) % n
    present = jnp.arange(MAX_PLAYERS) < n
    rotate = ((slots[:, None] == jnp.arange(n)[None, :]) & present[:, None]).astype(jnp.int32)
    by_slot_takes = (rotate[:, :, None] * takes[None, :, :]).sum(axis=1)
    by_slot_hidden = (rotate * draws.sum(axis=1)[None, :]).sum(axis=1)
    mine = (rotate[0][:, None] * draws).sum(axis=0)
    # R11: once the game is over every hand is shown, so no drawn card is unseen any more
    known = jnp.where(to_move < 0, draws.sum(axis=0), mine)

    def flag(value: bool) -> Array:
        return jnp.asarray([int(value)], jnp.int32)

    def seat_hot(of: Array) -> Array:
        return jnp.where(
            of >= 0, (jnp.arange(MAX_PLAYERS) == (of - seat) % n).astype(jnp.int32), 0
        )

    raw: dict[str, Callable[[], Array]] = {
        "players": lambda: (jnp.arange(3) == n - MIN_PLAYERS).astype(jnp.int32),
        "variants": lambda: jnp.concatenate([flag(must_draw), flag(dragon_min == 2)]),
        "to_move": lambda: seat_hot(to_move),
        "cook": lambda: seat_hot(fields["cook"]),
        "pending_dragon": lambda: pending[None],
        "deck": lambda: fields["deck"].sum()[None],
        "round": lambda: fields["round"][None],
        "turns_left": lambda: fields["turns_left"][None],
        "table": lambda: table[:NUM_DISHES],
        "table_dragons": lambda: table[DRAGON][None],
        "king": lambda: king,
        "removed_dishes": lambda: removed,
        "removed_dragons": lambda: fields["removed_dragons"][None],
        "removed_unseen": lambda: fields["removed_unseen"][None],
        "my_draws": lambda: mine,
        "unseen": lambda: 15 - table[:NUM_DISHES] - king - removed - known - takes.sum(axis=0),
        "unseen_dragons": lambda: (
            5 - table[DRAGON] - fields["removed_dragons"] - pending
        )[None],
    }
    for slot in range(MAX_PLAYERS):
        raw[f"takes_{slot}"] = lambda slot=slot: by_slot_takes[slot]  # type: ignore[misc]
        raw[f"hidden_{slot}"] = lambda slot=slot: by_slot_hidden[slot][None]  # type: ignore[misc]
    parts = []
    for field in FIELDS:
        counts = raw[field.name]().astype(jnp.int32)
        assert counts.shape == (field.size,), field.name
        parts.append(counts)
    out = jnp.asarray(_QUOTIENTS)[jnp.asarray(_BASE) + jnp.concatenate(parts)]
    assert out.shape == (SIZE,)
    return out
