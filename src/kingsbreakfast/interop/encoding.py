"""The view tensor of the OpenSpiel, PettingZoo and Gymnasium adapters.

It is :mod:`kingsbreakfast.tensor.observation` (the layout :data:`FIELDS`, its writer and
:func:`encode`), defined there once for the adapters and the compiled vector environment
alike; this module keeps the adapters' names (``SIZE`` is :data:`OBS_SIZE`).
"""

from __future__ import annotations

from kingsbreakfast.tensor.observation import (
    FIELDS,
    MAX_HIDDEN,
    MAX_ROUNDS,
    OBS_SIZE,
    STATE_FIELDS,
    STATE_SIZE,
    Field,
    encode,
    encode_state,
    offsets,
)

SIZE = OBS_SIZE
"""Length of the tensor (the same for every number of players)."""

__all__ = [
    "FIELDS",
    "MAX_HIDDEN",
    "MAX_ROUNDS",
    "OBS_SIZE",
    "SIZE",
    "STATE_FIELDS",
    "STATE_SIZE",
    "Field",
    "encode",
    "encode_state",
    "offsets",
]
