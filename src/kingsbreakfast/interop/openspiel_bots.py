"""OpenSpiel's Python bots on this game: in ``evaluate_bots``, and ISMCTS made reproducible.

OpenSpiel's ``evaluate_bots(state, bots, rng)`` starts by calling ``bot.restart_at(state)``
on every bot, and its Python ``ISMCTSBot`` does not implement it (``pyspiel.Bot``'s default
raises ``RestartAt(state) not implemented``). ISMCTS keeps nothing between moves that a
restart would have to rebuild, so :class:`Restartable` answers ``restart_at`` by clearing
the search tree and ignores ``inform_action``; :func:`restartable` wraps exactly the bots
that need it.

ISMCTS is random in three places: its own choices and the evaluator's rollouts (both from
the ``random_state`` given), and the worlds it deals for each search, which OpenSpiel draws
with a fresh ``UniformProbabilitySampler`` each time unless a resampler is set: so two runs
with the same ``random_state`` still differ. :func:`seeded_ismcts` sets one resampler that
draws from the same seeded generator, so one seed gives one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
    ismcts,
    mcts,
)


class Restartable(pyspiel.Bot):  # type: ignore[misc]
    """A Python bot with the ``restart_at`` and ``inform_action`` ``evaluate_bots`` calls."""

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        """A new game: forget the old search tree, if the bot keeps one."""
        reset = getattr(self.bot, "reset", None)
        if callable(reset):
            reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the bot reads the whole state at its next ``step``."""

    def provides_policy(self) -> bool:
        return False


def restartable(bots: Sequence[Any]) -> list[Any]:
    """``bots`` ready for ``evaluate_bots``: Python bots without their own ``restart_at``
    are wrapped in :class:`Restartable`; pyspiel's own bots are left as they are."""
    out = []
    for bot in bots:
        own = type(bot).__dict__.get("restart_at") if isinstance(bot, pyspiel.Bot) else None
        native = type(bot).__module__ == "pyspiel"
        out.append(bot if native or own is not None or isinstance(bot, Restartable)
                   else Restartable(bot))
    return out


def seeded_ismcts(
    game: Any,
    seed: int,
    max_simulations: int = 100,
    uct_c: float = 2.0,
    **options: Any,
) -> Any:
    """OpenSpiel's Python ``ISMCTSBot`` whose every random choice comes from ``seed``: its
    own, the rollouts' (``RandomRolloutEvaluator``, one rollout) and the worlds it deals
    (``resample_from_infostate`` fed by the same generator). Other ``ISMCTSBot`` options
    pass through."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c, max_simulations, random_state=random_state, **options
    )
    bot.set_resampler(
        lambda state, player: state.resample_from_infostate(player, random_state.uniform)
    )
    return bot
