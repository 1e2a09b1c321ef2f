"""King's Breakfast for single-agent reinforcement learning: ``KingsBreakfast-v0`` (extra ``rl``).

    from kingsbreakfast.interop.gymnasium import KingsBreakfastEnv
    env = KingsBreakfastEnv(players=4, opponents="random")
    observation, info = env.reset(seed=0)
    action = policy(observation, info["action_mask"])

The learner plays one seat (``seat``); the other seats are bots of
:mod:`kingsbreakfast.bots` (``opponents``: one name or Bot for every other seat, or one per
seat; names go through ``make_bot``: random, greedy, heuristic, ismcts, easy … expert). The
bots receive only their own views, like every bot of the project. The rules engine plays
every action.

- Observation: the shared view tensor of :mod:`.encoding` (``Box(0, 1, (SIZE,), float32)``).
- Action: ``Discrete(38)``, the engine's action ids; ``info["action_mask"]`` and
  :meth:`KingsBreakfastEnv.action_masks` (for sb3-contrib's MaskablePPO) say which are legal.
  An illegal action (``illegal_action``) follows the one rule of ``KingsBreakfast-v0``
  (``kingsbreakfast.tensor.illegal``, shared with the vector form and the JAX environment):
  ``substitute`` (default) plays the legal action with the lowest id instead and says so in
  ``info["illegal_action"]``; ``lose`` ends the episode with the lowest reward (rank -1,
  score 0) and ``info["illegal_action"]`` naming the broken rule; ``raise`` raises
  ``ValueError`` with that reason.
- Reward: 0 until the game ends, then the learner's ``utility`` (``rank`` in [-1, 1] or
  ``score``, the R11 points); ``info["points"]`` always gives the points at the end.
"""

from __future__ import annotations

from .extra import require_extra

require_extra(__name__, "rl", "numpy", "gymnasium", "pettingzoo")

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from kingsbreakfast.bots import Bot, make_bot
from kingsbreakfast.engine import NUM_ACTIONS, IllegalActionError, Rules, State
from kingsbreakfast.tensor.illegal import (
    GYMNASIUM_ENV_ID,
    LOSE,
    RAISE,
    RULE_BY_ENV_ID,
    SUBSTITUTE,
    check_rule,
    forfeit_rewards,
)

from . import encoding
from .pettingzoo import action_mask, check_action, substitute
from .text import describe
from .utility import bounds, check_utility, utilities

ENV_ID = GYMNASIUM_ENV_ID

Obs = np.ndarray[Any, np.dtype[np.float32]]


class KingsBreakfastEnv(gymnasium.Env[Obs, np.int64]):
    """One learner against bots; an episode is one game."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        empty_table: str = "draw_or_feed",
        dragon_min_on_table: int = 1,
        utility: str = "rank",
        first_cook: int | None = None,
        illegal_action: str = RULE_BY_ENV_ID[GYMNASIUM_ENV_ID],
        render_mode: str | None = None,
    ) -> None:
        self.illegal_action = check_rule(illegal_action, "gymnasium")
        self._forfeited: str | None = None
        if isinstance(players, bool) or players not in (3, 4, 5):
            raise ValueError(f"King's Breakfast is played by 3 to 5 players, not {players!r}")
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if first_cook is not None and not 0 <= first_cook < players:
            raise ValueError(f"first_cook must be a seat from 0 to {players - 1} or None")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (ansi or human)")
        self.players = players
        self.seat = seat
        self.rules = Rules(empty_table, dragon_min_on_table)
        self.utility = check_utility(utility)
        self.first_cook = first_cook
        """None: a random first cook each game, so the learner meets every seat order."""
        self.render_mode = render_mode
        self.opponents = _opponents(opponents, players, seat)
        self.observation_space = spaces.Box(0.0, 1.0, (encoding.SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.reward_range = bounds(self.utility)
        self._rng = random.Random()
        self.game = State.new(players, self._rng, 0, self.rules)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new game; ``seed`` fixes the deck, the first cook and the bots' choices."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        cook = self._rng.randrange(self.players) if self.first_cook is None else self.first_cook
        self.game = State.new(self.players, self._rng, cook, self.rules)
        self._forfeited = None
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self.game.is_over or self._forfeited is not None:
            raise RuntimeError("the game is over: call reset() to start another")
        refused = None
        try:
            chosen = check_action(self.game, action)
        except IllegalActionError as error:
            if self.illegal_action == RAISE:
                raise
            if self.illegal_action == SUBSTITUTE:
                chosen, refused = substitute(self.game, error)
            else:
                return self._forfeit(error)
        self.game.apply(chosen)
        self._let_bots_play()
        reward = 0.0
        if self.game.is_over:
            reward = utilities(self.game.score(), self.utility)[self.seat]
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if refused is not None:
            info["illegal_action"] = refused
        return self._observation(), reward, self.game.is_over, False, info

    def _forfeit(self, error: IllegalActionError) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """End the episode on an illegal action (``illegal_action="lose"``)."""
        self._forfeited = str(error)
        # the score utility gives every seat 0 for a forfeited game, the rank utility the
        # forfeit's numbers
        reward = 0.0
        if self.utility != "score":
            reward = forfeit_rewards(self.players, self.seat, LOSE)[self.seat]
        info = self._info()
        info["illegal_action"] = self._forfeited
        return self._observation(), reward, True, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Legal actions as booleans (the method MaskablePPO looks for)."""
        return action_mask(self.game, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = describe(self.game.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _let_bots_play(self) -> None:
        game = self.game
        while not game.is_over and game.to_move != self.seat:
            mover = game.to_move
            assert mover is not None
            bot = self.opponents[mover]
            assert bot is not None
            game.play(bot.act(game.view(mover), self._rng))

    def _observation(self) -> Obs:
        return np.asarray(encoding.encode(self.game.view(self.seat)), np.float32)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": action_mask(self.game, self.seat)}
        if self.game.is_over:
            scoring = self.game.score()
            info["points"] = scoring.points[self.seat]
            info["winners"] = scoring.winners
        return info


def _opponents(
    given: str | Bot | Sequence[str | Bot], players: int, seat: int
) -> list[Bot | None]:
    """One bot per other seat (None at the learner's seat)."""
    if isinstance(given, str) or not isinstance(given, Sequence):
        others: list[str | Bot] = [given] * (players - 1)
    else:
        others = list(given)
        if len(others) == players:
            others = [b for s, b in enumerate(others) if s != seat]
        if len(others) != players - 1:
            raise ValueError(
                f"opponents: give one bot for every other seat ({players - 1}), or one for all"
            )
    bots = [make_bot(b) if isinstance(b, str) else b for b in others]
    for bot in bots:
        if not isinstance(bot, Bot):
            raise ValueError(f"{bot!r} is not a bot (it needs a name and act(view, rng))")
    out: list[Bot | None] = list(bots)
    out.insert(seat, None)
    return out


if ENV_ID not in gymnasium.registry:
    # one id for both forms: gymnasium.make gives this single game against bots, and
    # gymnasium.make_vec(..., vectorization_mode="vector_entry_point") the compiled vector
    # environment (named, not imported: sim and interop are independent layers)
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:KingsBreakfastEnv",
        vector_entry_point="kingsbreakfast.sim.vector:KingsBreakfastVectorEnv",
    )

__all__ = ["ENV_ID", "KingsBreakfastEnv"]
