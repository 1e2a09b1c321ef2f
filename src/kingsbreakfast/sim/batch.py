"""Many games at once at close to native speed, for statistics and research.

``simulate(games, players, policies, seed=...)`` plays whole games in a compiled loop
(:mod:`kingsbreakfast.compiled.batch`, numba, over the compiled rules of
:mod:`kingsbreakfast.compiled.rules`) and returns their final states, scores and winners as
numpy arrays. Game ``g`` of a seed is always the same game, whatever the batch size, so a large
run can be split into pieces and a surprising game looked at again on its own.

Policies are chosen per seat by name:

``random``
    uniformly among the legal actions (the legal actions sorted by id, as the engine lists
    them, and one index drawn uniformly);
``greedy``
    the greedy bot's policy (``bots/greedy.py``, the registry's ``greedy`` and ``easy``),
    compiled: the action that leaves the seat's own hand worth most — points, then fewer
    discarded cards — if the game ended once this round is served (R9, R11), a draw counted
    as the average of the cards it could turn up; ties at random. One name, one policy:
    ``tests/sim/test_batch_greedy_is_the_bot.py`` checks every choice against the bot's.
``heuristic``
    the card counter (``bots/heuristic.py`` with ``bots/knowledge.py``, the registry's
    ``heuristic`` and ``hard``), compiled in :mod:`kingsbreakfast.compiled.card_counter`:
    each action valued by the expected final points of its own hand minus 0.7 of the leading
    opponent's, with the king's final plate estimated from the unseen cards and the rounds left (R9,
    R11); ties at random. ``tests/sim/test_batch_card_counter_is_the_bot.py`` checks every choice
    against the bot's.
``medium``
    the registry's ``medium`` level: ``heuristic`` with a quarter of its moves (where it has
    a choice) played at random.
``plain-greedy``
    a cheaper cousin: points only, a draw valued as leaving the hand unchanged, ties to the
    lowest action id (deterministic). No bot plays it.

The bots' names map to these policies in the bot registry (``BotEntry.batch_policy``);
:data:`POLICIES` and :data:`ALL_POLICIES` come from there (:mod:`.checks`).

For the differential tests and for replaying, ``decks=`` fixes the deck orders (top card
first, card numbers) and ``actions=`` fixes every action (then the simulator checks each
one is legal and reports the first that is not in ``illegal_at``).

Needs the ``batch`` extra (numpy and numba); nothing else in the package imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import numpy as np
import numpy.typing as npt

from kingsbreakfast.compiled import batch as kernel
from kingsbreakfast.compiled.games import new_games
from kingsbreakfast.compiled.policies import CALLER, rooms
from kingsbreakfast.engine import (
    DECK_SIZE,
    DEFAULT_RULES,
    DISHES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MUST_DRAW,
    NUM_DISHES,
    PASS_ID,
    UNSHUFFLED_DECK,
    Rules,
)

from .checks import ALL_POLICIES, OTHER_POLICIES, POLICIES, check_decks, check_int, policy_names
from .warm import compile_seconds, notice_first_compile

__all__ = [
    "ALL_POLICIES",
    "MAX_ACTIONS",
    "OTHER_POLICIES",
    "POLICIES",
    "BatchGame",
    "BatchResult",
    "BatchStats",
    "simulate",
    "warm_up",
]

MAX_ACTIONS = kernel.MAX_ACTIONS
MAX_GAMES = 10**7
"""A bound on one call (memory: about 100 bytes of results per game); split larger runs."""

IntArray = npt.NDArray[np.integer[Any]]
BoolArray = npt.NDArray[np.bool_]


class BatchGame(TypedDict):
    """One game of a batch as plain values, dish ids as keys (the engine's words)."""

    points: list[int]
    discarded: list[int]
    winners: list[int]
    king: dict[str, int]
    removed_dishes: dict[str, int]
    removed_dragons: int
    removed_unseen: int
    table_dragons: int
    rounds: int
    actions: NotRequired[list[int]]
    """Every action id in order, when the batch recorded them."""


@dataclass(frozen=True)
class BatchStats:
    """What researchers usually want from a batch: scores and wins per seat."""

    games: int
    players: int
    policies: tuple[str, ...]
    mean_points: tuple[float, ...]
    std_points: tuple[float, ...]
    win_rate: tuple[float, ...]
    """Wins per game by seat, a shared win (R12) counted as 1/k for each of the k winners."""
    shared_wins: float
    """Share of games whose win was shared (equal points and equal discards, R12)."""
    mean_rounds: float
    mean_actions: float
    mean_discarded: tuple[float, ...]

    def lines(self) -> list[str]:
        out = [
            f"{self.games} games, {self.players} players; "
            f"{self.mean_rounds:.2f} rounds and {self.mean_actions:.1f} actions per game; "
            f"shared wins {self.shared_wins:.2%}",
            f"{'seat':>4}  {'policy':8} {'points':>8} {'sd':>7} {'discards':>9} {'wins':>7}",
        ]
        for seat in range(self.players):
            out.append(
                f"{seat:>4}  {self.policies[seat]:8} {self.mean_points[seat]:8.2f} "
                f"{self.std_points[seat]:7.2f} {self.mean_discarded[seat]:9.2f} "
                f"{self.win_rate[seat]:7.2%}"
            )
        return out


@dataclass(frozen=True)
class BatchResult:
    """The final state of every game: arrays indexed by game (and seat, and dish in R1 order)."""

    players: int
    rules: Rules
    policies: tuple[str, ...]
    seed: int
    points: IntArray
    """(games, players) R11 points."""
    discarded: IntArray
    """(games, players) cards discarded at scoring (R11)."""
    winners: BoolArray
    """(games, players) True for every winner (several on a shared win, R12)."""
    king: IntArray
    """(games, 7) the king's dishes at the end."""
    table: IntArray
    """(games, 7) dishes on the table at the end (always 0: R9 serves them before R10)."""
    table_dragons: IntArray
    takes: IntArray
    """(games, players, 7) cards taken from the table (R6)."""
    draws: IntArray
    """(games, players, 7) dish cards drawn from the deck (R7)."""
    removed_dishes: IntArray
    """(games, 7) the king's dishes the dragon took (R8)."""
    removed_dragons: IntArray
    removed_unseen: IntArray
    """(games,) cards left in the deck at the end (R10)."""
    rounds: IntArray
    num_actions: IntArray
    illegal_at: IntArray
    """(games,) index of the first scripted action that was not legal, or -1."""
    actions: IntArray | None
    """(games, MAX_ACTIONS) every action id (-1 after the end), when recorded."""
    legal_counts: IntArray | None
    """(games, MAX_ACTIONS) how many actions were legal at each step, when recorded."""
    decks: IntArray | None
    """(games, 110) the deck each game was dealt from, top first, when recorded: the cards
    turned up or drawn, in order, then the unread rest (their order never mattered)."""

    @property
    def games(self) -> int:
        return int(self.points.shape[0])

    @property
    def hands(self) -> IntArray:
        """(games, players, 7) the hands shown at scoring: takes plus draws."""
        return self.takes.astype(np.int16) + self.draws

    def stats(self) -> BatchStats:
        wins = self.winners.astype(np.float64)
        share = wins / np.maximum(wins.sum(axis=1, keepdims=True), 1.0)
        points = self.points.astype(np.float64)
        return BatchStats(
            games=self.games,
            players=self.players,
            policies=self.policies,
            mean_points=tuple(float(x) for x in points.mean(axis=0)),
            std_points=tuple(float(x) for x in points.std(axis=0)),
            win_rate=tuple(float(x) for x in share.mean(axis=0)),
            shared_wins=float((self.winners.sum(axis=1) > 1).mean()),
            mean_rounds=float(self.rounds.mean()),
            mean_actions=float(self.num_actions.mean()),
            mean_discarded=tuple(float(x) for x in self.discarded.mean(axis=0)),
        )

    def game(self, g: int) -> BatchGame:
        """One game's final state as plain Python values (dish ids as keys)."""
        if not 0 <= g < self.games:
            raise IndexError(f"game {g} is not in this batch of {self.games}")
        out: BatchGame = {
            "points": [int(x) for x in self.points[g]],
            "discarded": [int(x) for x in self.discarded[g]],
            "winners": [int(s) for s in np.flatnonzero(self.winners[g])],
            "king": dict(zip(DISHES, (int(x) for x in self.king[g]), strict=True)),
            "removed_dishes": dict(
                zip(DISHES, (int(x) for x in self.removed_dishes[g]), strict=True)
            ),
            "removed_dragons": int(self.removed_dragons[g]),
            "removed_unseen": int(self.removed_unseen[g]),
            "table_dragons": int(self.table_dragons[g]),
            "rounds": int(self.rounds[g]),
        }
        if self.actions is not None:
            out["actions"] = [int(a) for a in self.actions[g, : int(self.num_actions[g])]]
        return out


def simulate(
    games: int,
    players: int = 4,
    policies: str | Sequence[str] = "random",
    *,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
    first_cook: int = 0,
    decks: npt.ArrayLike | None = None,
    actions: npt.ArrayLike | None = None,
    record: bool = False,
) -> BatchResult:
    """Play ``games`` complete games and return every final state, score and winner.

    ``policies`` is one name for every seat or one per seat (see the module doc). With
    ``decks`` (games × 110 card numbers, top first) the decks are used as given instead of
    shuffled from ``seed``; with ``actions`` (games × up to 64 action ids) every seat plays
    the given actions. ``record`` keeps every action, legal-set size and deck.
    """
    n = check_int("players", players, MIN_PLAYERS, MAX_PLAYERS)
    b = check_int("games", games, 1, MAX_GAMES)
    cook = check_int("first_cook", first_cook, 0, n - 1)
    s = check_int("seed", seed, 0, 2**64 - 1)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a kingsbreakfast.engine.Rules, not {rules!r}")
    deck_array = None if decks is None else check_decks(decks, b)
    script = np.zeros((1, MAX_ACTIONS), np.int8)
    if actions is not None:
        script = _check_actions(actions, b)
        names: tuple[str, ...] = ("script",) * n
        codes = np.full(n, CALLER, np.int64)
    else:
        names = policy_names(policies, n, ALL_POLICIES, "batch")
        codes = np.array([ALL_POLICIES[name] for name in names], np.int64)
    king = np.zeros((b, NUM_DISHES), np.int8)
    table = np.zeros((b, NUM_DISHES), np.int8)
    takes = np.zeros((b, n, NUM_DISHES), np.int8)
    draws = np.zeros((b, n, NUM_DISHES), np.int8)
    removed = np.zeros((b, NUM_DISHES), np.int8)
    extra = np.zeros((b, 6), np.int16)
    points = np.zeros((b, n), np.int16)
    discarded = np.zeros((b, n), np.int16)
    winners = np.zeros((b, n), np.bool_)
    shape = (b, MAX_ACTIONS) if record else (1, MAX_ACTIONS)
    out_actions = np.full(shape, -1, np.int8)
    out_counts = np.zeros(shape, np.int8)
    out_decks = np.zeros((b if record else 1, DECK_SIZE), np.int8)
    row = new_games(1, n, rules.empty_table == MUST_DRAW, rules.dragon_min_on_table, deck_array)
    legal_room, greedy_room, counter_room = rooms(codes)
    greedy, counter = greedy_room is not None, counter_room is not None
    with notice_first_compile(("batch", greedy, counter), compile_seconds(greedy, counter)):
        kernel.play_games(
            b, row, cook, codes, np.uint64(s), script, record, legal_room, greedy_room,
            counter_room, king, table, takes, draws, removed, extra, points, discarded,
            winners, out_actions, out_counts, out_decks,
        )
    return BatchResult(
        players=n,
        rules=rules,
        policies=names,
        seed=s,
        points=points,
        discarded=discarded,
        winners=winners,
        king=king,
        table=table,
        table_dragons=extra[:, 0],
        takes=takes,
        draws=draws,
        removed_dishes=removed,
        removed_dragons=extra[:, 1],
        removed_unseen=extra[:, 2],
        rounds=extra[:, 3],
        num_actions=extra[:, 4],
        illegal_at=extra[:, 5],
        actions=out_actions if record else None,
        legal_counts=out_counts if record else None,
        decks=out_decks if record else None,
    )


def warm_up() -> None:
    """Compile (or load from numba's cache) every code path, so the first timed call is fair."""
    for policy in ALL_POLICIES:
        simulate(2, 3, policy, record=True)
    simulate(1, 3, decks=[UNSHUFFLED_DECK], actions=[[7] * MAX_ACTIONS], record=True)


def _check_actions(actions: npt.ArrayLike, games: int) -> npt.NDArray[np.int8]:
    array = np.asarray(actions)
    if array.ndim != 2 or array.shape[0] != games or array.shape[1] > MAX_ACTIONS:
        raise ValueError(
            f"actions must have shape ({games}, k) with k <= {MAX_ACTIONS}, got {array.shape}"
        )
    if array.size and (array.min() < -1 or array.max() > PASS_ID):
        raise ValueError(
            f"actions must be action ids from 0 to {PASS_ID} (or -1 after the end)"
        )
    out = np.full((games, MAX_ACTIONS), -1, np.int8)
    out[:, : array.shape[1]] = array
    return out
