"""Seats change hands during play only by the host's consent.

A seat freed during play holds a hand others must not see, so it never goes to whoever calls
``join`` first (any lobby visitor, even someone already seated at the table: one person, two
seats). Taking such a seat is a *request*: the newcomer
gets a token that holds nothing yet and watches as a spectator; the host is asked at the
table (a ``seat_request`` frame) and answers with a ``seat_answer`` frame; a bot keeps
playing the seat meanwhile. Accepted, the newcomer's sockets become the seat's and are sent
its view; declined, they are closed (4002). Every change of holder is written to the game's
history of seat holders (``GET /api/tables/{id}/holders``).

Requests live in the owning process's memory: a restart or a handover drops them, and the
newcomer simply asks again (nothing was granted, so nothing is lost).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .audience import Audience, Outbox
from .lobby import LobbyError
from .persistence import Journal
from .store import SeatHolder, SeatRecord, StorageError
from .tables import BOT, HUMAN, OPEN, Table, new_token, token_digest
from .wire import CLOSE_DECLINED, SeatRequestFrame, encode, error_frame

log = logging.getLogger("kingsbreakfast.server")

REQUEST_SECONDS: Final = 60.0
"""A request the host has not answered in this time is dropped (its asker is told) when
someone else asks, so one asker holds a freed seat against the others for a minute at
most."""


@dataclass(slots=True)
class SeatRequest:
    seat: int
    name: str
    token_hash: str
    asked_at: float


class SeatConsent:
    """A table actor's component for requests for seats freed during play, and for the
    game's history of seat holders. Its methods run under the actor's lock."""

    def __init__(
        self, table: Table, journal: Journal, audience: Audience,
        playing: Callable[[], bool], seated: Callable[[], None],
        refuse: Callable[[Outbox, str, str], bool],
    ) -> None:
        self.table = table
        self.journal = journal
        self.audience = audience
        self._playing = playing
        """Whether the actor's phase is playing (only then is a seat asked for)."""
        self._seated = seated
        """The actor's answer to a seat changing hands: the next turn, then a broadcast."""
        self._refuse = refuse
        """The actor's refusal, told once per version (:mod:`.answers`)."""
        self.requests: dict[int, SeatRequest] = {}
        self.asking: dict[Outbox, int] = {}
        """Sockets of newcomers waiting for an answer, and the seat each asked for."""

    # -- asking ---------------------------------------------------------------------------
    def ask(
        self, display: str, holder: str | None, token: str | None = None
    ) -> tuple[int, str]:
        """A request for a seat freed during play (call under the table's lock)."""
        table = self.table
        if holder is not None and table.seat_of(holder) is not None:
            raise LobbyError(409, "already_seated", "you already hold a seat at this table")
        host = table.host
        if host is None:
            raise LobbyError(
                409, "no_host", "nobody hosts this table any more to let you sit"
            )
        if table.name_taken(display):
            raise LobbyError(409, "seat_name_taken", "a player at this table has this name")
        now = time.monotonic()
        for number, old in list(self.requests.items()):
            if now - old.asked_at > REQUEST_SECONDS:
                self._drop_request(number, "seat_declined", "the host did not answer in time")
        free = [
            n for n, s in enumerate(table.seats) if s.kind == OPEN and n not in self.requests
        ]
        if not free:
            if any(s.kind == OPEN for s in table.seats):
                raise LobbyError(
                    409, "seat_requested", "someone already asked for this seat; try later"
                )
            raise LobbyError(409, "table_full", "every seat at this table is taken")
        token = token or new_token()
        request = SeatRequest(free[0], display, token_digest(token), now)
        self.requests[request.seat] = request
        log.info("table %s: seat %d requested", table.id, request.seat)
        self._tell_host()
        return request.seat, token

    def asked_with(self, token: str | None) -> int | None:
        """The seat a newcomer's (not yet granted) token asks for."""
        if token is None:
            return None
        digest = token_digest(token)
        for number, request in self.requests.items():
            if request.token_hash == digest:
                return number
        return None

    def greet_asker(self, conn: Outbox, seat: int) -> None:
        """A newcomer's socket: it watches as a spectator until the host answers."""
        self.asking[conn] = seat

    def _tell_host(self, only: Outbox | None = None) -> None:
        host = self.table.host
        for request in self.requests.values():
            frame: SeatRequestFrame = {
                "type": "seat_request", "seat": request.seat, "name": request.name,
                "version": self.table.version,
            }
            text = encode(frame)
            for conn in list(self.audience.connections):
                if conn.seat == host and conn.seat is not None and only in (None, conn):
                    conn.push(text)

    # -- answering ------------------------------------------------------------------------
    async def answer(self, conn: Outbox, seat: int, accept: bool) -> bool:
        """The host's answer (under the actor's lock); True when refused (the socket counts
        a strike)."""
        table = self.table
        refusal = self._cannot_answer(conn, seat)
        if refusal is not None:
            return self._refuse(conn, *refusal)
        request = self.requests[seat]
        if not accept:
            self._drop_request(seat, "seat_declined", "the host declined your request")
            log.info("table %s: seat %d request declined", table.id, seat)
            return False
        chair = table.seats[seat]
        try:
            await self.journal.call(
                self.journal.store.save_seat, table.id,
                SeatRecord(seat, HUMAN, request.name, request.token_hash),
                self.journal.fence(),
            )
        except StorageError:
            conn.push(error_frame(
                "storage_unavailable", "the seat could not be saved; try again",
                {"retryable": True}, table.version,
            ))
            return False
        del self.requests[seat]
        chair.kind, chair.name, chair.token_hash = HUMAN, request.name, request.token_hash
        chair.zombie = False
        await self.note_holders([seat])
        for waiting, asked in list(self.asking.items()):
            if asked == seat:
                del self.asking[waiting]
                waiting.seat = seat
        log.info("table %s: seat %d handed over with the host's consent", table.id, seat)
        self._seated()  # each socket, the newcomer's too, gets its own seat's view
        return False

    def _cannot_answer(self, conn: Outbox, seat: int) -> tuple[str, str] | None:
        table = self.table
        if conn.seat is None or conn.seat != table.host or conn not in self.audience.connections:
            return "not_host", "only the host may answer a request for a seat"
        if seat not in self.requests:
            return "no_request", "nobody is asking for this seat"
        if not self._playing() or table.seats[seat].kind != OPEN:
            return "no_request", "nobody is asking for this seat"
        return None

    def _drop_request(self, seat: int, code: str, message: str) -> None:
        self.requests.pop(seat, None)
        for waiting, asked in list(self.asking.items()):
            if asked == seat:
                del self.asking[waiting]
                waiting.push(error_frame(code, message, {}, self.table.version))
                waiting.close(CLOSE_DECLINED, message)

    def forget_asker(self, conn: Outbox) -> None:
        self.asking.pop(conn, None)

    def seat_left(self, seat: int) -> None:
        """A seat was freed: a request for it (none can exist yet) and a host change are
        told to whoever hosts now."""
        self._tell_host()

    def host_arrived(self, conn: Outbox) -> None:
        if conn.seat is not None and conn.seat == self.table.host and self.requests:
            self._tell_host(only=conn)

    async def note_holders(self, seats: list[int]) -> None:
        """Write who holds ``seats`` from the current version on (a failure is logged:
        the seat itself was stored, only its history line is missing)."""
        table = self.table
        holders = [
            SeatHolder(
                n, table.version, BOT if table.seats[n].kind != HUMAN else HUMAN,
                table.seats[n].name if table.seats[n].kind == HUMAN else "",
            )
            for n in seats
        ]
        try:
            await self.journal.call(
                self.journal.store.add_holders, table.id, holders, self.journal.fence()
            )
        except StorageError as error:
            log.warning("table %s: seat history not written (%s)", table.id, error)


async def seat_history(journal: Journal, table_id: str) -> list[SeatHolder]:
    """Who held each seat of a game from which version on (public: names only); 404 when
    there is no such game."""
    if len(table_id) > 32:
        raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
    found = await journal.call(journal.store.holders, table_id)
    if not found and await journal.call(journal.store.load, table_id) is None:
        raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
    return found
