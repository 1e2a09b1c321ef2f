"""The WebSocket protocol: the shape of every frame, both ways, declared once here.

A client frame is validated by pydantic against a union tagged by its ``type`` (the first
check of the table actor's fixed order: shape). A refusal carries a stable code naming the
first fault in the order a reader meets them: not JSON, not an object, unknown type, unknown
field, then the faulty field. Server frames are TypedDicts written with sorted keys and no
blanks, so the same content is always the same bytes: a property test relies on that to show
two games differing only in hidden cards look identical to a seat.

Client → server::

    {"type": "hello", "token": "..." | null}     first frame; null joins as a spectator
    {"type": "hello", "token": null, "cookie": true}   the seat this browser's cookies hold
    {"type": "act", "version": N, "action": {"type": "take", "dish": "cheese"}}
    {"type": "sync"}                              ask for a fresh full view
    {"type": "ping"}
    {"type": "seat_answer", "seat": N, "accept": true}   the host lets a newcomer sit

Server → client: ``state`` (a full view of the table for this connection), ``error``
(``code``, English ``message``, ``params``, and the current ``version``), ``pong`` (no
longer than the ``ping`` it answers),
``presence`` (who is connected, batched), to the host ``seat_request``, and ``chat``
and ``rematch`` (see docs/accounts.md).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal, TypeAlias, get_args

from orjson import OPT_SORT_KEYS as _SORT_KEYS
from orjson import Fragment
from orjson import dumps as _dumps
from pydantic import (
    ConfigDict,
    Field,
    JsonValue,
    PlainValidator,
    StringConstraints,
    TypeAdapter,
)
from pydantic import ValidationError as _ValidationError
from pydantic.dataclasses import dataclass
from typing_extensions import TypedDict

from kingsbreakfast.engine import (
    Action,
    ActionFormatError,
    KingsBreakfastError,
    ScoringDict,
    TurnDict,
    ViewDict,
)

MAX_FRAME_BYTES: Final = 2048
"""No legal client frame comes near this; anything longer is refused (close 1009)."""
MAX_TOKEN_CHARS: Final = 64
MAX_VERSION: Final = 10_000
"""A game has at most a few hundred actions; a larger number is not a version."""

CLOSE_UNSUPPORTED: Final = 1003
CLOSE_POLICY: Final = 1008
CLOSE_TOO_BIG: Final = 1009
CLOSE_MOVED: Final = 1012
"""Service restart: the table is now served by another process; reconnect."""
CLOSE_TRY_LATER: Final = 1013
CLOSE_NO_TABLE: Final = 4004
CLOSE_BAD_TOKEN: Final = 4003
CLOSE_LEFT: Final = 4001
CLOSE_CROWDED: Final = 4029
"""Too many sockets: from one address, or at one table (the error frame names which)."""
CLOSE_DECLINED: Final = 4002
"""The host declined a request for a seat."""


_CLOSE_FOR: Final = {"bad_token": CLOSE_BAD_TOKEN, "frame_too_big": CLOSE_TOO_BIG}


class ProtocolError(KingsBreakfastError):
    """A client frame the server cannot accept.

    ``close`` is the WebSocket close code to use when the fault ends the connection (a bad
    first frame): a client learns from it whether to retry, fetch a new seat, or give up.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message, code, **params)
        self.close: int = _CLOSE_FOR.get(code, CLOSE_POLICY)


_CLIENT_FRAME: Final = ConfigDict(extra="forbid", strict=True)
"""Strict: ``"3"``, ``true`` or ``3.0`` is not a version, and no field goes unread."""

SeatToken: TypeAlias = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_TOKEN_CHARS)
]
Version: TypeAlias = Annotated[int, Field(ge=0, le=MAX_VERSION)]


def _record_action(value: object) -> Action:
    """A record's action object, read by the engine so the wire and the records agree on
    what an action is; an Action passes as is (messages built in the server's own code)."""
    if isinstance(value, Action):
        return value
    return Action.from_record(value)


RecordAction: TypeAlias = Annotated[Action, PlainValidator(_record_action)]


@dataclass(frozen=True, slots=True, config=_CLIENT_FRAME)
class Hello:
    token: SeatToken | None = None
    cookie: bool = False
    """Without a token: take the seat this browser's cookies hold (its account's seat or a
    guest seat cookie), if any."""
    type: Literal["hello"] = "hello"


@dataclass(frozen=True, slots=True, config=_CLIENT_FRAME)
class Act:
    version: Version
    action: RecordAction
    type: Literal["act"] = "act"


@dataclass(frozen=True, slots=True, config=_CLIENT_FRAME)
class Sync:
    type: Literal["sync"] = "sync"


@dataclass(frozen=True, slots=True, config=_CLIENT_FRAME)
class Ping:
    type: Literal["ping"] = "ping"


@dataclass(frozen=True, slots=True, config=_CLIENT_FRAME)
class SeatAnswer:
    """The host's answer to a request for a seat freed during play."""

    seat: Annotated[int, Field(ge=0, le=9)]
    accept: bool
    type: Literal["seat_answer"] = "seat_answer"


Message: TypeAlias = Hello | Act | Sync | Ping | SeatAnswer

_MESSAGES: Final[TypeAdapter[Message]] = TypeAdapter(
    Annotated[Message, Field(discriminator="type")]
)
_KINDS: Final = tuple(
    sorted(str(member.__dataclass_fields__["type"].default) for member in get_args(Message))
)
_FIELD_FAULTS: Final = {
    "token": ("bad_token_field", "'token' must be a seat token (text) or null"),
    "version": ("bad_version_field", "'version' must be the whole number of the state you saw"),
    "action": ("bad_action", "an act message needs an action object in 'action'"),
    "seat": ("bad_seat_field", "'seat' must be the number of the seat asked for"),
    "accept": ("bad_accept_field", "'accept' must be true or false"),
    "cookie": ("bad_cookie_field", "'cookie' must be true or false"),
}


def parse_message(text: str | bytes) -> Message:
    """One client frame to a message, or a ProtocolError naming what is wrong."""
    if len(text) > MAX_FRAME_BYTES or (
        isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES
    ):
        raise ProtocolError(
            "frame_too_big", f"a frame may hold at most {MAX_FRAME_BYTES} bytes",
            limit=MAX_FRAME_BYTES,
        )
    try:
        return _MESSAGES.validate_json(text)
    except _ValidationError as error:
        raise _refusal(error) from None


def _refusal(error: _ValidationError) -> ProtocolError:
    """The first fault of a refused frame, as a stable code (the client translates it)."""
    faults = error.errors(include_url=False)
    unknown = sorted(
        (str(fault["loc"][-1])[:40], str(fault["loc"][0]))
        for fault in faults
        if fault["type"] in ("unexpected_keyword_argument", "extra_forbidden")
    )
    if unknown:  # an unknown field is named before any faulty value
        name, kind = unknown[0]
        return ProtocolError(
            "unknown_field", f"unknown field {name!r} in a {kind} message", field=name
        )
    first = faults[0]
    if first["type"] == "json_invalid":
        return ProtocolError("bad_json", "the frame is not JSON text (or nests too deep)")
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return ProtocolError(
            "unknown_type", f"'type' must be one of {', '.join(_KINDS)}",
            expected=list(_KINDS),
        )
    if len(first["loc"]) < 2:
        return ProtocolError("not_object", "a message must be a JSON object")
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, ActionFormatError):
        return ProtocolError("bad_action", cause.message, **cause.params)
    code, message = _FIELD_FAULTS[str(first["loc"][1])]
    return ProtocolError(code, message)


# -- server → client ------------------------------------------------------------------------


class SeatInfo(TypedDict):
    """One seat as anyone may see it: a bot's name is left to the client, a token never."""

    kind: str
    name: str
    connected: bool
    zombie: bool


class RulesInfo(TypedDict):
    """The engine's ``RulesDict`` as pydantic can read it for the REST schema: on Python 3.11
    pydantic accepts only ``typing_extensions.TypedDict``, which the engine (standard library
    only) cannot use. Same keys and types, so mypy checks the two agree wherever a
    ``RulesDict`` is stored here."""

    empty_table: str
    dragon_min_on_table: int


class TableInfo(TypedDict):
    """What anyone may see of a table (lobby list, invite page, every state frame): never
    the deck."""

    id: str
    status: str
    num_seats: int
    rules: RulesInfo
    bot_level: str
    clock_seconds: int | None
    public: bool
    host: int | None
    version: int
    seats: list[SeatInfo]


class Clock(TypedDict):
    seat: int | None
    deadline_ms: int
    """Wall-clock milliseconds at which the player to move runs out of time."""


class StateFrame(TypedDict):
    """A full picture of the table for one connection: ``view`` is ``state.view(you)``
    (spectators: None), ``score`` the final breakdown once the game is over.

    A broadcast shares ``table`` and the view's history between seats as :class:`Fragment`
    (the same JSON, encoded once)."""

    type: Literal["state"]
    you: int | None
    table: TableInfo | Fragment
    version: int
    view: ViewDict | None
    score: ScoringDict | None
    clock: Clock | None


class ErrorFrame(TypedDict):
    """A refusal: ``message`` is English, ``code`` and ``params`` let a client translate it."""

    type: Literal["error"]
    code: str
    message: str
    params: dict[str, JsonValue]
    version: int | None


class PongFrame(TypedDict):
    """The answer to a ``ping`` (and to a ``sync`` from a connection that holds the current
    version already): exactly as long as the shortest ping, so answering pings never sends
    more bytes than it receives. The version is left out: the connection was sent it."""

    type: Literal["pong"]


class SeatPresence(TypedDict):
    connected: bool
    zombie: bool


class PresenceFrame(TypedDict):
    """Who is at the table now, sent to everyone instead of a full state when only that
    changed (a socket came or went): a few dozen bytes, at most a few a second per table."""

    type: Literal["presence"]
    version: int
    seats: list[SeatPresence]
    clock: Clock | None


class SeatRequestFrame(TypedDict):
    """To the host: ``name`` asks to take over ``seat``, freed during play (a bot plays it
    meanwhile); the host answers with a ``seat_answer`` message."""

    type: Literal["seat_request"]
    seat: int
    name: str
    version: int


class ChatFrame(TypedDict):
    """A table chat line; kept apart from the game's history (the log never shows it)."""

    type: Literal["chat"]
    id: int
    seat: int
    name: str
    text: str
    at_ms: int


class RematchFrame(TypedDict):
    """A finished game's players are asked to play again at ``table``; ``votes`` are the
    seats that said yes, ``needed`` those that must."""

    type: Literal["rematch"]
    table: str
    votes: list[int]
    needed: list[int]


ServerFrame: TypeAlias = (
    StateFrame | ErrorFrame | PongFrame | PresenceFrame | SeatRequestFrame | ChatFrame
    | RematchFrame
)


def encode(frame: ServerFrame) -> str:
    """The one way a server frame becomes text: same content, same bytes (sorted keys, no
    blanks, UTF-8 as is). orjson writes exactly what ``json.dumps`` would here, several times
    faster; encoding frames is the largest single cost of a busy server."""
    return _dumps(frame, option=_SORT_KEYS).decode("utf-8")


def shared_part(part: TableInfo | list[TurnDict]) -> Fragment:
    """A part several frames hold alike, encoded once: :func:`encode` copies the bytes in
    as they are, so the frames come out exactly as if each had encoded it."""
    return Fragment(_dumps(part, option=_SORT_KEYS))


def encode_slow(frame: Any) -> str:
    """The standard library's spelling of :func:`encode` (the reference in the tests)."""
    return json.dumps(frame, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def error_frame(
    code: str, message: str, params: dict[str, JsonValue], version: int | None
) -> str:
    frame: ErrorFrame = {
        "type": "error", "code": code, "message": message, "params": params, "version": version
    }
    return encode(frame)


def pong_frame() -> str:
    frame: PongFrame = {"type": "pong"}
    return encode(frame)


def chat_frame(line_id: int, seat: int, name: str, text: str, at: float) -> str:
    frame: ChatFrame = {
        "type": "chat", "id": line_id, "seat": seat, "name": name, "text": text,
        "at_ms": int(at * 1000),
    }
    return encode(frame)


def rematch_frame(table: str, votes: list[int], needed: list[int]) -> str:
    frame: RematchFrame = {"type": "rematch", "table": table, "votes": votes, "needed": needed}
    return encode(frame)
