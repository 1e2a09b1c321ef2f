"""The lobby: what a table must be to be opened, who may sit, and what the archive shows.

Nothing here holds a table in play; these are the checks and the read-only views that any
server process can answer from the store alone.
"""

from __future__ import annotations

import random
import re
import unicodedata
from typing import Any, Final, NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict

from kingsbreakfast.bots import OPPONENT_LEVELS
from kingsbreakfast.engine import (
    DISHES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    KingsBreakfastError,
    Rules,
    ScoringDict,
    State,
    ViewDict,
    shuffled_deck,
)

from .names import name_fault
from .store import GameRecord
from .tables import HUMAN, bot_name

MAX_NAME_CHARS: Final = 32
MAX_CLOCK_SECONDS: Final = 3600
MIN_CLOCK_SECONDS: Final = 5
HOUR: Final = 3600
MAX_TURN_CLOCK_SECONDS: Final = 14 * 24 * HOUR
"""Turn-based tables: a clock of whole hours, up to two weeks a move."""


def is_turn_based(clock_seconds: int | None) -> bool:
    """A clock of an hour or more: players come and go between moves (docs/accounts.md)."""
    return clock_seconds is not None and clock_seconds >= HOUR


class SeatKind(TypedDict):
    """Who sat in a seat, for a page to name bots in the reader's language."""

    kind: str
    name: str
    level: str


class ArchivedGame(TypedDict):
    """A finished public game in the archive list: who played, never the cards."""

    id: str
    num_seats: int
    finished_at: str | None
    players: list[str]
    seats: list[SeatKind]


class ReplayStep(TypedDict):
    """A finished game after ``step`` of its ``steps`` actions, every hand shown."""

    step: int
    steps: int
    players: list[str]
    view: ViewDict
    score: ScoringDict | None
    seats: NotRequired[list[SeatKind]]


class LobbyError(KingsBreakfastError):
    """A lobby request that cannot be granted; ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(message, code, **params)
        self.status = status


def clean_name(name: object) -> str:
    """A display name: 1–32 printable characters with a visible letter, blanks trimmed, in
    NFC (so the same name typed on two keyboards is stored alike); what it may not hold is
    in :mod:`.names`."""
    if not isinstance(name, str):
        raise LobbyError(422, "bad_name", "the display name must be text")
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME_CHARS:
        raise LobbyError(
            422, "bad_name", f"the display name must have 1 to {MAX_NAME_CHARS} characters",
            limit=MAX_NAME_CHARS,
        )
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        # control, format (the bidi overrides that turn text around among them), private
        # and unassigned characters: none belongs in a name others read
        raise LobbyError(422, "bad_name", "the display name has a control character")
    fault = name_fault(text)
    if fault is not None:
        raise LobbyError(
            422, "unreadable_name",
            "a name needs a visible letter, and no character that shows as nothing or a "
            "mark with no letter under it", reason=fault,
        )
    text = unicodedata.normalize("NFC", text)
    if _looks_like_a_bot(text):
        raise LobbyError(
            422, "reserved_name", "a person's name may not look like a bot's (Bot 2 (easy))"
        )
    return text


_LEVELS: Final = "|".join(OPPONENT_LEVELS)
_BOT_LIKE: Final = re.compile(rf"^b[o0]t\W*\d|\((?:{_LEVELS})\)$")


def _looks_like_a_bot(name: str) -> bool:
    """Bots are named ``Bot N (level)`` by the client and in records; a person so named
    (in any width or case) could pass for one and make others trust their moves."""
    folded = unicodedata.normalize("NFKC", name).casefold().replace("ø", "o")
    return bool(_BOT_LIKE.search(folded)) or folded in ("bot", "b0t")


def check_table(
    seats: object, rules: dict[str, JsonValue], bot_level: str, clock_seconds: object
) -> Rules:
    """Refuse a table that cannot be opened, naming the first fault; answers its rules."""
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise LobbyError(
            422, "bad_seats", "a table has 3 to 5 seats (R2)", min=MIN_PLAYERS,
            max=MAX_PLAYERS,
        )
    try:
        parsed_rules = Rules.from_dict(rules)
    except KingsBreakfastError as error:
        raise LobbyError(422, error.code, error.message, **error.params) from None
    if bot_level not in OPPONENT_LEVELS:
        raise LobbyError(
            422, "bad_bot_level", f"bot level must be one of {', '.join(OPPONENT_LEVELS)}",
            choices=list(OPPONENT_LEVELS),
        )
    if clock_seconds is not None and (
        type(clock_seconds) is not int
        or not MIN_CLOCK_SECONDS <= clock_seconds <= MAX_TURN_CLOCK_SECONDS
        or (clock_seconds > MAX_CLOCK_SECONDS and clock_seconds % HOUR)
    ):
        raise LobbyError(
            422, "bad_clock",
            f"the turn clock is {MIN_CLOCK_SECONDS} to {MAX_CLOCK_SECONDS} seconds, whole "
            f"hours up to {MAX_TURN_CLOCK_SECONDS // HOUR}, or none",
            min=MIN_CLOCK_SECONDS, max=MAX_CLOCK_SECONDS, max_hours=MAX_TURN_CLOCK_SECONDS // HOUR,
        )
    return parsed_rules


def deal(num_seats: int) -> tuple[tuple[int, ...], int]:
    """A deck shuffled from the system's entropy and a random first cook (R2)."""
    system = random.SystemRandom()
    return shuffled_deck(random.Random(system.getrandbits(64))), system.randrange(num_seats)


def replay_step(state: State, names: list[str], step: int) -> ReplayStep:
    """A finished game as it stood after ``step`` actions, every hand shown."""
    actions = state.actions
    if not 0 <= step <= len(actions):
        raise LobbyError(
            404, "no_step", f"the game has steps 0 to {len(actions)}", last=len(actions)
        )
    at = State(state.initial_deck, state.num_players, state.first_cook, state.rules)
    for action in actions[:step]:
        at.apply(action)
    view = at.view(None).to_dict()
    view["legal"] = []
    for seat, hand in enumerate(view["hands"]):
        hand["draws"] = dict(zip(DISHES, at.draws(seat), strict=True))
    score = at.score().to_dict() if at.is_over else None
    return {
        "step": step, "steps": len(actions), "players": names, "view": view, "score": score,
    }


def archived(records: list[GameRecord]) -> list[ArchivedGame]:
    """The public finished games among ``records``, with who played them."""
    return [
        {
            "id": r.id,
            "num_seats": r.num_seats,
            "finished_at": r.finished_at.isoformat() if r.finished_at else None,
            "players": [
                s.name if s.kind == HUMAN else bot_name(s.seat, r.bot_level) for s in r.seats
            ],
            "seats": seat_kinds([(s.kind, s.name) for s in r.seats], r.bot_level),
        }
        for r in records
        if r.public
    ]


def seat_kinds(seats: list[tuple[str, str]], bot_level: str) -> list[SeatKind]:
    """(kind, name) of each seat as a page reads them: a bot by its level, never by the
    English name the records give it."""
    return [
        {"kind": kind, "name": name if kind == HUMAN else "", "level": bot_level}
        for kind, name in seats
    ]
