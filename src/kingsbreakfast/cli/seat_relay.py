"""An outside agent in a seat on the server: a client that relays between the table's play
socket and an agent speaking the tournament protocol (``kingsbreakfast-agent/1``).

The relay is a client like the browser: it holds one seat token and only ever has what the
server sends that seat, so the agent cannot learn more than a human in the seat could. Each
state frame carries ``view`` (``View.to_dict()`` of this seat); it is read back into a
:class:`View` so that the agent is handed exactly the request a tournament would send, by the
same code (:mod:`kingsbreakfast.bots.outside`), with the same timeout and fallback.

Reconnecting follows the close codes: a restart, an overloaded server or a table moved to
another process of a cluster (1001, 1006, 1011, 1012, 1013) is retried with a growing pause;
a token that no longer holds a seat (4001, 4003) or a missing table (4004) ends the relay.

A frozen process (stopped, or cut off behind the proxy) keeps its sockets open and silent, so
the relay heartbeats as the browser does (``web/static/heartbeat.js``): a WebSocket ping
after :data:`BEAT_SECONDS` and the socket given up when no pong comes within
:data:`ANSWER_SECONDS`; it then reconnects through the proxy to whichever process holds the
table now, and the player keeps their seat.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from kingsbreakfast.bots.outside import OutsideBot
from kingsbreakfast.engine import (
    DISHES,
    Action,
    HandView,
    Rules,
    Turn,
    View,
    ViewDict,
)

RETRY_CLOSES: Final = frozenset({1001, 1006, 1011, 1012, 1013})
"""Close codes that ask the client to come back: going away, no close frame at all, a server
error, a restart or a table moved to another process (1012), try again later (1013)."""
GONE_SEAT: Final = frozenset({4001, 4003})
NO_TABLE: Final = 4004
BEAT_SECONDS: Final = 2.5
"""How often the relay pings the server (the browser's ``BEAT_MS``)."""
ANSWER_SECONDS: Final = 3.5
"""How long a ping may go unanswered before the socket is given up (``ANSWER_MS``): a frozen
process is noticed within about 6 s."""
MAX_RETRIES: Final = 8
"""Failed connections in a row (no state frame in between) before the relay gives up, by
default: with pauses growing to 4 s, about 20 s, long enough for a server to restart."""


class RelayError(Exception):
    """The relay cannot go on; the message (already in the player's language) says why."""


@dataclass(frozen=True, slots=True)
class Address:
    """Where a table lives: the server's HTTP base and the table's id."""

    base: str
    table: str

    @property
    def socket(self) -> str:
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}:{self.base.split(':', 1)[1]}/ws/tables/{self.table}"


def table_address(url: str) -> Address | None:
    """The invite link (``http://host:port/t/TABLE``, what the browser shows) or the REST
    address of the table (``…/api/tables/TABLE``) read as an :class:`Address`; None when
    ``url`` is neither."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    words = [word for word in parts.path.split("/") if word]
    if len(words) == 2 and words[0] == "t":
        table = words[1]
    elif len(words) == 3 and words[:2] == ["api", "tables"]:
        table = words[2]
    else:
        return None
    return Address(f"{parts.scheme}://{parts.netloc}", table)


def view_from_dict(data: ViewDict) -> View:
    """A view read back from its JSON (the ``view`` of a state frame): the inverse of
    ``View.to_dict()``, so the agent gets the same request as in a tournament."""

    def counts(by_dish: dict[str, int]) -> tuple[int, ...]:
        return tuple(int(by_dish[dish]) for dish in DISHES)

    hands = tuple(
        HandView(
            takes=counts(hand["takes"]),
            hidden=int(hand["hidden"]),
            draws=counts(hand["draws"]) if "draws" in hand else None,
        )
        for hand in data["hands"]
    )
    history = tuple(
        Turn(int(entry["seat"]), Action.from_record(entry)) for entry in data["history"]
    )
    removed = data["removed"]
    return View(
        seat=data["seat"],
        num_players=int(data["num_players"]),
        rules=Rules.from_dict(data["rules"]),
        first_cook=int(data["first_cook"]),
        round=int(data["round"]),
        cook=int(data["cook"]),
        to_move=data["to_move"],
        pending_dragon=bool(data["pending_dragon"]),
        deck_size=int(data["deck"]),
        table=counts(data["table"]),
        table_dragons=int(data["table_dragons"]),
        king=counts(data["king"]),
        removed_dishes=counts(removed["dishes"]),
        removed_dragons=int(removed["dragons"]),
        removed_unseen=int(removed["unseen"]),
        hands=hands,
        history=history,
    )


def rest(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    """One call of the server's REST API; the server's own error message when refused."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["x-seat-token"] = token
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=15) as reply:
            raw = reply.read()
    except urllib.error.HTTPError as error:
        raise ServerRefused(error.code, _error_message(error.read())) from None
    return json.loads(raw) if raw else None


class ServerRefused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error_message(raw: bytes) -> str:
    try:
        body = json.loads(raw)
        return str(body["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return raw.decode("utf-8", "replace")[:200]


@dataclass(slots=True)
class Played:
    """What the relay did for its seat, for the final report."""

    moves: int = 0
    forfeits: int = 0
    reconnects: int = 0
    acted: set[int] = field(default_factory=set)
    """The versions at which the relay sent a move: the history index its move takes, so a
    move of the seat at any other index was not the agent's (a bot's, or the clock's)."""


class Relay:
    """One seat played by ``agent`` through the play socket until the game is over.

    ``say`` receives the lines the player reads (forfeits, reconnections), already
    translated by the caller's templates.
    """

    def __init__(
        self,
        address: Address,
        token: str,
        agent: OutsideBot,
        *,
        seed: int | None = None,
        start: bool = False,
        retries: int = MAX_RETRIES,
        on_forfeit: Callable[[int, str, Action], None] = lambda seat, reason, action: None,
        on_retry: Callable[[int | None, int], None] = lambda code, attempt: None,
    ) -> None:
        self.address = address
        self.token = token
        self.agent = agent
        self.rng = random.Random(seed)
        self.start = start
        self.retries = retries
        self.on_forfeit = on_forfeit
        self.on_retry = on_retry
        self.played = Played()
        self._acted: int | None = None
        self._started = False

    def run(self) -> dict[str, Any]:
        """Play until the game is over; the last state frame (with ``score``)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        from websockets.sync.client import connect

        failures = 0
        while True:
            code: int | None = None
            reason = ""
            try:
                with connect(
                    self.address.socket, open_timeout=BEAT_SECONDS + ANSWER_SECONDS,
                    ping_interval=BEAT_SECONDS, ping_timeout=ANSWER_SECONDS, close_timeout=1,
                ) as socket:
                    socket.send(json.dumps({"type": "hello", "token": self.token}))
                    for text in socket:
                        frame = json.loads(text)
                        if frame.get("type") != "state":
                            self._refused(frame, socket.send)
                            continue
                        failures = 0
                        final = self._state(frame, socket.send)
                        if final:
                            return dict(frame)
                code = 1000
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                reason = closed.rcvd.reason if closed.rcvd is not None else ""
            except InvalidURI as error:
                raise RelayError(str(error)) from None
            except (OSError, InvalidHandshake, TimeoutError) as error:
                code, reason = None, str(error)
            self._acted = None  # a new connection gets a fresh view: act on it
            if code in GONE_SEAT:
                raise SeatClosed(code, reason)
            if code == NO_TABLE:
                raise SeatClosed(code, reason)
            if code is not None and code not in RETRY_CLOSES:
                raise SeatClosed(code, reason)
            failures += 1
            if failures > self.retries:
                raise SeatClosed(code, reason)
            self.played.reconnects += 1
            self.on_retry(code, failures)
            time.sleep(min(4.0, 0.25 * 2 ** (failures - 1)))

    def _state(self, frame: dict[str, Any], send: Callable[[str], None]) -> bool:
        """Act when it is this seat's turn; True once the game is over."""
        you = frame.get("you")
        if you is None:
            raise SeatClosed(4003, "the token holds no seat")
        table = frame.get("table") or {}
        if table.get("status") == "over" or frame.get("score") is not None:
            return True
        data = frame.get("view")
        if data is None:
            if self.start and not self._started and table.get("host") == you:
                self._started = True
                rest(
                    "POST", f"{self.address.base}/api/tables/{self.address.table}/start",
                    token=self.token,
                )
            return False
        if data.get("to_move") != you or self._acted == frame["version"]:
            return False
        view = view_from_dict(data)
        before = self.agent.forfeits
        action = self.agent.act(view, self.rng)
        if self.agent.forfeits > before:
            self.played.forfeits += 1
            self.on_forfeit(you, self.agent.forfeit_reasons[-1], action)
        self._acted = frame["version"]
        self.played.acted.add(frame["version"])
        self.played.moves += 1
        send(json.dumps(
            {"type": "act", "version": frame["version"], "action": action.to_record()}
        ))
        return False

    def _refused(self, frame: dict[str, Any], send: Callable[[str], None]) -> None:
        """The server refused a message (a move sent on a view that changed meanwhile): ask
        for a fresh view and act again on it."""
        if frame.get("type") == "error":
            self._acted = None
            send(json.dumps({"type": "sync"}))


class SeatClosed(Exception):
    """The server closed the socket for good (or could not be reached often enough)."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
