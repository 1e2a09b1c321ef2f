"""What a learning environment does with an action that is not legal, written once.

A learner that ignores the legal-action mask sends actions the rules refuse (R5–R8). The
environments that share an id must answer such an action the same way, or a policy trained
on one form would meet another game on the other: ``KingsBreakfast-v0`` is the Gymnasium
environment (``gymnasium.make``) and its compiled vector form (``gymnasium.make_vec``), and
``kingsbreakfast`` is the JAX environment (pgx's interface). Each reads its default from
:data:`RULE_BY_ENV_ID` and its rewards for a lost game from :func:`forfeit_rewards`.

The rules:

``substitute`` (the default of both ids)
    the legal action with the lowest id is played in its place, the game goes on, and the
    environment says so (``info["illegal_action"]``, ``info["illegal"]``). Every form can do
    it, the compiled vector form included, and a learner that ignores the mask still plays
    whole games.
``lose``
    the game ends at once: −1 to the seat that sent the action, +1/(n − 1) to each other
    seat under the ``rank`` utility (zero-sum like R12's utility; 0 for every seat under the
    ``score`` utility). The Gymnasium environment and the JAX environment offer it.
``pgx``
    ``lose`` with pgx's own numbers (``pgx.core.Env._step_with_illegal_action``): −1 to the
    offender, +(n − 1) to each other seat, so [2, −1, 2] at three players; not zero-sum.
    The JAX environment offers it for code that expects pgx's exact rewards.
``raise``
    an error naming the rule the action breaks (the Gymnasium environment, for debugging).

Standard library only, so every layer that builds an environment may read it.
"""

from __future__ import annotations

SUBSTITUTE = "substitute"
LOSE = "lose"
PGX = "pgx"
RAISE = "raise"

GYMNASIUM_ENV_ID = "KingsBreakfast-v0"
"""The Gymnasium id: the single game (``gymnasium.make``) and the vector form
(``gymnasium.make_vec``)."""
JAX_ENV_ID = "kingsbreakfast"
"""The JAX environment's ``Env.id`` (``State.env_id``)."""

RULE_BY_ENV_ID = {GYMNASIUM_ENV_ID: SUBSTITUTE, JAX_ENV_ID: SUBSTITUTE}
"""The one rule each id follows unless it is given another."""

RULES_BY_FORM = {
    "gymnasium": (SUBSTITUTE, LOSE, RAISE),
    "vector": (SUBSTITUTE,),
    "jax": (SUBSTITUTE, LOSE, PGX),
}
"""The rules each form can follow. The compiled vector form plays inside its kernel, which
replaces a refused action by the lowest legal id; it has no second rule."""


def check_rule(value: object, form: str) -> str:
    """``value`` if ``form`` can follow that rule; a ValueError naming the choices if not."""
    choices = RULES_BY_FORM[form]
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(repr(rule) for rule in choices)
        raise ValueError(f"illegal_action must be one of {listed} here, not {value!r}")
    return value


def forfeit_rewards(players: int, offender: int, rule: str = LOSE) -> list[float]:
    """Every seat's reward when ``offender`` ends the game by an illegal action (``lose``
    or ``pgx``, see the module doc), under the ``rank`` utility."""
    if rule not in (LOSE, PGX):
        raise ValueError(f"only 'lose' and 'pgx' end a game, not {rule!r}")
    others = 1.0 / (players - 1) if rule == LOSE else float(players - 1)
    return [-1.0 if seat == offender else others for seat in range(players)]
