"""The authoritative match master: every table, every seat, every move goes through here.

Each client message is checked in one fixed order (shape → token → game over → whose turn →
legal action → state version), then committed to the database, and only then applied and
broadcast, each connection getting its own seat's view. A table's lock serialises this, so
two tabs sending different moves on the same version see exactly one of them applied.

Bots fill the seats nobody took, play for a player whose clock ran out while away (zombie
mode, until they return) and for a seat whose player left.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Final, ParamSpec, TypeVar

from pydantic import JsonValue
from typing_extensions import TypedDict

from kingsbreakfast.bots import OPPONENT_LEVELS, IsmctsBot, make_bot
from kingsbreakfast.engine import (
    CARD_IDS,
    DISHES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    IllegalActionError,
    KingsBreakfastError,
    Record,
    Rules,
    ScoringDict,
    State,
    shuffled_deck,
)

from .storage import GameRecord, SeatRecord, Storage, StorageError
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
    bot_name,
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
    TableInfo,
    error_frame,
    pong_frame,
)

log = logging.getLogger("kingsbreakfast.server")

MAX_NAME_CHARS: Final = 32
MAX_CLOCK_SECONDS: Final = 3600
MIN_CLOCK_SECONDS: Final = 5

T = TypeVar("T")
P = ParamSpec("P")


class ArchivedGame(TypedDict):
    """A finished public game in the archive list: who played, never the cards."""

    id: str
    num_seats: int
    finished_at: str | None
    players: list[str]


class ReplayStep(TypedDict):
    """A finished game after ``step`` of its ``steps`` actions, every hand shown."""

    step: int
    steps: int
    players: list[str]
    view: dict[str, JsonValue]
    score: ScoringDict | None


class LobbyError(KingsBreakfastError):
    """A lobby request that cannot be granted; ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(message, code, **params)
        self.status = status


def clean_name(name: object) -> str:
    """A display name: 1–32 printable characters, blanks trimmed."""
    if not isinstance(name, str):
        raise LobbyError(422, "bad_name", "the display name must be text")
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME_CHARS:
        raise LobbyError(
            422, "bad_name", f"the display name must have 1 to {MAX_NAME_CHARS} characters",
            limit=MAX_NAME_CHARS,
        )
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise LobbyError(422, "bad_name", "the display name has a control character")
    return text


class Master:
    """All tables of one server process."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.6,
        zombie_grace: float = 30.0,
        wall_clock: Callable[[], float] = time.time,
        dealer: Callable[[int], tuple[tuple[int, ...], int]] | None = None,
    ) -> None:
        self.storage = storage
        self.dealer = dealer or deal
        """Shuffles a deck and picks the first cook for a table of n seats."""
        self.bot_delay = bot_delay
        """Seconds a bot waits before moving, so people can follow the game."""
        self.zombie_grace = zombie_grace
        """How long a disconnected player's turn waits when the table has no clock."""
        self.wall_clock = wall_clock
        self.tables: dict[str, Table] = {}
        # One writer thread: SQLite has one writer anyway and the order of commits stays
        # the order of the tables' locks.
        self._db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-db")
        self._bot_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-bot")
        self._closing = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending: list[tuple[tuple[str, int, int, int, bool], asyncio.Future[None]]] = []
        self._flushing = False

    # -- life cycle -----------------------------------------------------------------------
    async def open(self) -> None:
        """Migrate the schema and bring back every unfinished table (restart recovery)."""
        await self._db(self.storage.migrate)
        for record in await self._db(self.storage.load_unfinished):
            table = self._restore(record)
            self.tables[table.id] = table
            self._schedule(table)
        log.info("resumed %d unfinished tables", len(self.tables))

    async def close(self) -> None:
        self._closing = True
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._bot_thread.shutdown(wait=False, cancel_futures=True)
        self._db_thread.shutdown(wait=True)
        self.storage.dispose()

    async def _db(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, partial(fn, *args, **kwargs))

    async def _append(
        self, game_id: str, number: int, seat: int, action: int, game_over: bool
    ) -> None:
        """Commit one action, grouped with whatever other tables commit at the same moment
        (one transaction for all: the database's cost per move falls as load rises)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(((game_id, number, seat, action, game_over), done))
        if not self._flushing:
            self._flushing = True
            flusher = loop.create_task(self._flush())
            self._tasks.add(flusher)
            flusher.add_done_callback(self._tasks.discard)
        await done

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self._db(
                        self.storage.append_actions, [item for item, _ in batch]
                    )
                except Exception as error:  # the worker itself failed: refuse the batch
                    results = [StorageError(str(error))] * len(batch)
                for (_, done), failure in zip(batch, results, strict=True):
                    if done.done():
                        continue
                    if failure is None:
                        done.set_result(None)
                    else:
                        done.set_exception(failure)
        finally:
            self._flushing = False

    def _restore(self, record: GameRecord) -> Table:
        table = Table(
            id=record.id,
            num_seats=record.num_seats,
            rules=Rules.from_dict(record.rules),
            bot_level=record.bot_level,
            clock_seconds=record.clock_seconds,
            public=record.public,
            seats=[Seat(s.kind, s.name, s.token_hash) for s in record.seats],
            status=record.status,
        )
        if record.deck is not None:
            state = State(record.deck, record.num_seats, record.first_cook, table.rules)
            for seat, action in record.actions:
                state.play(Action(action), seat=seat)
            table.state = state
            table.version = len(record.actions)
            self._make_bots(table)
        return table

    def _make_bots(self, table: Table) -> None:
        for number in range(table.num_seats):
            table.bots[number] = make_bot(table.bot_level)

    # -- lobby ----------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
        return table

    async def find(self, table_id: str) -> Table | None:
        """A table in memory, or a finished one brought back from the archive so a returning
        player still sees the final view and the score."""
        table = self.tables.get(table_id)
        if table is not None or len(table_id) > 32:
            return table
        record = await self._db(self.storage.load, table_id)
        if record is None or record.status != OVER:
            return None
        table = self.tables.setdefault(table_id, self._restore(record))
        return table

    async def create_table(
        self,
        name: str,
        *,
        seats: int,
        rules: dict[str, JsonValue],
        bot_level: str,
        clock_seconds: int | None,
        public: bool,
    ) -> tuple[Table, int, str]:
        """A new table in the lobby with its creator (the host) in seat 0."""
        host_name = clean_name(name)
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
            or not MIN_CLOCK_SECONDS <= clock_seconds <= MAX_CLOCK_SECONDS
        ):
            raise LobbyError(
                422, "bad_clock",
                f"the turn clock is {MIN_CLOCK_SECONDS} to {MAX_CLOCK_SECONDS} seconds, or none",
                min=MIN_CLOCK_SECONDS, max=MAX_CLOCK_SECONDS,
            )
        token = new_token()
        table = Table(
            id=secrets.token_urlsafe(9),
            num_seats=seats,
            rules=parsed_rules,
            bot_level=bot_level,
            clock_seconds=clock_seconds,
            public=public,
            seats=[Seat(HUMAN, host_name, token_digest(token))]
            + [Seat(OPEN, "") for _ in range(seats - 1)],
        )
        await self._db(
            self.storage.create_game,
            table.id,
            num_seats=seats,
            rules=parsed_rules.to_dict(),
            bot_level=bot_level,
            clock_seconds=clock_seconds,
            public=public,
            seats=_seat_records(table),
        )
        self.tables[table.id] = table
        log.info("table %s created (%d seats)", table.id, seats)
        return table, 0, token

    async def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Claim the first open seat: in the lobby, or a seat its player left during play."""
        table = self.get(table_id)
        display = clean_name(name)
        async with table.lock:
            if table.status == OVER:
                raise LobbyError(409, "game_over", "this game is over")
            free = [n for n, s in enumerate(table.seats) if s.kind == OPEN]
            if not free:
                raise LobbyError(409, "table_full", "every seat at this table is taken")
            number = free[0]
            token = new_token()
            seat = table.seats[number]
            old = (seat.kind, seat.name, seat.token_hash)
            seat.kind, seat.name, seat.token_hash = HUMAN, display, token_digest(token)
            try:
                await self._db(
                    self.storage.save_seat, table.id,
                    SeatRecord(number, HUMAN, display, seat.token_hash),
                )
            except StorageError:
                seat.kind, seat.name, seat.token_hash = old
                raise
            seat.zombie = False
            log.info("table %s: seat %d joined", table.id, number)
            self._schedule(table)  # first: the frame carries the new clock
            self._broadcast(table)
        return number, token

    async def leave(self, table_id: str, token: str) -> None:
        """Free the token's seat and invalidate the token; its sockets are closed."""
        table = self.get(table_id)
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
                await self._db(self.storage.save_seat, table.id, SeatRecord(number, OPEN, "", None))
            except StorageError:
                seat.kind, seat.name, seat.token_hash = old
                raise
            for conn in [c for c in table.connections if c.seat == number]:
                table.connections.discard(conn)
                conn.close(CLOSE_LEFT, "you left this seat")
            log.info("table %s: seat %d left", table.id, number)
            self._schedule(table)  # first: the frame carries the new clock
            self._broadcast(table)

    async def start(self, table_id: str, token: str) -> None:
        """The host deals: empty seats get bots, the deck is shuffled here and stays here."""
        table = self.get(table_id)
        async with table.lock:
            number = table.seat_of(token)
            if number is None:
                raise LobbyError(403, "bad_token", "this token holds no seat at this table")
            if number != table.host:
                raise LobbyError(403, "not_host", "only the host may start the game")
            if table.status != LOBBY:
                raise LobbyError(409, "already_started", "this game has already started")
            deck, first_cook = self.dealer(table.num_seats)
            state = State(deck, table.num_seats, first_cook, table.rules)
            seats = [
                Seat(BOT, "") if s.kind == OPEN else Seat(s.kind, s.name, s.token_hash)
                for s in table.seats
            ]
            records = [
                SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(seats)
            ]
            await self._db(
                self.storage.start_game, table.id, tuple(CARD_IDS[c] for c in deck),
                first_cook, records,
            )
            table.seats = seats
            table.state = state
            table.status = PLAYING
            self._make_bots(table)
            log.info("table %s started", table.id)
            self._schedule(table)  # first: the frame carries the new clock
            self._broadcast(table)

    def public_tables(self) -> list[TableInfo]:
        return [
            t.public_info()
            for t in self.tables.values()
            if t.public and t.status in (LOBBY, PLAYING)
        ]

    # -- connections ----------------------------------------------------------------------
    def authenticate(self, table: Table, hello: Hello) -> int | None:
        """The seat a hello's token holds; None for a spectator; ProtocolError otherwise."""
        if hello.token is None:
            return None
        number = table.seat_of(hello.token)
        if number is None:
            raise ProtocolError("bad_token", "this token holds no seat at this table")
        return number

    def attach(self, table: Table, conn: Outbox) -> None:
        """A connection joins: it gets the full current view at once (reconnect = resync)."""
        table.connections.add(conn)
        if conn.seat is not None and table.seats[conn.seat].zombie:
            table.seats[conn.seat].zombie = False
        self._schedule(table)
        self._broadcast(table)

    def detach(self, table: Table, conn: Outbox) -> None:
        if conn not in table.connections:
            return
        table.connections.discard(conn)
        if table.status == OVER and not table.connections:
            # the last watcher of a finished game left: it lives on in the archive only
            self.tables.pop(table.id, None)
            return
        if not self._closing:
            self._schedule(table)  # first: the frame carries the new clock
            self._broadcast(table)

    async def receive(self, table: Table, conn: Outbox, message: Message) -> None:
        """One parsed client message (shape was checked by the parser)."""
        if isinstance(message, Ping):
            conn.push(pong_frame(table.version))
        elif isinstance(message, Sync):
            conn.push(state_frame(table, conn.seat))
        elif isinstance(message, Hello):
            self._refuse(conn, table, "already_greeted", "this connection already said hello")
        elif isinstance(message, Act):
            await self._uncancellable(self._act(table, conn, message))

    async def _uncancellable(self, work: Coroutine[Any, Any, None]) -> None:
        """Run a check-commit-apply step to its end even if the caller is cancelled (a socket
        closing, a timer being reset): a commit whose apply was cut off would leave the
        memory behind the database."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        await asyncio.shield(task)

    def _refuse(
        self, conn: Outbox, table: Table, code: str, message: str, resync: bool = False,
        **params: JsonValue,
    ) -> None:
        conn.push(error_frame(code, message, params, table.version))
        if resync:
            conn.push(state_frame(table, conn.seat))

    async def _act(self, table: Table, conn: Outbox, act: Act) -> None:
        async with table.lock:
            # token: the connection was authenticated for one seat; it acts for that seat
            # only, and only while its token still holds it.
            seat = conn.seat
            if seat is None:
                self._refuse(conn, table, "spectator", "spectators cannot play")
                return
            if conn not in table.connections:
                self._refuse(conn, table, "bad_token", "this token no longer holds a seat")
                return
            state = table.state
            if state is None or table.status == LOBBY:
                self._refuse(conn, table, "not_started", "the game has not started yet")
                return
            if state.is_over:
                self._refuse(conn, table, "game_over", "the game is over", resync=True)
                return
            if state.to_move != seat:
                self._refuse(
                    conn, table, "not_your_turn", "it is not your turn", resync=True,
                    to_move=state.to_move,
                )
                return
            trial = state.clone()
            try:
                trial.play(act.action, seat=seat)
            except IllegalActionError as error:
                self._refuse(conn, table, error.code, error.message, **error.params)
                return
            if act.version != table.version:
                self._refuse(
                    conn, table, "stale_version",
                    "the game moved on since you chose this move", resync=True,
                    yours=act.version, current=table.version,
                )
                return
            await self._commit(table, seat, act.action, trial, conn)

    async def _commit(
        self, table: Table, seat: int, action: Action, trial: State, conn: Outbox | None
    ) -> bool:
        """Commit, then apply and broadcast; on a database fault nothing changes."""
        try:
            await self._append(table.id, table.version, seat, int(action), trial.is_over)
        except StorageError as error:
            log.warning("table %s: commit refused (%s)", table.id, error)
            if conn is not None:
                self._refuse(
                    conn, table, error.code,
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
        self._schedule(table)
        self._broadcast(table)
        return True

    def _broadcast(self, table: Table) -> None:
        connections = list(table.connections)
        frames = state_frames(table, {conn.seat for conn in connections})
        for conn in connections:
            conn.push(frames[conn.seat])

    # -- bots, clocks and zombies --------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        """Decide who plays next and when: a bot now, a human until the clock runs out."""
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        state = table.state
        if self._closing or state is None or state.is_over or table.status != PLAYING:
            table.deadline = None
            return
        seat_no = state.to_move
        assert seat_no is not None
        seat = table.seats[seat_no]
        version = table.version
        if seat.kind != HUMAN or (seat.zombie and not table.connected(seat_no)):
            table.deadline = None
            delay = self.bot_delay
        elif table.clock_seconds is not None:
            if table.deadline is None:
                table.deadline = self.wall_clock() + table.clock_seconds
            delay = max(0.0, table.deadline - self.wall_clock())
        elif not table.connected(seat_no):
            table.deadline = None
            delay = self.zombie_grace
        else:
            table.deadline = None
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._bot_turn(table, seat_no, version, delay)
        )

    async def _bot_turn(self, table: Table, seat_no: int, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._uncancellable(self._bot_move(table, seat_no, version))

    async def _bot_move(self, table: Table, seat_no: int, version: int) -> None:
        async with table.lock:
            state = table.state
            if state is None or table.version != version or state.to_move != seat_no:
                return
            seat = table.seats[seat_no]
            if seat.kind == HUMAN and table.connected(seat_no):
                # The player came back while this move waited (the timer may already have
                # been past cancelling): their turn is theirs unless their own clock ran out.
                if table.deadline is None or self.wall_clock() < table.deadline:
                    return
            elif seat.kind == HUMAN:
                seat.zombie = True  # away when the clock ran out: a bot plays until return
            view = state.view(seat_no)
            bot = table.bots[seat_no]
            seed = table.rng.getrandbits(64)
            try:
                if isinstance(bot, IsmctsBot):  # a search takes time: keep the loop free
                    loop = asyncio.get_running_loop()
                    action = await loop.run_in_executor(
                        self._bot_thread, lambda: bot.act(view, random.Random(seed))
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
            committed = await self._commit(table, seat_no, action, trial, None)
            if not committed:  # the database is away: try again a little later
                table.timer = asyncio.get_running_loop().create_task(
                    self._bot_turn(table, seat_no, version, max(self.bot_delay, 1.0))
                )

    # -- archive --------------------------------------------------------------------------
    async def record(self, table_id: str) -> dict[str, Any]:
        """The full ``kingsbreakfast/1`` record, only once the game is over."""
        state, names = await self._finished(table_id)
        return Record.from_state(state, names).to_dict()

    async def replay_step(self, table_id: str, step: int) -> ReplayStep:
        """The finished game as it stood after ``step`` actions, every hand shown."""
        state, names = await self._finished(table_id)
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

    async def _finished(self, table_id: str) -> tuple[State, list[str]]:
        table = self.tables.get(table_id)
        if table is not None and table.state is not None and table.status == OVER:
            return table.state, table.names()
        if table is not None:
            raise LobbyError(409, "not_over", "the record is served once the game is over")
        record = await self._db(self.storage.load, table_id)
        if record is None:
            raise LobbyError(404, "no_table", "there is no such game")
        if record.status != OVER:
            raise LobbyError(409, "not_over", "the record is served once the game is over")
        restored = self._restore(record)
        assert restored.state is not None
        return restored.state, restored.names()

    async def archive(self, limit: int = 50) -> list[ArchivedGame]:
        records = await self._db(self.storage.list_archive, limit)
        return [
            {
                "id": r.id,
                "num_seats": r.num_seats,
                "finished_at": r.finished_at.isoformat() if r.finished_at else None,
                "players": [
                    s.name if s.kind == HUMAN else bot_name(s.seat, r.bot_level) for s in r.seats
                ],
            }
            for r in records
            if r.public
        ]


def deal(num_seats: int) -> tuple[tuple[int, ...], int]:
    """A deck shuffled from the system's entropy and a random first cook (R2)."""
    system = random.SystemRandom()
    return shuffled_deck(random.Random(system.getrandbits(64))), system.randrange(num_seats)


def _seat_records(table: Table) -> list[SeatRecord]:
    return [SeatRecord(n, s.kind, s.name, s.token_hash) for n, s in enumerate(table.seats)]
