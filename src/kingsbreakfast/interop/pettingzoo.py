"""King's Breakfast as a PettingZoo AEC environment, ``kings_breakfast_v0`` (extra ``rl``).

    from kingsbreakfast.interop.pettingzoo import env
    game = env(players=4)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else policy(observation["observation"], mask)
        game.step(action)

A native AEC environment: turns follow the game (R5: the cook first, then clockwise; a
player who drew a dragon moves again at once to use or place it, R7a), and the rules engine
plays every action. Agents are ``player_0`` … ``player_{n-1}`` (seat numbers).

- Observation: ``{"observation": the shared view tensor (kingsbreakfast.interop.encoding,
  floats in [0, 1]), "action_mask": 38 int8, 1 for each legal action}``; only the agent to
  move has a non-zero mask.
- Action: ``Discrete(38)``, the engine's action ids; the mask says which are legal. An
  illegal action (``illegal_action``): ``lose`` (default, PettingZoo's classic convention)
  ends the game at once, the offender getting the lowest utility (rank: -1 and the others
  1/(n-1) each; score: 0 for everyone) and ``info["illegal_action"]`` naming the rule it
  broke; ``raise`` raises ``ValueError`` with that reason instead; ``substitute`` plays the
  legal action with the lowest id in its place (the game goes on; ``info["illegal_action"]``
  says what was refused and what was played), for learners that ignore the mask.
- Rewards: at the end only, the ``utility`` (``rank``, zero-sum, or ``score``; see
  :mod:`.utility`).
- ``max_cycles``: the game is truncated (no reward) once that many rounds have been
  played (a cycle is a round: every agent has had one turn, R5); a whole game has at most
  18 rounds.
- ``state()`` and ``state_space``: the global state for centralised critics
  (``encoding.encode_state``: everything but the deck's order, hidden draws included;
  ``Box(0, 1, (STATE_SIZE,), float32)``). It shows every hidden card, so it is for critics
  trained beside the players, never for an agent's own input.
- :func:`parallel_env` offers the same game through PettingZoo's parallel API (see
  :mod:`.parallel`).
- ``render()``: the table as text (``ansi`` returns it, ``human`` prints it), as a
  spectator sees it.
"""

from __future__ import annotations

from .extra import require_extra

require_extra(__name__, "rl", "numpy", "gymnasium", "pettingzoo")

import random
from typing import Any, ClassVar, TypedDict

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

from kingsbreakfast.engine import NUM_ACTIONS, Action, IllegalActionError, Rules, State

from . import encoding
from .text import describe
from .utility import check_utility, utilities

NAME = "kings_breakfast_v0"


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def action_mask(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """1 for each legal action of ``seat`` (all 0 when it is not that seat's turn)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if state.to_move == seat:
        mask[list(state.legal_actions())] = 1
    return mask


class Observation(TypedDict):
    """What an agent is shown: its view's tensor and which actions it may take now."""

    observation: np.ndarray[Any, np.dtype[np.float32]]
    action_mask: np.ndarray[Any, np.dtype[np.int8]]


ILLEGAL_ACTION_CHOICES = ("lose", "raise", "substitute")


def check_action(state: State, action: object) -> Action:
    """The action as an engine Action; the engine's :class:`IllegalActionError` says why it
    cannot be played, a plain ValueError that it is not an action id at all."""
    if isinstance(action, np.integer | np.ndarray) and np.ndim(action) == 0:
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"an action is an integer from 0 to {NUM_ACTIONS - 1}, not {action!r}")
    chosen = Action(action)
    seat = state.to_move
    assert seat is not None
    why = state.view(seat).why_illegal(chosen)
    if why is not None:
        raise IllegalActionError(
            f"{chosen} (action {action}) is not legal now: {why}",
            action=str(chosen), action_id=action, reason=why,
        )
    return chosen


def substitute(state: State, error: IllegalActionError) -> tuple[Action, str]:
    """``illegal_action="substitute"``: the legal action played instead of a refused one,
    and the note that says so."""
    chosen = state.legal_actions()[0]
    return chosen, f"{error}; played {chosen} instead"


def check_illegal_choice(value: object) -> str:
    if value not in ILLEGAL_ACTION_CHOICES:
        raise ValueError(
            f"illegal_action must be 'lose', 'raise' or 'substitute', not {value!r}"
        )
    assert isinstance(value, str)
    return value


def forfeit_utilities(players: int, offender: int, utility: str) -> list[float]:
    """The values when ``offender`` ends the game by an illegal action (see module doc)."""
    if utility == "score":
        return [0.0] * players
    return [-1.0 if seat == offender else 1.0 / (players - 1) for seat in range(players)]


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment without PettingZoo's order-enforcing wrapper (see :func:`env`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        empty_table: str = "draw_or_feed",
        dragon_min_on_table: int = 1,
        utility: str = "rank",
        first_cook: int = 0,
        max_cycles: int | None = None,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.illegal_action = check_illegal_choice(illegal_action)
        if isinstance(players, bool) or players not in (3, 4, 5):
            raise ValueError(f"King's Breakfast is played by 3 to 5 players, not {players!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (ansi or human)")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive number of rounds, not {max_cycles!r}")
        if not isinstance(first_cook, int) or not 0 <= first_cook < players:
            raise ValueError(f"first_cook must be a seat from 0 to {players - 1}")
        self.rules = Rules(empty_table, dragon_min_on_table)
        self.utility = check_utility(utility)
        self.num_players = players
        self.first_cook = first_cook
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (encoding.SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self.state_space = spaces.Box(0.0, 1.0, (encoding.STATE_SIZE,), np.float32)
        self._rng = random.Random()
        self.game: State = State.new(players, self._rng, first_cook, self.rules)

    # -- PettingZoo's interface -----------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes the deck (and nothing else is random)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = State.new(self.num_players, self._rng, self.first_cook, self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._mover()

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        return {
            "observation": np.asarray(encoding.encode(self.game.view(seat)), np.float32),
            "action_mask": action_mask(self.game, seat),
        }

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state (see the module doc): for centralised critics only."""
        return np.asarray(encoding.encode_state(self.game), np.float32)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            chosen = check_action(self.game, action)
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "substitute":
                chosen, note = substitute(self.game, error)
                self.infos[agent] = {"illegal_action": note}
                self._play(agent, chosen)
                return
            values = forfeit_utilities(self.num_players, self._seat[agent], self.utility)
            self.rewards = {name: values[self._seat[name]] for name in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": str(error)}
            self._accumulate_rewards()
            return
        self.infos[agent] = {}
        self._play(agent, chosen)

    def _play(self, agent: str, chosen: Action) -> None:
        self.game.apply(chosen)
        if self.game.is_over:  # R10-R12: score and rank
            values = utilities(self.game.score(), self.utility)
            self.rewards = {name: values[self._seat[name]] for name in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {
                name: {"points": self.game.score().points[self._seat[name]]}
                for name in self.agents
            }
        elif self.max_cycles is not None and self.game.round > self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._mover() if not self.game.is_over else agent
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = describe(self.game.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    def _mover(self) -> str:
        seat = self.game.to_move
        return agent_name(seat if seat is not None else 0)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The game through PettingZoo's parallel API (:class:`.parallel.TurnParallelEnv`)."""
    from .parallel import TurnParallelEnv

    return TurnParallelEnv(**kwargs)


__all__ = ["NAME", "env", "parallel_env", "raw_env"]
