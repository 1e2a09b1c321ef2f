"""One table's play: the table actor.

Everything that changes a table in play goes through its actor, under the table's lock:
each client message is checked in one fixed order (shape → token → game over → whose turn →
legal action → state version), committed to the store, and only then applied and broadcast,
each connection getting its own seat's view. So two tabs sending different moves on the same
version see exactly one of them applied.

Bots fill the seats nobody took, play for a player whose clock ran out while away (zombie
mode, until they return) and for a seat whose player left.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pydantic import JsonValue

from kingsbreakfast.bots import IsmctsBot
from kingsbreakfast.engine import CARD_IDS, Action, IllegalActionError, State

from .lobby import LobbyError, is_turn_based
from .persistence import Journal
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
    Sync,
    error_frame,
    pong_frame,
)

log = logging.getLogger("kingsbreakfast.server")

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

    def keep(self, task: asyncio.Task[None]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class TableActor:
    """The one place a table in memory changes."""

    def __init__(self, table: Table, journal: Journal, hall: Hall) -> None:
        self.table = table
        self.journal = journal
        self.hall = hall

    # -- seats ----------------------------------------------------------------------------
    async def claim_seat(self, display: str, token: str | None = None) -> tuple[int, str]:
        """The first open seat goes to ``display``: in the lobby, or a seat left in play."""
        table = self.table
        async with table.lock:
            if table.status == OVER:
                raise LobbyError(409, "game_over", "this game is over")
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
            log.info("table %s started", table.id)
            self.schedule()  # first: the frame carries the new clock
            self.broadcast()

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, hello: Hello) -> int | None:
        """The seat a hello's token holds; None for a spectator; ProtocolError otherwise."""
        if hello.token is None:
            return None
        number = self.table.seat_of(hello.token)
        if number is None:
            raise ProtocolError("bad_token", "this token holds no seat at this table")
        return number

    def attach(self, conn: Outbox) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync)."""
        table = self.table
        table.connections.add(conn)
        if conn.seat is not None and table.seats[conn.seat].zombie:
            table.seats[conn.seat].zombie = False
        self.schedule()
        self.broadcast()

    def detach(self, conn: Outbox) -> bool:
        """A connection leaves; True when it was the last watcher of a finished game."""
        table = self.table
        if conn not in table.connections:
            return False
        table.connections.discard(conn)
        if table.status == OVER and not table.connections:
            return True
        if not self.hall.closing:
            self.schedule()  # first: the frame carries the new clock
            self.broadcast()
        return False

    async def receive(self, conn: Outbox, message: Message) -> None:
        """One parsed client message (shape was checked by the parser)."""
        table = self.table
        if isinstance(message, Ping):
            conn.push(pong_frame(table.version))
        elif isinstance(message, Sync):
            conn.push(state_frame(table, conn.seat))
        elif isinstance(message, Hello):
            self._refuse(conn, "already_greeted", "this connection already said hello")
        elif isinstance(message, Act):
            await self._uncancellable(self._act(conn, message))

    async def _uncancellable(self, work: Coroutine[Any, Any, None]) -> None:
        """Run a check-commit-apply step to its end even if the caller is cancelled (a socket
        closing, a timer being reset): a commit whose apply was cut off would leave the
        memory behind the database."""
        task = asyncio.get_running_loop().create_task(work)
        self.hall.keep(task)
        await asyncio.shield(task)

    def _refuse(
        self, conn: Outbox, code: str, message: str, resync: bool = False,
        **params: JsonValue,
    ) -> None:
        conn.push(error_frame(code, message, params, self.table.version))
        if resync:
            conn.push(state_frame(self.table, conn.seat))

    async def _act(self, conn: Outbox, act: Act) -> None:
        table = self.table
        async with table.lock:
            # token: the connection was authenticated for one seat; it acts for that seat
            # only, and only while its token still holds it.
            seat = conn.seat
            if seat is None:
                self._refuse(conn, "spectator", "spectators cannot play")
                return
            if conn not in table.connections:
                self._refuse(conn, "bad_token", "this token no longer holds a seat")
                return
            state = table.state
            if state is None or table.status == LOBBY:
                self._refuse(conn, "not_started", "the game has not started yet")
                return
            if state.is_over:
                self._refuse(conn, "game_over", "the game is over", resync=True)
                return
            if state.to_move != seat:
                self._refuse(
                    conn, "not_your_turn", "it is not your turn", resync=True,
                    to_move=state.to_move,
                )
                return
            trial = state.clone()
            try:
                trial.play(act.action, seat=seat)
            except IllegalActionError as error:
                self._refuse(conn, error.code, error.message, **error.params)
                return
            if act.version != table.version:
                self._refuse(
                    conn, "stale_version",
                    "the game moved on since you chose this move", resync=True,
                    yours=act.version, current=table.version,
                )
                return
            await self._commit(seat, act.action, trial, conn)

    async def _commit(
        self, seat: int, action: Action, trial: State, conn: Outbox | None
    ) -> bool:
        """Commit, then apply and broadcast; on a database fault nothing changes."""
        table = self.table
        try:
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
        connections = list(self.table.connections)
        frames = state_frames(self.table, {conn.seat for conn in connections})
        for conn in connections:
            conn.push(frames[conn.seat])

    # -- bots, clocks and zombies --------------------------------------------------------
    def stop(self) -> None:
        """No more bot turns or clocks for this table (closing, or handing it over)."""
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
