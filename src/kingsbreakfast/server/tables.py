"""What is kept about one table: its seats, its game state and its version.

This is the table's record, the part the store holds too (the deck and the actions rebuild
the state); the actor's runtime (lock, timer, bots, generator) lives in
:class:`~.actor.TableActor` and its sockets in :class:`~.audience.Audience`. Everything a
connection is sent is built by :func:`state_frame` from ``state.view(seat)``, never from the
state itself.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Final, cast

from orjson import OPT_SORT_KEYS, Fragment
from orjson import dumps as _dumps

from kingsbreakfast.engine import HandView, Rules, State, Turn, turn_dict

from .names import look_alike_key
from .wire import Clock, SeatInfo, StateFrame, TableInfo, encode, shared_part

OPEN: Final = "open"
HUMAN: Final = "human"
BOT: Final = "bot"

LOBBY: Final = "lobby"
PLAYING: Final = "playing"
OVER: Final = "over"
"""The stored status of a game (:class:`~.lifecycle.Phase` values): written by the actor as
its phase changes, read from the store for tables no actor holds."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    """Tokens are stored and compared as digests: a database dump holds no usable token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Seat:
    kind: str
    name: str
    token_hash: str | None = None
    zombie: bool = False
    """The player left their turn to the clock while away: a bot plays for them (as Board Game
    Arena's zombie mode) until they return."""

    def holds(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, token_digest(token)
        )


@dataclass(eq=False, slots=True)
class Table:
    id: str
    num_seats: int
    rules: Rules
    bot_level: str
    clock_seconds: int | None
    public: bool
    seats: list[Seat]
    status: str = LOBBY
    """As stored: a held table's actor writes it from its phase."""
    state: State | None = None
    deadline: float | None = None
    """Wall-clock time (seconds) at which the clock runs out for the player to move."""
    version: int = 0
    """How many actions were accepted: every client action names the version it saw. Kept
    by the actor beside ``state`` (counting the history on every frame is slow)."""
    history_json: tuple[int, bytes] = (0, b"[]")
    """The public history as frames encode it, and how many turns that is: a broadcast
    encodes only the turns since the last one (a game's history only ever grows)."""

    @property
    def host(self) -> int | None:
        """The lowest seat held by a human hosts the table (creator first)."""
        for number, seat in enumerate(self.seats):
            if seat.kind == HUMAN:
                return number
        return None

    def seat_of(self, token: str) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.holds(token):
                return number
        return None

    def name_taken(self, display: str) -> bool:
        """A person at this table has a name that reads like ``display`` (:mod:`.names`):
        ``Zed``, ``zed`` and ``ZED`` never sit at one table."""
        key = look_alike_key(display)
        return any(s.kind == HUMAN and look_alike_key(s.name) == key for s in self.seats)

    def distinct_name(self, display: str, limit: int = 32) -> str:
        """``display``, or else the first of ``display (2)``, ``display (3)``… that reads
        like nobody's here: play now seats strangers who chose the same name at one table,
        each told apart, instead of refusing them (``limit``: the longest name a seat
        takes, :data:`~.lobby.MAX_NAME_CHARS`)."""
        if not self.name_taken(display):
            return display
        for number in range(2, self.num_seats + 2):  # more numbers than people here
            suffix = f" ({number})"
            candidate = display[: limit - len(suffix)].rstrip() + suffix
            if not self.name_taken(candidate):
                return candidate
        return display

    def names(self) -> list[str]:
        return [
            seat.name if seat.kind == HUMAN else bot_name(number, self.bot_level)
            for number, seat in enumerate(self.seats)
        ]

    def public_info(self, present: Collection[int | None] = ()) -> TableInfo:
        """What anyone may see of the table (lobby list, invite page): never the deck.
        ``present``: the seats with a socket connected (the actor's audience)."""
        seats: list[SeatInfo] = [
            {
                "kind": seat.kind,
                "name": seat.name if seat.kind == HUMAN else "",
                "connected": number in present,
                "zombie": seat.zombie,
            }
            for number, seat in enumerate(self.seats)
        ]
        return {
            "id": self.id,
            "status": self.status,
            "num_seats": self.num_seats,
            "rules": self.rules.to_dict(),
            "bot_level": self.bot_level,
            "clock_seconds": self.clock_seconds,
            "public": self.public,
            "host": self.host,
            "version": self.version,
            "seats": seats,
        }


def bot_name(seat: int, level: str) -> str:
    """How a bot's seat is named in records and archives (seats counted from 1)."""
    return f"Bot {seat + 1} ({level})"


def state_frames(
    table: Table, seats: set[int | None], present: Collection[int | None] = ()
) -> dict[int | None, str]:
    """The frames of :func:`state_frame` for several seats at once, byte for byte the same,
    with every part the seats share encoded once: the table's public information, the
    public history, and all of the view but its seat and the hands. Each hand a seat may
    see in full (its own; every hand once the game is over) is taken from
    ``state.view(seat)``; every other hand is the spectator's view of it, the same for
    everyone."""
    state = table.state
    if state is None:
        return {seat: state_frame(table, seat, present) for seat in seats}
    public = state.view(None)
    shared = replace(public, history=()).to_dict()
    parts: dict[str, object] = {
        key: Fragment(_dumps(value, option=OPT_SORT_KEYS)) for key, value in shared.items()
        if key not in ("seat", "hands")
    }
    parts["history"] = Fragment(_history(table, public.history))
    hidden = [Fragment(_dumps(hand.to_dict(), option=OPT_SORT_KEYS)) for hand in public.hands]
    scoring = public.score() if public.finished else None
    frame_parts = {
        "type": "state",
        "table": shared_part(table.public_info(present)),
        "version": table.version,
        "score": None if scoring is None else Fragment(
            _dumps(scoring.to_dict(), option=OPT_SORT_KEYS)
        ),
        "clock": _clock(table),
    }
    frames: dict[int | None, str] = {}
    for seat in seats:
        hands = hidden
        if seat is not None and not public.finished:  # its own hand, with its draws
            hands = hidden[:]
            seen = public.hands[seat]  # as state.view(seat) has it, without a whole view
            own = HandView(seen.takes, seen.hidden, state.draws(seat))
            hands[seat] = Fragment(_dumps(own.to_dict(), option=OPT_SORT_KEYS))
        view = {**parts, "seat": seat, "hands": hands}
        frames[seat] = encode(cast("StateFrame", {**frame_parts, "you": seat, "view": view}))
    return frames


def _history(table: Table, history: tuple[Turn, ...]) -> bytes:
    """``history`` encoded as one JSON list, byte for byte what encoding it whole gives,
    from the table's last encoding and the turns added since."""
    count, encoded = table.history_json
    if count > len(history):  # not this game's: start again
        count, encoded = 0, b"[]"
    if count < len(history):
        added = _dumps([turn_dict(turn) for turn in history[count:]], option=OPT_SORT_KEYS)
        encoded = added if count == 0 else encoded[:-1] + b"," + added[1:]
        table.history_json = (len(history), encoded)
    return encoded


def _clock(table: Table) -> Clock | None:
    if table.deadline is None or table.state is None or table.state.is_over:
        return None
    return {"seat": table.state.to_move, "deadline_ms": int(table.deadline * 1000)}


def table_clock(table: Table) -> Clock | None:
    """The turn clock as frames show it (None without a clock or once the game is over)."""
    return _clock(table)


def state_frame(table: Table, seat: int | None, present: Collection[int | None] = ()) -> str:
    """The full picture of the table for one seat (None: a spectator); ``present`` as for
    :meth:`Table.public_info`."""
    view = None if table.state is None else table.state.view(seat)
    scoring = view.score() if view is not None and view.finished else None
    frame: StateFrame = {
        "type": "state",
        "you": seat,
        "table": table.public_info(present),
        "version": table.version,
        "view": None if view is None else view.to_dict(),
        "score": None if scoring is None else scoring.to_dict(),
        "clock": _clock(table),
    }
    return encode(frame)
