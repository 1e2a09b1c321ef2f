"""The checks the compiled simulators' front doors share: numbers, decks, seat policies.

``simulate`` (:mod:`.batch`) and :class:`~.vector.VectorGames` take the same kinds of
settings; each is checked here once, with the same message, before any reaches compiled
code (which trusts what it is given). The policies are named as the bot registry names
them (``BotEntry.batch_policy``): :data:`POLICIES` is that one map, from the names to the
compiled policies of :mod:`kingsbreakfast.compiled.policies`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from kingsbreakfast.bots import BOTS
from kingsbreakfast.compiled.policies import CODES
from kingsbreakfast.engine import DECK_SIZE, NUM_DISHES, UNSHUFFLED_DECK

POLICIES: Final = {
    name: CODES[name]
    for name in dict.fromkeys(e.batch_policy for e in BOTS if e.batch_policy is not None)
}
"""The policies that are also bots of the registry, under the names its entries give them
(``BotEntry.batch_policy``); the registry maps a bot or level to one of these."""
OTHER_POLICIES: Final = {name: code for name, code in CODES.items() if name not in POLICIES}
"""Policies only the simulators play, under names no bot has (``plain-greedy``)."""
ALL_POLICIES: Final = {**POLICIES, **OTHER_POLICIES}

_FULL_DECK: Final = [UNSHUFFLED_DECK.count(card) for card in range(NUM_DISHES + 1)]


def check_int(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high``, or an error naming the setting."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
    return int(value)


def check_decks(decks: npt.ArrayLike, games: int) -> npt.NDArray[np.int8]:
    """One full deck (R1) of card numbers per game, top first."""
    array = np.asarray(decks)
    if array.shape != (games, DECK_SIZE):
        raise ValueError(
            f"decks must have shape ({games}, {DECK_SIZE}): one deck of {DECK_SIZE} card "
            f"numbers per game, got {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError("decks must hold card numbers (0-6 dishes, 7 dragon)")
    counts = np.stack([(array == card).sum(axis=1) for card in range(len(_FULL_DECK))], axis=1)
    bad = np.flatnonzero((counts != np.array(_FULL_DECK)).any(axis=1))
    if bad.size:
        raise ValueError(
            f"deck {int(bad[0])} is not a full deck: it must hold 15 of each dish and 5 "
            f"dragons (R1), it holds {counts[bad[0]].tolist()}"
        )
    return array.astype(np.int8)


def policy_names(
    policies: str | Sequence[str], n: int, known: dict[str, int], kind: str
) -> tuple[str, ...]:
    """One name per seat (one name for all, or one per seat), each a key of ``known``;
    ``kind`` (``batch``, ``seat``) names the setting in the messages."""
    names = (policies,) * n if isinstance(policies, str) else tuple(policies)
    if len(names) != n:
        plural = "policies" if kind == "batch" else f"{kind} policies"
        raise ValueError(f"{len(names)} {plural} given for {n} players (one per seat, or one)")
    for name in names:
        if name not in known:
            raise ValueError(f"unknown {kind} policy {name!r} (known: {', '.join(known)})")
    return names


def seat_codes(names: Sequence[str], known: dict[str, int]) -> npt.NDArray[np.int64]:
    """The compiled policy code of every seat."""
    codes: list[Any] = [known[name] for name in names]
    return np.array(codes, np.int64)
