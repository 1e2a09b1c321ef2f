"""Actions: stable integer ids that read and print like the record format.

An :class:`Action` *is* its integer id (it subclasses ``int``), so search code and tensors use
it as a plain index while people and files see ``take cheese`` or ``{"type": "take", ...}``.
There are exactly 38 of them, built once; ``Action(i)`` always returns the same object.

    ids 0–6   take a dish (R6), in R1 dish order
    id  7     draw (R7)
    id  8     place the drawn dragon on the table (R7a)
    ids 9–36  feed the dragon two of the king's dishes (R7a, R8), pairs in R1 order
    id  37    pass (R5b)
"""

from __future__ import annotations

from typing import Any, Final, NotRequired, TypedDict

from .cards import DISHES, NUM_DISHES, dish_number
from .errors import ActionFormatError

TAKE, DRAW, PLACE_DRAGON, FEED, PASS = "take", "draw", "place_dragon", "feed", "pass"


class ActionDict(TypedDict):
    """The record format's action object: ``dish`` only for a take, ``dishes`` only for a
    feed (the two dishes in R1 order)."""

    type: str
    dish: NotRequired[str]
    dishes: NotRequired[list[str]]

KINDS: Final = (TAKE, DRAW, PLACE_DRAGON, FEED, PASS)

DRAW_ID: Final = 7
PLACE_DRAGON_ID: Final = 8
FIRST_FEED_ID: Final = 9
FEED_PAIRS: Final = tuple((a, b) for a in range(NUM_DISHES) for b in range(a, NUM_DISHES))
PASS_ID: Final = FIRST_FEED_ID + len(FEED_PAIRS)  # 37
NUM_ACTIONS: Final = PASS_ID + 1  # 38


class Action(int):
    """One of the 38 actions; compare, hash and index it as its id."""

    __slots__ = ()

    _all: tuple[Action, ...] = ()

    def __new__(cls, action_id: int) -> Action:
        if cls._all:
            try:
                if action_id < 0:
                    raise IndexError
                return cls._all[action_id]
            except (IndexError, TypeError):
                raise ActionFormatError(
                    f"{action_id!r} is not an action id (0–{NUM_ACTIONS - 1})",
                    "unknown_action_id",
                    action=repr(action_id),
                ) from None
        return super().__new__(cls, action_id)

    # -- what the action is --------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``take``, ``draw``, ``place_dragon``, ``feed`` or ``pass`` (the record's type)."""
        if self < NUM_DISHES:
            return TAKE
        if self == DRAW_ID:
            return DRAW
        if self == PLACE_DRAGON_ID:
            return PLACE_DRAGON
        if self == PASS_ID:
            return PASS
        return FEED

    @property
    def dish(self) -> int | None:
        """The dish number a ``take`` takes, else None."""
        return int(self) if self < NUM_DISHES else None

    @property
    def dishes(self) -> tuple[int, int] | None:
        """The two dish numbers a ``feed`` removes from the king (R1 order), else None."""
        if FIRST_FEED_ID <= self < PASS_ID:
            return FEED_PAIRS[self - FIRST_FEED_ID]
        return None

    # -- building actions ----------------------------------------------------------------
    @classmethod
    def take(cls, dish: int | str) -> Action:
        return cls._all[_dish(dish)]

    @classmethod
    def feed(cls, first: int | str, second: int | str) -> Action:
        a, b = sorted((_dish(first), _dish(second)))
        return cls._all[FIRST_FEED_ID + FEED_PAIRS.index((a, b))]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text notation: ``take cheese``, ``draw``, ``place_dragon``,
        ``feed ham wine`` (or ``feed ham+wine``), ``pass``; case and extra blanks ignored."""
        words = text.replace("+", " ").replace(",", " ").lower().split()
        if not words:
            raise ActionFormatError("an empty text is not an action", "empty_action")
        kind, rest = words[0], words[1:]
        try:
            if kind == TAKE and len(rest) == 1:
                return cls.take(rest[0])
            if kind == FEED and len(rest) == 2:
                return cls.feed(rest[0], rest[1])
            if kind in (DRAW, PLACE_DRAGON, PASS, "place") and not rest:
                return cls._all[
                    {DRAW: DRAW_ID, PASS: PASS_ID}.get(kind, PLACE_DRAGON_ID)
                ]
        except ActionFormatError as error:
            raise ActionFormatError(
                f"{text!r} is not an action: {error}", "unknown_action", action=text
            ) from None
        raise ActionFormatError(
            f"{text!r} is not an action (try 'take cheese', 'draw', 'place_dragon', "
            "'feed ham wine' or 'pass')",
            "unknown_action",
            action=text,
        )

    @classmethod
    def from_record(cls, obj: Any) -> Action:
        """Read one action object of a ``kingsbreakfast/1`` record (``player`` is not
        checked here: only the game knows whose turn it is)."""
        if not isinstance(obj, dict):
            raise ActionFormatError("an action must be a JSON object", "action_not_object")
        kind = obj.get("type")
        if kind == TAKE:
            return cls.take(_dish_field(obj.get("dish"), "dish"))
        if kind == FEED:
            dishes = obj.get("dishes")
            if not isinstance(dishes, list) or len(dishes) != 2:
                raise ActionFormatError(
                    "a feed must name exactly 2 dishes in 'dishes'", "feed_needs_two_dishes"
                )
            return cls.feed(_dish_field(dishes[0], "dishes"), _dish_field(dishes[1], "dishes"))
        if kind == DRAW:
            return cls._all[DRAW_ID]
        if kind == PLACE_DRAGON:
            return cls._all[PLACE_DRAGON_ID]
        if kind == PASS:
            return cls._all[PASS_ID]
        raise ActionFormatError(
            f"unknown action type {kind!r} (expected one of {', '.join(KINDS)})",
            "unknown_action_type",
            type=repr(kind),
        )

    # -- printing ------------------------------------------------------------------------
    def to_record(self) -> ActionDict:
        """The record format's action object, dishes in R1 order."""
        kind = self.kind
        if kind == TAKE:
            return {"type": TAKE, "dish": DISHES[self]}
        pair = self.dishes
        if pair is not None:
            return {"type": FEED, "dishes": [DISHES[pair[0]], DISHES[pair[1]]]}
        return {"type": kind}

    def __str__(self) -> str:
        kind = self.kind
        if kind == TAKE:
            return f"take {DISHES[self]}"
        pair = self.dishes
        if pair is not None:
            return f"feed {DISHES[pair[0]]} {DISHES[pair[1]]}"
        return kind

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (int(self),))


def as_action(action: Action | int | str) -> Action:
    """Accept an Action, an action id or the text notation: the checked path takes whatever a
    person, a bot or a wire frame hands it, and refuses anything else as not an action."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return Action(action)
    raise ActionFormatError(f"{action!r} is not an action", "unknown_action", action=repr(action))


def _dish(dish: int | str) -> int:
    if isinstance(dish, str):
        try:
            return dish_number(dish.strip().lower())
        except KeyError:
            raise ActionFormatError(
                f"{dish!r} is not a dish (dishes: {', '.join(DISHES)})",
                "unknown_dish",
                dish=dish,
            ) from None
    if isinstance(dish, int) and not isinstance(dish, bool) and 0 <= dish < NUM_DISHES:
        return dish
    raise ActionFormatError(f"{dish!r} is not a dish number (0–6)", "unknown_dish", dish=dish)


def _dish_field(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise ActionFormatError(
            f"'{key}' must be a dish id such as \"cheese\", not {value!r}",
            "unknown_dish",
            dish=repr(value),
        )
    if value not in DISHES:
        raise ActionFormatError(
            f"{value!r} is not a dish (dishes: {', '.join(DISHES)})", "unknown_dish", dish=value
        )
    return value


Action._all = tuple(Action(i) for i in range(NUM_ACTIONS))
ALL_ACTIONS: Final = Action._all
