"""The game as a pure JAX environment with pgx's interface (``pip install kingsbreakfast[jax]``).

Everything here is a function of arrays, so a whole batch of games steps under ``jax.jit``
and ``jax.vmap`` on whatever device JAX finds::

    env = Env(num_players=4)
    state = jax.jit(env.init)(key)
    state = jax.jit(env.step)(state, action, key)

Chance is explicit: the state holds how many cards of each kind are still in the deck but
never their order, and each step turns up its cards (a draw, R7; the next table, R4) from
the key it is given. ``Env.step_with`` takes those cards instead, which is how a game of the
engine is replayed here (tests/jax_env holds the two equal, both ways).

The state has pgx's public fields only; the game's arrays are ``state._game`` (a
:class:`Game`). An action that is not legal follows the rule ``kingsbreakfast.tensor.illegal``
gives this id (``Env(illegal_action=...)`` for another). pgx itself is optional: with pgx
installed, ``Env`` and ``State`` count as pgx's (``isinstance``) and pgx's ``api_test``
passes (tests/jax_env/test_pgx_api.py). :func:`sample_world` deals a world one seat cannot
tell from the state (determinization, as the engine's ``WorldSampler``).
"""

from __future__ import annotations

from .env import Env
from .state import Game, State
from .worlds import sample_world

__all__ = ["Env", "Game", "State", "sample_world"]
