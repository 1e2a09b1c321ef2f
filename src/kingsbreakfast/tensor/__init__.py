"""The numbers learning code reads: the observation tensor and the rank utility, once.

Every place that hands a game to learning code (the OpenSpiel, PettingZoo and Gymnasium
adapters, the compiled vector environment, and any other array back end) reads the layout
here and writes it with the one writer here, so a tensor means the same thing everywhere:

- :mod:`.observation`: :data:`FIELDS` (the layout, in order), :data:`OBS_SIZE` (its length),
  :func:`write_observation` (the one writer, plain indexing only, so numba compiles the very
  function that Python runs), :func:`encode` (a view's tensor) and the global state tensor.
- :mod:`.utility`: what a finished game is worth to each seat, the R12 ``rank`` utility
  (:func:`rank`, compiled by the kernel from the same function) and the R11 ``score``.
- :mod:`.illegal`: what an environment does with an action that is not legal, one rule per
  environment id, read by the Gymnasium game, its vector form and the JAX environment.

Standard library and the engine only: any layer above the engine may import it.
"""

from .observation import (
    FIELDS,
    MAX_HIDDEN,
    MAX_ROUNDS,
    OBS_SIZE,
    SCALED,
    STATE_FIELDS,
    STATE_SIZE,
    Field,
    encode,
    encode_state,
    offsets,
    write_observation,
)
from .utility import MAX_POINTS, UTILITIES, bounds, check_utility, rank, utilities

__all__ = [
    "FIELDS",
    "MAX_HIDDEN",
    "MAX_POINTS",
    "MAX_ROUNDS",
    "OBS_SIZE",
    "SCALED",
    "STATE_FIELDS",
    "STATE_SIZE",
    "UTILITIES",
    "Field",
    "bounds",
    "check_utility",
    "encode",
    "encode_state",
    "offsets",
    "rank",
    "utilities",
    "write_observation",
]
