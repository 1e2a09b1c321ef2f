"""What may be done when: the variant switches and the legality of actions (R5–R8).

Legality depends only on public facts (table, dragons, king, deck size, a pending drawn
dragon), so one set of functions here serves the full game state, every player's view and
the user interfaces that explain a refusal. The legal sets are looked up in tables built at
import time, keyed by small bit masks, because random playouts ask for them at every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from .actions import (
    ALL_ACTIONS,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    PASS_ID,
    PLACE_DRAGON_ID,
    Action,
)
from .cards import DISHES, NUM_DISHES
from .errors import IllegalActionError, SetupError

DRAW_OR_FEED: Final = "draw_or_feed"
MUST_DRAW: Final = "must_draw"
EMPTY_TABLE_CHOICES: Final = (DRAW_OR_FEED, MUST_DRAW)
DRAGON_MIN_CHOICES: Final = (1, 2)


class RulesDict(TypedDict):
    """The record format's ``rules`` object: both switches, always written out."""

    empty_table: str
    dragon_min_on_table: int


@dataclass(frozen=True, slots=True)
class Rules:
    """The variant switches of docs/rules.md *Variants*; the defaults are the rulings."""

    empty_table: str = DRAW_OR_FEED
    """R5a: ``draw_or_feed`` (ruling) or ``must_draw`` (word-for-word rules-hu)."""
    dragon_min_on_table: int = 1
    """R8: dragons that must lie on the table to feed one of them (``2`` per rules-vi)."""

    def __post_init__(self) -> None:
        if not isinstance(self.empty_table, str) or self.empty_table not in EMPTY_TABLE_CHOICES:
            raise SetupError(
                f"unknown value {self.empty_table!r} for empty_table "
                f"(expected {' or '.join(EMPTY_TABLE_CHOICES)})",
                "unknown_rule_value",
                switch="empty_table",
                value=repr(self.empty_table),
                expected=", ".join(EMPTY_TABLE_CHOICES),
            )
        value = self.dragon_min_on_table
        if type(value) is not int or value not in DRAGON_MIN_CHOICES:  # not bool, not 2.0
            raise SetupError(
                f"unknown value {value!r} for dragon_min_on_table (expected 1 or 2)",
                "unknown_rule_value",
                switch="dragon_min_on_table",
                value=repr(value),
                expected=", ".join(map(str, DRAGON_MIN_CHOICES)),
            )

    @classmethod
    def from_dict(cls, switches: Any) -> Rules:
        """Read the record format's ``rules`` object; a missing switch takes its default and
        an unknown one is an error."""
        if not isinstance(switches, dict):
            raise SetupError("'rules' must be a JSON object", "rules_not_object")
        # sorted by repr: a Python caller's dict may mix key types, and the first unknown
        # switch must still be named rather than the sort failing
        unknown = sorted(set(switches) - {"empty_table", "dragon_min_on_table"}, key=repr)
        if unknown:
            raise SetupError(
                f"unknown rule switch {unknown[0]!r} (known: empty_table, dragon_min_on_table)",
                "unknown_rule_switch",
                switch=unknown[0],
                expected="empty_table, dragon_min_on_table",
            )
        return cls(**switches)

    def to_dict(self) -> RulesDict:
        return {"empty_table": self.empty_table, "dragon_min_on_table": self.dragon_min_on_table}

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_RULES


DEFAULT_RULES: Final = Rules()

# --- lookup tables ----------------------------------------------------------------------

_TAKES_AND_DRAW: Final = tuple(
    tuple(ALL_ACTIONS[d] for d in range(NUM_DISHES) if mask >> d & 1)
    + ((ALL_ACTIONS[DRAW_ID],) if mask >> NUM_DISHES & 1 else ())
    for mask in range(1 << (NUM_DISHES + 1))
)
"""Index: table mask (bit d = dish d lies on the table) | deck-not-empty << 7."""

_FEEDS: Final = tuple(
    tuple(
        ALL_ACTIONS[FIRST_FEED_ID + i]
        for i, (a, b) in enumerate(FEED_PAIRS)
        if (a != b and has_one >> a & 1 and has_one >> b & 1) or (a == b and has_two >> a & 1)
    )
    for has_one in range(1 << NUM_DISHES)
    for has_two in range(1 << NUM_DISHES)
)
"""Index: king_key(king); the feeds the king's plate allows."""

_PASS_ONLY: Final = (ALL_ACTIONS[PASS_ID],)

LEGAL_WITHOUT_DRAGON: Final = tuple(actions or _PASS_ONLY for actions in _TAKES_AND_DRAW)
"""The legal actions when no dragon is in play (none on the table, none just drawn): then no
feed is possible (R8) and the set depends only on the table mask | deck-not-empty << 7.
The state's hot path indexes this table directly; the answer equals ``legal_from_masks``."""

DECK_BIT: Final = 1 << NUM_DISHES
"""Bit 7 of a legality key: the deck still has a card (R7)."""
DRAGON_BIT: Final = 1 << (NUM_DISHES + 1)
"""Bit 8: a dragon is in play (on the table or just drawn), so feeds may be legal (R7a, R8)."""
IDLE_BIT: Final = 1 << (NUM_DISHES + 2)
"""Bit 9: no player is to move (the game is over, or a card is being turned up)."""

LEGAL_BY_KEY: Final = tuple(
    () if key & IDLE_BIT else None if key & DRAGON_BIT else LEGAL_WITHOUT_DRAGON[key]
    for key in range(IDLE_BIT << 1)
)
"""The state's whole legality check in one lookup, keyed by table mask | the three bits
above. None means a dragon is in play: the king's plate decides, see ``legal_from_masks``.
One index replaces the branches a random playout would otherwise take at every step."""
_PLACE: Final = (ALL_ACTIONS[PLACE_DRAGON_ID],)
_JOINED: dict[int, tuple[Action, ...]] = {}


def table_mask(table: Sequence[int]) -> int:
    """Bit d set when dish d lies on the table."""
    mask = 0
    for dish in range(NUM_DISHES):
        if table[dish]:
            mask |= 1 << dish
    return mask


def king_key(king: Sequence[int]) -> int:
    """Which dishes the king has at least one / at least two of, packed for ``_FEEDS``."""
    has_one = has_two = 0
    for dish in range(NUM_DISHES):
        count = king[dish]
        if count:
            has_one |= 1 << dish
            if count > 1:
                has_two |= 1 << dish
    return has_one << NUM_DISHES | has_two


def legal_from_masks(
    mask: int,
    deck_size: int,
    table_dragons: int,
    king_feed_key: int,
    pending_dragon: bool,
    rules: Rules,
) -> tuple[Action, ...]:
    """The legal actions, sorted by id, from the packed public facts (the fast path)."""
    feeds = _FEEDS[king_feed_key]
    if pending_dragon:  # R7a: use the drawn dragon or place it
        return _join(_PLACE, feeds, 1 << 30 | king_feed_key)
    base_key = mask | (1 << NUM_DISHES if deck_size else 0)
    base = _TAKES_AND_DRAW[base_key]
    if (
        feeds
        and table_dragons >= rules.dragon_min_on_table
        and not (mask == 0 and deck_size and rules.empty_table == MUST_DRAW)
    ):
        return _join(base, feeds, base_key << 14 | king_feed_key)
    return base or _PASS_ONLY  # R5b: pass only when nothing else is legal


def _join(first: tuple[Action, ...], second: tuple[Action, ...], key: int) -> tuple[Action, ...]:
    joined = _JOINED.get(key)
    if joined is None:
        joined = _JOINED[key] = first + second
    return joined


def legal_actions(
    table: Sequence[int],
    table_dragons: int,
    king: Sequence[int],
    deck_size: int,
    pending_dragon: bool,
    rules: Rules,
) -> tuple[Action, ...]:
    """The legal actions of the player to move, from counts (see ``legal_from_masks``)."""
    return legal_from_masks(
        table_mask(table), deck_size, table_dragons, king_key(king), pending_dragon, rules
    )


def explain_illegal(
    action: Action,
    table: Sequence[int],
    table_dragons: int,
    king: Sequence[int],
    deck_size: int,
    pending_dragon: bool,
    rules: Rules,
) -> IllegalActionError:
    """The error that says, in a player's words, why ``action`` is not legal now.

    Only called once an action is known to be illegal, so it may be slow and thorough.
    """
    kind = action.kind
    if pending_dragon and kind not in ("feed", "place_dragon"):
        return IllegalActionError(
            "you drew a dragon: feed it now or place it on the table (R7a)",
            "dragon_choice_pending",
        )
    if kind == "take":
        taken = DISHES[action]
        return IllegalActionError(
            f"{taken} is not on the table (R6)", "dish_not_on_table", dish=taken
        )
    if kind == "draw":
        return IllegalActionError(
            "the deck is empty: there is no card to draw (R7)", "deck_empty"
        )
    if kind == "place_dragon":
        return IllegalActionError(
            "there is no drawn dragon to place: only a dragon you just drew can be placed (R7a)",
            "no_drawn_dragon",
        )
    if kind == "pass":
        return IllegalActionError(
            "you may pass only when no other action is possible (R5b)", "pass_not_allowed"
        )
    # feed
    if not pending_dragon:
        if table_dragons == 0:
            return IllegalActionError(
                "there is no dragon on the table to feed (R8)", "no_dragon_on_table"
            )
        if table_dragons < rules.dragon_min_on_table:
            return IllegalActionError(
                f"feeding a dragon from the table needs {rules.dragon_min_on_table} dragons "
                f"there, and there is {table_dragons} (variant dragon_min_on_table)",
                "too_few_dragons_on_table",
                needed=rules.dragon_min_on_table,
                present=table_dragons,
            )
        if rules.empty_table == MUST_DRAW and deck_size and not any(table):
            return IllegalActionError(
                "the table is empty: you must draw a card (variant empty_table: must_draw)",
                "empty_table_must_draw",
            )
    if sum(king) < 2:
        return IllegalActionError(
            "the king has fewer than 2 dishes for the dragon (R8)", "king_too_few_dishes"
        )
    pair = action.dishes
    assert pair is not None
    first, second = pair
    needed = 2 if first == second else 1
    for dish in (first, second):
        if king[dish] < needed:
            name = DISHES[dish]
            if king[dish] == 0:
                message = f"the king has no {name} for the dragon (R8)"
            else:
                message = f"the king has only {king[dish]} {name}, the dragon needs 2 (R8)"
            return IllegalActionError(
                message, "king_lacks_dish", dish=name, needed=needed, held=king[dish]
            )
    # Every condition above holds, so the action was legal after all.
    raise AssertionError(f"explain_illegal called for legal action {action}")
