"""The WebSocket protocol: what a client may send, and how every frame is written.

Client frames are small JSON objects checked field by field before anything else looks at
them (the first check of the match master's fixed order: shape). Server frames are written
with sorted keys and no blanks, so the same content is always the same bytes: a property test
relies on that to show two games differing only in hidden cards look identical to a seat.

Client → server::

    {"type": "hello", "token": "..." | null}     first frame; null joins as a spectator
    {"type": "act", "version": N, "action": {"type": "take", "dish": "cheese"}}
    {"type": "sync"}                              ask for a fresh full view
    {"type": "ping"}

Server → client: ``state`` (a full view of the table for this connection), ``error``
(``code``, English ``message``, ``params``, and the current ``version``) and ``pong``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from orjson import OPT_SORT_KEYS as _SORT_KEYS
from orjson import dumps as _dumps

from kingsbreakfast.engine import Action, ActionFormatError

MAX_FRAME_BYTES: Final = 2048
"""No legal client frame comes near this; anything longer is refused (close 1009)."""
MAX_TOKEN_CHARS: Final = 64
MAX_VERSION: Final = 10_000
"""A game has at most a few hundred actions; a larger number is not a version."""

CLOSE_UNSUPPORTED: Final = 1003
CLOSE_POLICY: Final = 1008
CLOSE_TOO_BIG: Final = 1009
CLOSE_TRY_LATER: Final = 1013
CLOSE_NO_TABLE: Final = 4004
CLOSE_BAD_TOKEN: Final = 4003
CLOSE_LEFT: Final = 4001

_FIELDS: Final = {
    "hello": {"type", "token"},
    "act": {"type", "version", "action"},
    "sync": {"type"},
    "ping": {"type"},
}


class ProtocolError(Exception):
    """A client frame the server cannot accept; ``code`` is stable, the message English."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None


@dataclass(frozen=True, slots=True)
class Act:
    version: int
    action: Action


@dataclass(frozen=True, slots=True)
class Sync:
    pass


@dataclass(frozen=True, slots=True)
class Ping:
    pass


Message = Hello | Act | Sync | Ping


def parse_message(text: str | bytes) -> Message:
    """One client frame to a message, or a ProtocolError naming what is wrong."""
    if len(text) > MAX_FRAME_BYTES:
        raise ProtocolError(
            "frame_too_big", f"a frame may hold at most {MAX_FRAME_BYTES} bytes",
            limit=MAX_FRAME_BYTES,
        )
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the frame is not JSON text (or nests too deep)") from None
    if not isinstance(obj, dict):
        raise ProtocolError("not_object", "a message must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(
            "unknown_type",
            f"'type' must be one of {', '.join(sorted(_FIELDS))}",
            expected=sorted(_FIELDS),
        )
    unknown = sorted(set(obj) - _FIELDS[kind])
    if unknown:
        raise ProtocolError(
            "unknown_field", f"unknown field {unknown[0][:40]!r} in a {kind} message",
            field=unknown[0][:40],
        )
    if kind == "hello":
        token = obj.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= (
            MAX_TOKEN_CHARS
        )):
            raise ProtocolError(
                "bad_token_field", "'token' must be a seat token (text) or null"
            )
        return Hello(token)
    if kind == "act":
        version = obj.get("version")
        if type(version) is not int or not 0 <= version <= MAX_VERSION:
            raise ProtocolError(
                "bad_version_field", "'version' must be the whole number of the state you saw"
            )
        try:
            action = Action.from_record(obj.get("action"))
        except ActionFormatError as error:
            raise ProtocolError("bad_action", error.message, **error.params) from None
        return Act(version, action)
    if kind == "sync":
        return Sync()
    return Ping()


def encode(frame: Any) -> str:
    """The one way a server frame becomes text: same content, same bytes (sorted keys, no
    blanks, UTF-8 as is). orjson writes exactly what ``json.dumps`` would here, several times
    faster; encoding frames is the largest single cost of a busy server."""
    return _dumps(frame, option=_SORT_KEYS).decode("utf-8")


def encode_slow(frame: Any) -> str:
    """The standard library's spelling of :func:`encode` (the reference in the tests)."""
    return json.dumps(frame, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def error_frame(code: str, message: str, params: dict[str, Any], version: int | None) -> str:
    return encode(
        {"type": "error", "code": code, "message": message, "params": params, "version": version}
    )
