"""A vectorized environment: B games stepped together in compiled code, a learner choosing.

``simulate`` (:mod:`.batch`) plays whole games with built-in policies only. Here the caller
chooses every action of the seats it plays, one action per game per call, and gets back the
view tensor of :mod:`kingsbreakfast.tensor.observation` (the same numbers the Gymnasium,
PettingZoo and OpenSpiel adapters give), the legal-action mask, rewards and done flags for
all B games at once. The rules are the compiled rules of
:mod:`kingsbreakfast.compiled.rules`, the batch simulator's too (held equal to the engine by
differential tests); the state of every game stays in numpy arrays between calls.

Two forms:

:class:`VectorGames`
    the multi-agent form: every seat is either the caller's (``"caller"``) or a built-in
    policy of the batch simulator (``"random"``, ``"greedy"`` — the greedy bot's policy —,
    ``"heuristic"`` — the card counter, the ``hard`` level —, ``"medium"`` — the card
    counter with a quarter of its moves random slips — or ``"plain-greedy"``); ``to_move``
    says which seat each observation is for, and ``rewards`` has a column per seat. With
    every seat the caller's, one policy plays the whole table (self-play).
:class:`KingsBreakfastVectorEnv`
    Gymnasium's ``VectorEnv`` for one learner seat against built-in opponents.

Rules of the interface:

- Actions are the engine's ids (0–37). An action that is not legal is replaced by the
  lowest legal id, and ``illegal[g]`` (``info["illegal"]``) says so; nothing else changes
  (``substitute``, the rule of ``KingsBreakfast-v0`` in ``kingsbreakfast.tensor.illegal``).
- Rewards are 0 until a game ends; then every seat's ``rank`` utility
  (:mod:`kingsbreakfast.tensor.utility`): (players ranked below − ranked above) / (n − 1).
- Auto-reset in the same step: a game that ends is dealt again at once, and the observation
  returned for it is the new game's first (the caller's seat to move). The final R11 points
  are in ``points``/``info["points"]`` for the games whose ``done`` is set.
- Game ``g`` of a seed is always the same sequence of games for the same actions.

Needs the ``batch`` extra (numpy and numba); :class:`KingsBreakfastVectorEnv` also needs
``rl`` (gymnasium).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from kingsbreakfast.compiled import vector as kernel
from kingsbreakfast.compiled.games import MAX_ACTIONS, TO_MOVE, new_games
from kingsbreakfast.compiled.policies import CALLER, rooms
from kingsbreakfast.engine import (
    DEFAULT_RULES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MUST_DRAW,
    NUM_ACTIONS,
    Rules,
)
from kingsbreakfast.tensor import OBS_SIZE
from kingsbreakfast.tensor.illegal import GYMNASIUM_ENV_ID, RULE_BY_ENV_ID, check_rule

from .checks import ALL_POLICIES, check_decks, check_int, policy_names
from .warm import compile_seconds, notice_first_compile

SEAT_POLICIES = {"caller": CALLER, **ALL_POLICIES}
"""Who plays a seat: the caller of ``step``, or a built-in policy (the batch simulator's,
under the names the bot registry gives them)."""

MAX_BATCH = 1 << 20

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


class VectorGames:
    """B games of ``players`` players, stepped together; see the module doc."""

    def __init__(
        self,
        num_games: int,
        players: int = 4,
        seats: str | Sequence[str] = "caller",
        *,
        rules: Rules = DEFAULT_RULES,
        first_cook: int | None = None,
        autoreset: bool = True,
        decks: npt.ArrayLike | None = None,
    ) -> None:
        """``seats``: one name for all or one per seat (``caller`` or a name of
        :data:`SEAT_POLICIES`).
        ``first_cook`` None draws each game's first cook from its own random stream.
        ``decks`` (B × 110 card numbers, top first) deals every game of row ``g`` from row
        ``g`` instead of shuffling (for tests and replays)."""
        self.num_games = check_int("num_games", num_games, 1, MAX_BATCH)
        self.players = check_int("players", players, MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a kingsbreakfast.engine.Rules, not {rules!r}")
        self.rules = rules
        names = policy_names(seats, self.players, SEAT_POLICIES, "seat")
        if CALLER not in [SEAT_POLICIES[name] for name in names]:
            raise ValueError("at least one seat must be the caller's")
        self.seats = names
        self._policy = np.array([SEAT_POLICIES[name] for name in names], np.int64)
        self.first_cook = -1 if first_cook is None else check_int(
            "first_cook", first_cook, 0, self.players - 1
        )
        self.autoreset = bool(autoreset)
        b, n = self.num_games, self.players
        self._games = new_games(
            b, n, rules.empty_table == MUST_DRAW, rules.dragon_min_on_table,
            None if decks is None else check_decks(decks, b),
        )
        self._legal, self._greedy_room, self._counter_room = rooms(self._policy)
        self._kinds = (self._greedy_room is not None, self._counter_room is not None)
        self._no_record = np.zeros(MAX_ACTIONS, np.int64)
        self._known = np.zeros(b, np.int64)
        self.observations: FloatArray = np.zeros((b, OBS_SIZE), np.float32)
        """(B, OBS_SIZE) the view tensor of each game's mover (written in place by every
        call)."""
        self.masks: BoolArray = np.zeros((b, NUM_ACTIONS), np.bool_)
        """(B, 38) the mover's legal actions."""
        self.rewards: FloatArray = np.zeros((b, n), np.float32)
        self.done: BoolArray = np.zeros(b, np.bool_)
        self.illegal: BoolArray = np.zeros(b, np.bool_)
        self.points: IntArray = np.zeros((b, n), np.int64)
        """(B, n) the R11 points of each game's last finished game."""
        self.discarded: IntArray = np.zeros((b, n), np.int64)

    @property
    def to_move(self) -> IntArray:
        """(B,) the seat each observation is for (-1 for a game over and not reset)."""
        to_move: IntArray = self._games.state[:, TO_MOVE].copy()
        return to_move

    def reset(self, seed: int = 0) -> tuple[FloatArray, BoolArray]:
        """Deal every game from ``seed``; returns the observations and masks."""
        s = check_int("seed", seed, 0, 2**64 - 1)
        with notice_first_compile(("reset", *self._kinds), compile_seconds(*self._kinds)):
            kernel.reset_games(
                self._games, self._policy, np.uint64(s), self.first_cook, self._legal,
                self._greedy_room, self._counter_room, self._no_record, self.observations,
                self.masks, self._known,
            )
        return self.observations, self.masks

    def step(self, actions: npt.ArrayLike) -> tuple[FloatArray, BoolArray, FloatArray, BoolArray]:
        """One action per game for its mover; returns (observations, masks, rewards, done).

        The arrays are the object's own, overwritten by the next call: copy what you keep.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_games,):
            raise ValueError(
                f"actions must have shape ({self.num_games},): one action id per game, "
                f"got {chosen.shape}"
            )
        if not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError("actions must be integer action ids (0-37)")
        with notice_first_compile(("step", *self._kinds), compile_seconds(*self._kinds)):
            kernel.step_games(
                self._games, self._policy, chosen.astype(np.int64, copy=False),
                self.autoreset, self.first_cook, self._legal, self._greedy_room,
                self._counter_room, self._no_record, self.observations, self.masks,
                self._known, self.rewards, self.done, self.illegal, self.points,
                self.discarded,
            )
        return self.observations, self.masks, self.rewards, self.done


class KingsBreakfastVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """Gymnasium's ``VectorEnv``: one learner seat in each of ``num_envs`` games, against
    built-in ``opponents``, same-step auto-reset (see the module doc).

    Registered as ``KingsBreakfast-v0`` beside the single-game environment (importing
    ``kingsbreakfast.interop.gymnasium`` registers both)::

        gymnasium.make_vec("KingsBreakfast-v0", num_envs=1024,
                           vectorization_mode="vector_entry_point", opponents="heuristic")

    The variant switches come as ``rules`` or, as the single-game environment takes them, as
    ``empty_table`` and ``dragon_min_on_table``.

    ``info`` holds ``action_mask`` (B × 38), ``illegal``, ``points`` (the learner's R11 points
    of a finished game, else of the last one) and, Gymnasium's same-step auto-reset
    convention, ``final_info`` with ``_final_info``: for the games that ended in this step
    (``_final_info[g]``), their ``points`` and the learner's ``reward``. There is no
    ``final_obs``: the compiled games do not keep a finished game's last view once they deal
    the next, and no learner needs it here, because a game only ever ends by its rules
    (``terminated``), never by a time limit (``truncated`` is always False), so nothing is
    bootstrapped from a final observation. :meth:`action_masks` serves maskable learners.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 4096,
        players: int = 4,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        *,
        rules: Rules | None = None,
        empty_table: str | None = None,
        dragon_min_on_table: int | None = None,
        first_cook: int | None = None,
        illegal_action: str = RULE_BY_ENV_ID[GYMNASIUM_ENV_ID],
    ) -> None:
        self.illegal_action = check_rule(illegal_action, "vector")
        """The id's one rule; the compiled games follow no other (the module doc)."""
        n = check_int("players", players, MIN_PLAYERS, MAX_PLAYERS)
        self.seat = check_int("seat", seat, 0, n - 1)
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1 or "caller" in others:
            raise ValueError(
                f"opponents: one built-in policy for every other seat ({n - 1}), or one name"
            )
        if rules is None:
            rules = Rules(
                DEFAULT_RULES.empty_table if empty_table is None else empty_table,
                DEFAULT_RULES.dragon_min_on_table
                if dragon_min_on_table is None
                else dragon_min_on_table,
            )
        elif empty_table is not None or dragon_min_on_table is not None:
            raise ValueError("give the variant switches as rules or one by one, not both")
        seats = list(others)
        seats.insert(self.seat, "caller")
        self.games = VectorGames(num_envs, n, seats, rules=rules, first_cook=first_cook)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, OBS_SIZE), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self._truncated = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """A new game in every slot. One integer ``seed`` fixes them all (game g of a seed is
        always the same game). A list of ``num_envs`` seeds, Gymnasium's other form, is
        accepted too: the games are then dealt from one seed drawn from the whole list
        (numpy's ``SeedSequence``), so the same list gives the same games, and a ``None``
        in it stands for fresh entropy; slot g's games are not those one seed ``seed[g]``
        would give. No seed: fresh entropy."""
        if isinstance(seed, list | tuple):
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"a list of seeds needs one per game ({self.num_envs}), got {len(seed)}"
                )
            entropy = []
            for item in seed:
                if item is None:
                    item = int(np.random.default_rng().integers(2**63))
                entropy.append(check_int("seed", item, 0, 2**64 - 1))
            seed = int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])
        elif seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        observations, masks = self.games.reset(seed)
        return observations.copy(), {"action_mask": masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        observations, masks, rewards, done = self.games.step(actions)
        reward = rewards[:, self.seat].copy()
        points = self.games.points[:, self.seat].copy()
        ended = done.copy()
        info: dict[str, Any] = {
            "action_mask": masks.copy(),
            "illegal": self.games.illegal.copy(),
            "points": points,
            "final_info": {
                "points": np.where(ended, points, 0),
                "_points": ended,
                "reward": np.where(ended, reward, 0.0),
                "_reward": ended,
            },
            "_final_info": ended,
        }
        return observations.copy(), reward, ended, self._truncated.copy(), info

    def action_masks(self) -> BoolArray:
        """The learners' legal actions (B × 38)."""
        return self.games.masks.copy()
