"""King's Breakfast through PettingZoo's parallel API (extra ``rl``).

    from kingsbreakfast.interop.pettingzoo import parallel_env
    game = parallel_env(players=4)
    observations, infos = game.reset(seed=1)
    while game.agents:
        actions = {agent: policy(observations[agent]) for agent in game.agents}
        observations, rewards, terminations, truncations, infos = game.step(actions)

The game is turn-based (R5): one player moves at a time, and a later player sees what the
earlier ones took. Collecting every player's action at once and playing them together would
change the game, so a parallel step plays only the action of the agent whose turn it is
(``infos[agent]["to_move"]`` is True for that agent, and only its ``action_mask`` has ones);
the other agents' actions are read for their presence and otherwise ignored. Each step is
one action of the game, so a drawn dragon (R7a) makes the same agent move in the next step
too. Libraries built on the parallel API (MAPPO-style trainers, SuperSuit vectorization)
can then use the game unchanged, while the AEC environment stays the natural interface.

Every rule, observation, reward and illegal-action setting is the AEC environment's
(:mod:`.pettingzoo`): this class drives one :class:`~.pettingzoo.raw_env`. The one
difference is ``max_cycles``: here a cycle is a parallel step (every live agent hands in one
action), so the game is truncated after that many steps, where the AEC environment counts
rounds.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped, unused-ignore]

from kingsbreakfast.engine import State

from .pettingzoo import NAME, Observation, raw_env


class TurnParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel face of the AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
    }

    def __init__(self, max_cycles: int | None = None, **kwargs: Any) -> None:
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be a positive number of steps, not {max_cycles!r}")
        self.aec = raw_env(**kwargs)
        self.max_cycles = max_cycles
        self.render_mode = self.aec.render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> State:
        """The engine state being played (for inspection; never hand it to a player)."""
        return self.aec.game

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise ValueError("the game is over: call reset() to play another")
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise ValueError(f"actions for agents not in the game: {', '.join(unknown)}")
        mover = self.aec.agent_selection
        if mover not in actions:
            raise ValueError(f"no action for {mover}, whose turn it is")
        self.aec.step(actions[mover])
        self.steps += 1
        rewards = {agent: float(self.aec.rewards.get(agent, 0.0)) for agent in self.agents}
        terminations = {agent: bool(self.aec.terminations[agent]) for agent in self.agents}
        truncations = {agent: bool(self.aec.truncations[agent]) for agent in self.agents}
        if self.max_cycles is not None and self.steps >= self.max_cycles:
            truncations = {agent: not terminations[agent] for agent in self.agents}
        observations = self._observations()
        infos = self._infos()
        if all(terminations[a] or truncations[a] for a in self.agents):
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state for centralised critics (``raw_env.state``): it shows every
        hidden card, so it is never an agent's own input."""
        return self.aec.state()

    def _observations(self) -> dict[str, Observation]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        mover = self.aec.agent_selection
        return {
            agent: {**self.aec.infos.get(agent, {}), "to_move": agent == mover}
            for agent in self.agents
        }
