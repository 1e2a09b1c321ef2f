"""One table's play: the table actor.

Everything that changes a table in play goes through its actor, under the table's lock:
each client message is checked in one fixed order (shape → token → game over → whose turn →
legal action → state version), committed to the store, and only then applied and broadcast,
each connection getting its own seat's view. So two tabs sending different moves on the same
version see exactly one of them applied.

Bots fill the seats nobody took, play for a player whose clock ran out while away (zombie
mode, until they return) and for a seat whose player left.

Why a little over 400 lines: the order of checks, commit-then-broadcast and the bots' turns
share the table's lock and must be read together; what could stand apart already does
(presence in :mod:`.presence`, refusals in :mod:`.answers`, seat requests in
:mod:`.consent`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import JsonValue

from kingsbreakfast.bots import IsmctsBot
from kingsbreakfast.engine import CARD_IDS, Action, IllegalActionError, State

from . import metrics
from .answers import Answers
from .consent import SeatConsent
from .lobby import LobbyError, is_turn_based
from .persistence import Journal
from .presence import Fanout, Presence, WatcherFrame
from .restore import make_bots
from .store import LeaseLost, SeatRecord, StorageError
from .tables import (
    BOT,
    HUMAN,
    LOBBY,
    OPEN,
    OVER,
    PLAYING,
    Outbox,
    Seat,
    Table,
    new_token,
    state_frame,
    state_frames,
    token_digest,
)
from .wire import (
    CLOSE_LEFT,
    Act,
    Hello,
    Message,
    Ping,
    ProtocolError,
    SeatAnswer,
    Sync,
    pong_frame,
)

log = logging.getLogger("kingsbreakfast.server")

T = TypeVar("T")
Dealer = Callable[[int], tuple[tuple[int, ...], int]]  # a shuffled deck and the first cook


@dataclass(slots=True)
class Hall:
    """What every table of one process shares: the bots' pace, the clocks' time, the thread
    a searching bot thinks in, and the work in flight that closing must wait for."""

    bot_delay: float = 0.6
    """Seconds a bot waits before moving, so people can follow the game."""
    zombie_grace: float = 30.0
    """How long a disconnected player's turn waits when the table has no clock."""
    wall_clock: Callable[[], float] = time.time
    closing: bool = False
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    lease_lost: Callable[[str], None] = lambda _table_id: None
    """Told when a write was fenced off: the table belongs to another process now."""
    game_over: Callable[[Table], None] = lambda _table: None
    """Told when a table's last action was stored (results and ratings)."""
    clock_started: Callable[[Table], None] = lambda _table: None
    """Told when a turn's clock starts (turn-based tables store the deadline)."""
    bot_thread: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-bot")
    )

    def keep(self, task: asyncio.Task[Any]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class TableActor(SeatConsent):
    """The one place a table in memory changes."""

    def __init__(self, table: Table, journal: Journal, hall: Hall) -> None:
        self.table = table
        self.journal = journal
        self.hall = hall
        self.presence = Presence(table)
        self._consent_init()
        self.answers = Answers(table)
        self._watchers = WatcherFrame(table)
        self.fanout = Fanout(self.answers.sent)

    # -- seats ----------------------------------------------------------------------------
    async def claim_seat(
        self, display: str, token: str | None = None, holder: str | None = None
    ) -> tuple[int, str]:
        """The first open seat goes to ``display`` in the lobby; during play a seat left is
        only asked for, and the host decides (:mod:`.consent`). ``token``: the seat token to
        use (an account's), else a new one; ``holder``: a token the newcomer already has,
        refused if it holds a seat here (one person, one seat)."""
        table = self.table
        async with table.lock:
            if table.status == OVER:
                raise LobbyError(409, "game_over", "this game is over")
            if table.status == PLAYING:
                return self.ask(display, holder, token)
            if holder is not None and table.seat_of(holder) is not None:
                raise LobbyError(409, "already_seated", "you already hold a seat at this table")
            free = [n for n, s in enumerate(table.seats) if s.kind == OPEN]
            if not free:
                raise LobbyError(409, "table_full", "every seat at this table is taken")
            number = free[0]
            token = token or new_token()
            seat = table.seats[number]
            old = (seat.kind, seat.name, seat.token_hash)
            seat.kind, seat.name, seat.token_hash = HUMAN, display, token_digest(token)
            try:
                await self.journal.call(
                    self.journal.store.save_seat, table.id,
                    SeatRecord(number, HUMAN, display, seat.token_hash), self.journal.fence(),
                )
            except StorageError:
                seat.kind, seat.name, seat.token_hash = old
                raise
            seat.zombie = False
            log.info("table %s: seat %d joined", table.id, number)
            self.schedule()  # first: the frame carries the new clock
            self.broadcast()
        return number, token

    async def free_seat(self, token: str) -> None:
        """Free the token's seat and invalidate the token; its sockets are closed."""
        table = self.table
        async with table.lock:
            number = table.seat_of(token)
            if number is None:
                raise LobbyError(403, "bad_token", "this token holds no seat at this table")
            if table.status == OVER:
                raise LobbyError(409, "game_over", "this game is over")
            seat = table.seats[number]
            old = (seat.kind, seat.name, seat.token_hash)
            seat.kind, seat.name, seat.token_hash = OPEN, "", None
            try:
                await self.journal.call(
                    self.journal.store.save_seat, table.id, SeatRecord(number, OPEN, "", None),
                    self.journal.fence(),
                )
            except StorageError:
                seat.kind, seat.name, seat.token_hash = old
                raise
            for conn in [c for c in table.connections if c.seat == number]:
                table.connections.discard(conn)
                conn.close(CLOSE_LEFT, "you left this seat")
            log.info("table %s: seat %d left", table.id, number)
            if table.status == PLAYING:
                await self.note_holders([number])  # a bot holds it from here
                self.seat_left(number)
            self.schedule()  # first: the frame carries the new clock
            self.broadcast()

    async def deal(self, token: str, dealer: Dealer) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        table = self.table
        async with table.lock:
            number = table.seat_of(token)
            if number is None:
                raise LobbyError(403, "bad_token", "this token holds no seat at this table")
            if number != table.host:
                raise LobbyError(403, "not_host", "only the host may start the game")
            if table.status != LOBBY:
                raise LobbyError(409, "already_started", "this game has already started")
            deck, first_cook = dealer(table.num_seats)
            state = State(deck, table.num_seats, first_cook, table.rules)
            seats = [
                Seat(BOT, "") if s.kind == OPEN else Seat(s.kind, s.name, s.token_hash)
                for s in table.seats
            ]
            records = [
                SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(seats)
            ]
            await self.journal.call(
                self.journal.store.start_game, table.id, tuple(CARD_IDS[c] for c in deck),
                first_cook, records, self.journal.fence(),
            )
            table.seats = seats
            table.state = state
            table.status = PLAYING
            make_bots(table)
            await self.note_holders(list(range(table.num_seats)))
            log.info("table %s started", table.id)
            self.schedule()  # first: the frame carries the new clock
            self.broadcast()

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, hello: Hello) -> int | None:
        """The seat a hello's token holds; None for a spectator (or a newcomer whose request
        for a seat waits for the host); ProtocolError otherwise."""
        if hello.token is None or self.asked_with(hello.token) is not None:
            return None
        number = self.table.seat_of(hello.token)
        if number is None:
            raise ProtocolError("bad_token", "this token holds no seat at this table")
        return number

    def attach(self, conn: Outbox, hello: Hello | None = None) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync)."""
        table = self.table
        table.connections.add(conn)
        asked = None if hello is None or conn.seat is not None else self.asked_with(hello.token)
        if asked is not None:
            self.greet_asker(conn, asked)
        if conn.seat is not None:
            table.seats[conn.seat].zombie = False
            # first: the frame carries the new clock. Only a player changes whose turn waits
            # on whom: a spectator rescheduling would restart a bot's wait, and a crowd of
            # them arriving would stall the table.
            self.schedule()
            self.presence.changed()  # the others hear of it in a small batched update
        conn.push(self._watchers.frame() if conn.seat is None else state_frame(table, conn.seat))
        self.answers.sent(conn)
        self.host_arrived(conn)

    def detach(self, conn: Outbox) -> bool:
        """A connection leaves; True when it was the last watcher of a finished game."""
        table = self.table
        if conn not in table.connections:
            return False
        table.connections.discard(conn)
        self.answers.forget(conn)
        self.forget_asker(conn)
        if table.status == OVER and not table.connections:
            return True
        if not self.hall.closing and conn.seat is not None:
            self.schedule()  # first: the presence update carries the new clock
            self.presence.changed()
        return False

    async def receive(self, conn: Outbox, message: Message) -> bool:
        """One parsed client message (shape was checked by the parser); True when it was
        refused (the socket counts it toward its strike limit)."""
        table = self.table
        if isinstance(message, Ping):
            conn.push(pong_frame(table.version))
        elif isinstance(message, Sync):
            # one fresh frame per version; asked again at the same version, the client
            # already has it: the version alone answers
            if not self.answers.resync(conn):
                conn.push(pong_frame(table.version))
        elif isinstance(message, Hello):
            return self._refuse(conn, "already_greeted", "this connection already said hello")
        elif isinstance(message, Act):
            return await self._uncancellable(self._act(conn, message))
        elif isinstance(message, SeatAnswer):
            return await self._uncancellable(self.answer(conn, message.seat, message.accept))
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

    async def _act(self, conn: Outbox, act: Act) -> bool:
        table = self.table
        async with table.lock:
            # token: the connection was authenticated for one seat; it acts for that seat
            # only, and only while its token still holds it.
            seat = conn.seat
            if seat is None:
                return self._refuse(conn, "spectator", "spectators cannot play")
            if conn not in table.connections:
                return self._refuse(conn, "bad_token", "this token no longer holds a seat")
            state = table.state
            if state is None or table.status == LOBBY:
                return self._refuse(conn, "not_started", "the game has not started yet")
            behind = act.version != table.version
            if state.is_over:
                return self._refuse(conn, "game_over", "the game is over", resync=behind)
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
        try:
            with metrics.commit_timer():
                await self.journal.append(
                    table.id, table.version, seat, int(action), trial.is_over
                )
        except StorageError as error:
            log.warning("table %s: commit refused (%s)", table.id, error)
            if isinstance(error, LeaseLost):
                self.hall.lease_lost(table.id)
            if conn is not None:
                self._refuse(
                    conn, error.code,
                    "the move could not be saved; try again in a moment", retryable=True,
                )
            return False
        table.state = trial
        table.version += 1
        metrics.moved()
        table.deadline = None  # a new turn starts a new clock
        if trial.is_over:
            table.status = OVER
            table.deadline = None
            log.info("table %s: game over after %d actions", table.id, table.version)
            self.hall.game_over(table)
        self.schedule()
        self.broadcast()
        return True

    def broadcast(self) -> None:
        # players first, now; a crowd of spectators after, a chunk at a time (presence.Fanout)
        connections = list(self.table.connections)
        frames = state_frames(self.table, {conn.seat for conn in connections})
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
    def stop(self) -> None:
        """No more bot turns or clocks for this table (closing, or handing it over)."""
        self.presence.stop()
        self.fanout.stop()
        if self.table.timer is not None:
            self.table.timer.cancel()
            self.table.timer = None

    def schedule(self) -> None:
        """Decide who plays next and when: a bot now, a human until the clock runs out."""
        table = self.table
        hall = self.hall
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        state = table.state
        if hall.closing or state is None or state.is_over or table.status != PLAYING:
            table.deadline = None
            return
        seat_no = state.to_move
        assert seat_no is not None
        seat = table.seats[seat_no]
        version = table.version
        if seat.kind != HUMAN or (seat.zombie and not table.connected(seat_no)):
            table.deadline = None
            delay = hall.bot_delay
        elif table.clock_seconds is not None:
            if table.deadline is None:
                table.deadline = hall.wall_clock() + table.clock_seconds
                hall.clock_started(table)
            delay = max(0.0, table.deadline - hall.wall_clock())
        elif not table.connected(seat_no):
            table.deadline = None
            delay = hall.zombie_grace
        else:
            table.deadline = None
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._bot_turn(seat_no, version, delay)
        )

    async def _bot_turn(self, seat_no: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._uncancellable(self._bot_move(seat_no, version))

    async def _bot_move(self, seat_no: int, version: int) -> None:
        table = self.table
        async with table.lock:
            state = table.state
            if state is None or table.version != version or state.to_move != seat_no:
                return
            seat = table.seats[seat_no]
            if seat.kind == HUMAN and table.connected(seat_no):
                # The player came back while this move waited (the timer may already have
                # been past cancelling): their turn is theirs unless their own clock ran out.
                if table.deadline is None or self.hall.wall_clock() < table.deadline:
                    return
            elif seat.kind == HUMAN and not is_turn_based(table.clock_seconds):
                seat.zombie = True  # away when the clock ran out: a bot plays until return
            # (at a turn-based table a bot plays only the move whose clock ran out: nobody
            # is expected to be there between moves)
            view = state.view(seat_no)
            bot = table.bots[seat_no]
            seed = table.rng.getrandbits(64)
            try:
                if isinstance(bot, IsmctsBot):  # a search takes time: keep the loop free
                    loop = asyncio.get_running_loop()
                    action = await loop.run_in_executor(
                        self.hall.bot_thread, lambda: bot.act(view, random.Random(seed))
                    )
                else:
                    action = bot.act(view, random.Random(seed))
                trial = state.clone()
                trial.play(action, seat=seat_no)
            except Exception:  # a faulty bot must not stall a table: play a legal move
                log.exception("table %s: the %s bot failed", table.id, table.bot_level)
                action = random.Random(seed).choice(view.legal_actions())
                trial = state.clone()
                trial.play(action, seat=seat_no)
            committed = await self._commit(seat_no, action, trial, None)
            if not committed and not self.hall.closing:
                # the database is away: try again a little later
                table.timer = asyncio.get_running_loop().create_task(
                    self._bot_turn(seat_no, version, max(self.hall.bot_delay, 1.0))
                )
