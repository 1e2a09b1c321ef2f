"""One table's play and life: the table actor.

Everything that changes a table in memory goes through its actor, under the actor's lock:
each client message is checked in one fixed order (shape → token → game over → whose turn →
legal action → state version), committed to the store, and only then applied and broadcast,
each connection getting its own seat's view. So two tabs sending different moves on the same
version see exactly one of them applied.

The actor owns the table's :class:`~.lifecycle.Phase` and its one way out of memory,
:meth:`TableActor.close`. It holds the record (:class:`~.tables.Table`), the runtime no one
else touches (lock, timer, bots, the bots' generator) and the sockets
(:class:`~.audience.Audience`); presence, refusals and seat requests are its components
(:mod:`.presence`, :mod:`.answers`, :mod:`.consent`).

Bots fill the seats nobody took, play for a player whose clock ran out while away (zombie
mode, until they return) and for a seat whose player left. A bot whose registry entry says it
thinks long plays in the process's bot thread, so the event loop every table shares stays free.

The order of checks, commit-then-broadcast, the bots' turns and the phase changes share the
lock and are read together here; what needs only the table is in :mod:`.seating`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

from pydantic import JsonValue

from kingsbreakfast.bots import Bot, find_bot, make_bot
from kingsbreakfast.engine import CARD_IDS, Action, IllegalActionError, State

from . import metrics
from .answers import Answers
from .audience import Audience, Outbox
from .consent import SeatConsent
from .hall import Dealer, Hall
from .lifecycle import Closed, CloseReason, Phase
from .lobby import LobbyError, is_turn_based
from .persistence import Journal
from .presence import Fanout, Presence, WatcherFrame
from .seating import bot_action, dealt_seats, store_seat
from .store import LeaseLost, SeatRecord, StorageError
from .tables import HUMAN, OPEN, Table, new_token, state_frame, state_frames, token_digest
from .wire import (
    CLOSE_LEFT,
    CLOSE_MOVED,
    Act,
    Hello,
    Message,
    Ping,
    ProtocolError,
    SeatAnswer,
    Sync,
    TableInfo,
    pong_frame,
)

log = logging.getLogger("kingsbreakfast.server")

T = TypeVar("T")
MOVED = "this table moved to another server: reconnect"


class TableActor:
    """The one place a table in memory changes."""

    def __init__(self, table: Table, journal: Journal, hall: Hall) -> None:
        self.table = table
        self.journal = journal
        self.hall = hall
        self.phase = Phase(table.status)
        # the runtime: nobody but the actor touches these
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None
        """The pending bot move or clock of the player to move."""
        self.bots: dict[int, Bot] = {}
        """Once dealt, a bot per seat: it plays when the seat is a bot's, a zombie's or empty."""
        self.rng = random.Random(secrets.randbits(64))
        """The bots' generator: seeded from the system, never sent anywhere."""
        self.active_at = time.monotonic()
        """When someone last did something here (monotonic seconds): an idle lobby expires."""
        self.reconnect_until = 0.0
        """Wall-clock time until which a seat's absent player counts as reconnecting (set
        by :meth:`taken_over`): their turn waits at least that long."""
        self._thinks_long = find_bot(table.bot_level).thinks_long
        if table.state is not None:
            self._make_bots()
        # the transport and the components
        self._timed_out: set[int] = set()
        """Seats whose player's time ran out in this game (a bot moved for them)."""
        self.audience = Audience()
        self.presence = Presence(table, self.audience)
        self.answers = Answers(table, self.audience)
        self.consent = SeatConsent(
            table, journal, self.audience,
            playing=lambda: self.phase is Phase.PLAYING, seated=self._changed,
            refuse=self._refuse,
        )
        self._watchers = WatcherFrame(table, self.audience)
        self.fanout = Fanout(self.answers.sent)

    def _make_bots(self) -> None:
        self.bots = {n: make_bot(self.table.bot_level) for n in range(self.table.num_seats)}

    def public_info(self) -> TableInfo:
        return self.table.public_info(self.audience.present())

    # -- the phase --------------------------------------------------------------------------
    def _enter(self, phase: Phase) -> None:
        """A stored phase reached: the record's status follows (a table already closing
        keeps closing; only its stored status changes)."""
        self.table.status = phase.value
        if self.phase.open:
            self.phase = phase

    def close(self, reason: CloseReason) -> None:
        """The one way a table leaves memory: no more bot turns, clocks or presence updates,
        the sockets told as ``reason`` says, then announced (the registry forgets the table
        and gives its lease back as the reason asks). Idempotent; takes no lock, so it may
        be called from under the actor's own (a commit fenced off)."""
        if not self.phase.open:
            return
        self.phase = Phase.CLOSING
        self.presence.stop()
        self.fanout.stop()
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        tells = reason.tells
        if tells is not None:
            self.audience.close_all(*tells)
        self.phase = Phase.GONE
        log.info("table %s: closed (%s)", self.table.id, reason.value)
        self.hall.events.closed.emit(Closed(self, reason))

    async def expire(self) -> bool:
        """Delete and close a lobby table that never started; False once it has started."""
        async with self.lock:
            if self.phase is not Phase.LOBBY:
                return False
            await self.journal.call(self.journal.store.discard_lobby, self.table.id)
            self.close(CloseReason.EXPIRED)
        return True

    # -- seats ----------------------------------------------------------------------------
    async def claim_seat(
        self, display: str, token: str | None = None, holder: str | None = None,
        distinct: bool = False,
    ) -> tuple[int, str]:
        """The first open seat to ``display`` in the lobby; in play a seat left is asked for
        and the host decides (:mod:`.consent`). ``token``: the seat's (an account's), else
        new; ``holder``: one the newcomer has, refused if it holds a seat here; ``distinct``:
        a name taken here told apart (``Alex (2)``), not refused (play now's strangers)."""
        table = self.table
        async with self.lock:
            self.active_at = time.monotonic()
            if self.phase is Phase.OVER:
                raise LobbyError(409, "game_over", "this game is over")
            if self.phase is Phase.PLAYING:
                return self.consent.ask(display, holder, token)
            if holder is not None and table.seat_of(holder) is not None:
                raise LobbyError(409, "already_seated", "you already hold a seat at this table")
            free = [n for n, s in enumerate(table.seats) if s.kind == OPEN]
            if not free:
                raise LobbyError(409, "table_full", "every seat at this table is taken")
            if distinct:
                display = table.distinct_name(display)
            if table.name_taken(display):
                raise LobbyError(409, "seat_name_taken", "a player at this table has this name")
            number = free[0]
            token = token or new_token()
            await store_seat(self.journal, table, SeatRecord(
                number, HUMAN, display, token_digest(token)))
            table.seats[number].zombie = False
            log.info("table %s: seat %d joined", table.id, number)
            self._changed()
        return number, token

    async def open_seat_locked(self, number: int, why: str, keep_name: bool = False) -> None:
        """Seat ``number`` opened (stored, put back if refused), sockets closed with ``why``,
        under the caller's lock; ``keep_name``: the leaver's name stays on the seat."""
        name = self.table.seats[number].name if keep_name else ""
        await store_seat(self.journal, self.table, SeatRecord(number, OPEN, name, None))
        for conn in [c for c in self.audience.connections if c.seat == number]:
            self.audience.connections.discard(conn)
            conn.close(CLOSE_LEFT, why)

    async def free_seat(self, token: str) -> None:
        """Free the token's seat (in play, its name stays: "Bot (was Ann)"); sockets closed."""
        table = self.table
        async with self.lock:
            number = table.seat_of(token)
            if number is None:
                raise LobbyError(403, "bad_token", "this token holds no seat at this table")
            if self.phase is Phase.OVER:
                raise LobbyError(409, "game_over", "this game is over")
            await self.open_seat_locked(number, "you left this seat", self.phase is Phase.PLAYING)
            log.info("table %s: seat %d left", table.id, number)
            if self.phase is Phase.PLAYING:
                await self.consent.note_holders([number])  # a bot holds it from here
                self.consent.seat_left(number)
            self._changed()

    async def deal(self, token: str, dealer: Dealer) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        table = self.table
        async with self.lock:
            number = table.seat_of(token)
            if number is None:
                raise LobbyError(403, "bad_token", "this token holds no seat at this table")
            if number != table.host:
                raise LobbyError(403, "not_host", "only the host may start the game")
            if self.phase is not Phase.LOBBY:
                raise LobbyError(409, "already_started", "this game has already started")
            await self.deal_locked(dealer)

    async def deal_locked(self, dealer: Dealer, public: bool | None = None) -> None:
        """The deal, under the caller's lock (the host's, or play now's: ``public``, listed)."""
        table = self.table
        deck, first_cook = dealer(table.num_seats)
        state = State(deck, table.num_seats, first_cook, table.rules)
        seats, records = dealt_seats(table)
        await self.journal.call(
            self.journal.store.start_game, table.id, tuple(CARD_IDS[c] for c in deck),
            first_cook, records, self.journal.fence(), public,
        )
        table.seats, table.public = seats, table.public if public is None else public
        table.state = state
        self._enter(Phase.PLAYING)
        self._make_bots()
        await self.consent.note_holders(list(range(table.num_seats)))
        log.info("table %s started", table.id)
        self._changed()

    def _changed(self) -> None:
        """Seats or phase changed: the next turn first (the frame has its clock), then views."""
        self.schedule()
        self.broadcast()

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, hello: Hello) -> int | None:
        """The seat a hello's token holds; None: a spectator (or an asker); else refused."""
        if hello.token is None or self.consent.asked_with(hello.token) is not None:
            return None
        number = self.table.seat_of(hello.token)
        if number is None:
            raise ProtocolError("bad_token", "this token holds no seat at this table")
        return number

    def attach(self, conn: Outbox, hello: Hello | None = None) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync).
        If the table left memory meanwhile (moved to another process), the client is told
        to reconnect."""
        if not self.phase.open:
            conn.close(CLOSE_MOVED, MOVED)
            return
        table = self.table
        self.active_at = time.monotonic()
        self.audience.connections.add(conn)
        consent = self.consent
        asked = None if hello is None or conn.seat is not None else consent.asked_with(hello.token)
        if asked is not None:
            consent.greet_asker(conn, asked)
        if conn.seat is not None:
            table.seats[conn.seat].zombie = False
            # first: the frame carries the new clock. Only a player changes whose turn waits
            # on whom: a spectator rescheduling would restart a bot's wait, and a crowd of
            # them arriving would stall the table.
            self.schedule()
            self.presence.changed()  # the others hear of it in a small batched update
        conn.push(
            self._watchers.frame() if conn.seat is None
            else state_frame(table, conn.seat, self.audience.present())
        )
        self.answers.sent(conn)
        consent.host_arrived(conn)

    def detach(self, conn: Outbox) -> None:
        """A connection leaves; the last watcher of a finished game retires the table (it
        lives on in the archive)."""
        connections = self.audience.connections
        if conn not in connections:
            return
        connections.discard(conn)
        self.answers.forget(conn)
        self.consent.forget_asker(conn)
        if self.phase is Phase.OVER and not connections:
            self.close(CloseReason.RETIRED)
        elif self.phase.open and conn.seat is not None:
            self.schedule()  # first: the presence update carries the new clock
            self.presence.changed()

    async def receive(self, conn: Outbox, message: Message) -> bool:
        """One parsed client message (shape was checked by the parser); True when it was
        refused (the socket counts it toward its strike limit)."""
        if not self.phase.open:  # moved while the socket was open
            conn.close(CLOSE_MOVED, MOVED)
            return False
        if isinstance(message, Ping):
            conn.push(pong_frame())
        elif isinstance(message, Sync):
            # one fresh frame per version; asked again at the same version, the client
            # already has it: the version alone answers, once (:mod:`.answers`)
            return self.answers.synced(conn)
        elif isinstance(message, Hello):
            return self._refuse(conn, "already_greeted", "this connection already said hello")
        elif isinstance(message, Act):
            return await self._uncancellable(self._act(conn, message))
        elif isinstance(message, SeatAnswer):
            return await self._uncancellable(self._answer(conn, message))
        return False

    async def _uncancellable(self, work: Coroutine[Any, Any, T]) -> T:
        """Run a check-commit-apply step to its end even if the caller is cancelled (a socket
        closing, a timer being reset): a commit whose apply was cut off would leave the
        memory behind the database."""
        task = asyncio.get_running_loop().create_task(work)
        self.hall.keep(task)
        return await asyncio.shield(task)

    def _refuse(
        self, conn: Outbox, code: str, message: str, resync: bool = False,
        **params: JsonValue,
    ) -> bool:
        """A refusal, told small (:mod:`.answers`); True, for the strike count."""
        self.answers.refuse(conn, code, message, params, resync)
        return True

    async def _answer(self, conn: Outbox, answer: SeatAnswer) -> bool:
        async with self.lock:
            return await self.consent.answer(conn, answer.seat, answer.accept)

    async def _act(self, conn: Outbox, act: Act) -> bool:
        table = self.table
        async with self.lock:
            # token: the connection was authenticated for one seat; it acts for that seat
            # only, and only while its token still holds it.
            seat = conn.seat
            if seat is None:
                return self._refuse(conn, "spectator", "spectators cannot play")
            if conn not in self.audience.connections:
                return self._refuse(conn, "bad_token", "this token no longer holds a seat")
            state = table.state
            if state is None or self.phase is Phase.LOBBY:
                return self._refuse(conn, "not_started", "the game has not started yet")
            behind = act.version != table.version
            if self.phase is Phase.OVER:
                return self._refuse(conn, "game_over", "the game is over", resync=behind)
            if self.phase is not Phase.PLAYING:  # closed while this move waited for the lock
                conn.close(CLOSE_MOVED, MOVED)
                return False
            if state.to_move != seat:
                return self._refuse(
                    conn, "not_your_turn", "it is not your turn", resync=behind,
                    to_move=state.to_move,
                )
            trial = state.clone()
            try:
                trial.play(act.action, seat=seat)
            except IllegalActionError as error:
                return self._refuse(conn, error.code, error.message, **error.params)
            if behind:
                return self._refuse(
                    conn, "stale_version",
                    "the game moved on since you chose this move", resync=True,
                    yours=act.version, current=table.version,
                )
            await self._commit(seat, act.action, trial, conn)
            return False

    async def _commit(
        self, seat: int, action: Action, trial: State, conn: Outbox | None
    ) -> bool:
        """Commit, then apply and broadcast; on a database fault nothing changes."""
        table = self.table
        started = time.perf_counter()
        try:
            await self.journal.append(table.id, table.version, seat, int(action), trial.is_over)
        except StorageError as error:
            metrics.committed(started)
            log.warning("table %s: commit refused (%s)", table.id, error)
            if isinstance(error, LeaseLost):  # another process owns the table now
                self.close(CloseReason.LET_GO)
            if conn is not None:
                self._refuse(
                    conn, error.code,
                    "the move could not be saved; try again in a moment", retryable=True,
                )
            return False
        metrics.committed(started)
        table.state = trial
        table.version += 1
        metrics.moved()
        table.deadline = None  # a new turn starts a new clock
        if trial.is_over:
            self._enter(Phase.OVER)
            log.info("table %s: game over after %d actions", table.id, table.version)
            self.hall.events.game_over.emit(table)
        self.schedule()
        self.broadcast()
        return True

    def broadcast(self) -> None:
        # players first, now; a crowd of spectators after, a chunk at a time (presence.Fanout)
        connections = list(self.audience.connections)
        present = self.audience.present()
        frames = state_frames(self.table, set(present), present)
        watchers = []
        for conn in connections:
            if conn.seat is None:
                watchers.append(conn)
            else:
                conn.push(frames[conn.seat])
                self.answers.sent(conn)
        self.fanout.send(watchers, frames.get(None, ""))
        self.presence.told_in_full()

    # -- bots, clocks and zombies --------------------------------------------------------
    def taken_over(self) -> None:
        """Brought back from the store mid-game (a takeover, a restart): its players get
        ``reconnect_grace`` to find this process before their turn is played for them."""
        self.reconnect_until = self.hall.wall_clock() + self.hall.reconnect_grace

    def schedule(self) -> None:
        """Decide who plays next and when: a bot now, a human until the clock runs out."""
        table = self.table
        hall = self.hall
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        state = table.state
        if self.phase is not Phase.PLAYING or state is None:
            table.deadline = None
            return
        seat_no = state.to_move
        assert seat_no is not None
        seat = table.seats[seat_no]
        version = table.version
        connected = self.audience.connected(seat_no)
        if seat.kind != HUMAN or (seat.zombie and not connected):
            table.deadline = None
            delay = hall.bot_delay
        elif table.clock_seconds is not None:
            if table.deadline is None:
                table.deadline = max(hall.wall_clock() + table.clock_seconds,
                                     self.reconnect_until)
                hall.events.clock_started.emit(table)
            delay = max(0.0, table.deadline - hall.wall_clock())
        elif not connected:
            table.deadline = None
            delay = max(hall.zombie_grace, self.reconnect_until - hall.wall_clock())
        else:
            table.deadline = None
            return
        self.timer = asyncio.get_running_loop().create_task(
            self._bot_turn(seat_no, version, delay)
        )

    async def _bot_turn(self, seat_no: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._uncancellable(self._bot_move(seat_no, version))

    async def _bot_move(self, seat_no: int, version: int) -> None:
        table = self.table
        async with self.lock:
            state = table.state
            if state is None or table.version != version or state.to_move != seat_no:
                return
            seat = table.seats[seat_no]
            if seat.kind == HUMAN and self.audience.connected(seat_no):
                # The player came back while this move waited (the timer may already have
                # been past cancelling): their turn is theirs unless their own clock ran out.
                if table.deadline is None or self.hall.wall_clock() < table.deadline:
                    return
            elif seat.kind == HUMAN and not is_turn_based(table.clock_seconds):
                seat.zombie = True  # away when the clock ran out: a bot plays until return
            # (at a turn-based table a bot plays only the move whose clock ran out: nobody
            # is expected to be there between moves)
            action, trial = await bot_action(
                table, seat_no, self.bots[seat_no], self.rng.getrandbits(64),
                self.hall.bot_thread if self._thinks_long else None,
            )
            committed = await self._commit(seat_no, action, trial, None)
            if committed and seat.kind == HUMAN and seat_no not in self._timed_out:
                # the player's time ran out: told once, and only by the process whose move
                # for them was stored (one that froze and lost the table meanwhile wakes up
                # to a refused commit, and must not call its players leavers)
                self._timed_out.add(seat_no)
                self.hall.events.timed_out.emit((table, seat_no))
            if not committed and self.phase is Phase.PLAYING:
                # the database is away: try again a little later
                self.timer = asyncio.get_running_loop().create_task(
                    self._bot_turn(seat_no, version, max(self.hall.bot_delay, 1.0))
                )
