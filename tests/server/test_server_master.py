"""The match master: the fixed order of checks, tokens, versions, bots, zombies, restarts."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from kingsbreakfast.engine import Action, State
from kingsbreakfast.server.master import LobbyError
from kingsbreakfast.server.tables import BOT, OPEN
from kingsbreakfast.server.wire import CLOSE_LEFT, Hello, ProtocolError
from server.kb_harness import Capture, act, make_master, seated_table, until


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def fixed_dealer(seed: int, first_cook: int = 0) -> Any:
    def dealer(n: int) -> tuple[tuple[int, ...], int]:
        return State.new(n, seed).initial_deck, first_cook
    return dealer


def test_checks_in_order_and_refusals_change_nothing(db_url: str) -> None:
    async def main() -> None:
        master = make_master(db_url, dealer=fixed_dealer(7))
        await master.open()
        table, _tokens = await seated_table(master, 3)
        conns = [Capture(s) for s in range(3)]
        spectator = Capture(None)
        for c in [*conns, spectator]:
            master.actor(table).attach(c)
        assert table.state is not None
        version = table.version
        # a spectator cannot act
        await act(master, table, spectator, "draw")
        assert spectator.errors()[-1]["code"] == "spectator"
        # whose turn: seat 1 when seat 0 is to move
        await act(master, table, conns[1], "draw")
        assert conns[1].errors()[-1]["code"] == "not_your_turn"
        # legal: a dish that is not on the table
        absent = next(d for d in range(7) if table.state.table[d] == 0)
        await act(master, table, conns[0], Action.take(absent))
        error = conns[0].errors()[-1]
        assert error["code"] != "stale_version" and "not on the table" in error["message"]
        # legality is checked before the version: an illegal move on a stale version is
        # refused as illegal
        await act(master, table, conns[0], Action.take(absent), version=version + 5)
        assert "not on the table" in conns[0].errors()[-1]["message"]
        # version: a legal move on a stale version is refused; the connection already holds
        # the current state (it was sent on attach), so no state frame is sent again
        before = len(conns[0].frames)
        await act(master, table, conns[0], "draw", version=version + 1)
        assert conns[0].errors()[-1]["code"] == "stale_version"
        assert json.loads(conns[0].frames[-1])["type"] == "error"
        assert len(conns[0].frames) == before + 1
        assert table.version == version
        # and then the right move applies and every connection hears of it
        await act(master, table, conns[0], "draw")
        assert table.version == version + 1
        for c in [*conns, spectator]:
            assert c.last()["version"] == version + 1
        await master.close()

    run(main())


def test_a_token_only_acts_for_its_own_seat(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(3))
        await master.open()
        table, tokens = await seated_table(master, 3)
        assert master.actor(table).authenticate(Hello(tokens[1])) == 1
        assert master.actor(table).authenticate(Hello(None)) is None
        with pytest.raises(ProtocolError) as refused:
            master.actor(table).authenticate(Hello("not-a-token"))
        assert refused.value.code == "bad_token"
        # seat 1's connection cannot move for seat 0, whose turn it is
        intruder = Capture(1)
        master.actor(table).attach(intruder)
        await act(master, table, intruder, "draw")
        assert intruder.errors()[-1]["code"] == "not_your_turn"
        assert table.version == 0
        await master.close()

    run(main())


def test_two_tabs_on_one_version_exactly_one_applies(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(11))
        await master.open()
        table, _ = await seated_table(master, 3)
        rng = random.Random(5)
        rounds = 0
        while table.state is not None and not table.state.is_over and rounds < 100:
            seat = table.state.to_move
            assert seat is not None
            tab_a, tab_b = Capture(seat), Capture(seat)
            master.actor(table).attach(tab_a)
            master.actor(table).attach(tab_b)
            legal = list(table.state.legal_actions())
            first, second = rng.choice(legal), rng.choice(legal)
            version = table.version
            await asyncio.gather(
                act(master, table, tab_a, first, version),
                act(master, table, tab_b, second, version),
                act(master, table, tab_a, first, version),  # the same message again
            )
            assert table.version == version + 1
            assert table.state.actions[-1] in (first, second)
            refused = len(tab_a.errors()) + len(tab_b.errors())
            assert refused == 2
            master.actor(table).detach(tab_a)
            master.actor(table).detach(tab_b)
            rounds += 1
        assert rounds == 100 or (table.state is not None and table.state.is_over)
        await master.close()

    run(main())


def test_leaving_frees_the_seat_and_kills_the_token(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(2))
        await master.open()
        table, tokens = await seated_table(master, 2, seats=3, bot_level="random", start=False)
        tab = Capture(1)
        master.actor(table).attach(tab)
        await master.leave(table.id, tokens[1])
        assert tab.closed is not None and tab.closed[0] == CLOSE_LEFT
        assert table.seats[1].kind == OPEN
        with pytest.raises(ProtocolError):
            master.actor(table).authenticate(Hello(tokens[1]))
        with pytest.raises(LobbyError) as refused:
            await master.leave(table.id, tokens[1])
        assert refused.value.code == "bad_token"
        # only the host starts; then bots take every open seat and cannot be claimed
        seat, newcomer = await master.join(table.id, "Cid")
        assert seat == 1
        with pytest.raises(LobbyError) as not_host:
            await master.start(table.id, newcomer)
        assert not_host.value.code == "not_host"
        await master.start(table.id, tokens[0])
        assert [s.kind for s in table.seats] == ["human", "human", BOT]
        with pytest.raises(LobbyError) as full:
            await master.join(table.id, "Dee")
        assert full.value.code == "table_full"
        await master.close()

    run(main())


def test_bots_fill_seats_and_a_zombie_is_played_until_return(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(4, first_cook=1), zombie_grace=0.05)
        await master.open()
        table, _tokens = await seated_table(master, 1, seats=3, bot_level="easy")
        assert table.state is not None
        # seat 0 is away: bots play seats 1 and 2, then a bot plays for seat 0 after the grace
        await until(lambda: any(turn.seat == 0 for turn in table.state.history))
        assert table.seats[0].zombie and not table.state.is_over
        # the player returns: the zombie ends, and on its turn the table waits for them
        me = Capture(0)
        master.actor(table).attach(me)
        assert not table.seats[0].zombie
        # a move the zombie bot was already committing when the player came back may still
        # land: wait until the table is idle at seat 0's turn
        await until(lambda: table.state.to_move == 0 and not master.actor(table).lock.locked())
        waited_on = table.version
        # nothing is scheduled for seat 0: no bot move, no clock; the table waits for them
        assert master.actor(table).timer is None and table.deadline is None
        view = me.last()["view"]
        assert view["to_move"] == 0 and view["legal"]
        await act(master, table, me, view["legal"][0])
        assert table.version == waited_on + 1
        await master.close()

    run(main())


def test_a_restart_resumes_every_game_from_its_last_committed_action(db_url: str) -> None:
    async def main() -> None:
        master = make_master(db_url, dealer=fixed_dealer(21))
        await master.open()
        table, tokens = await seated_table(master, 4)
        waiting, _ = await seated_table(master, 2, seats=4, start=False)
        rng = random.Random(1)
        for _ in range(25):
            assert table.state is not None
            seat = table.state.to_move
            assert seat is not None
            conn = Capture(seat)
            master.actor(table).attach(conn)
            await act(master, table, conn, rng.choice(table.state.legal_actions()))
        before = table.state.clone() if table.state else None
        await master.close()

        again = make_master(db_url)
        await again.open()
        resumed = again.tables[table.id]
        assert resumed.state == before
        assert resumed.version == 25
        assert again.tables[waiting.id].status == "lobby"
        assert again.actor(resumed).authenticate(Hello(tokens[2])) == 2
        await again.close()

    run(main())


def test_a_database_fault_refuses_the_move_and_changes_nothing(tmp_path: Any) -> None:
    import sqlite3

    path = tmp_path / "locked.db"

    async def main() -> None:
        master = make_master(f"sqlite:///{path}", dealer=fixed_dealer(8), busy_ms=50)
        await master.open()
        table, _ = await seated_table(master, 3)
        conn = Capture(0)
        master.actor(table).attach(conn)
        assert table.state is not None
        before = table.state.clone()
        blocker = sqlite3.connect(path, timeout=0.05)
        blocker.execute("BEGIN EXCLUSIVE")  # another writer holds the database
        await act(master, table, conn, "draw")
        assert conn.errors()[-1]["code"] == "storage_unavailable"
        assert conn.errors()[-1]["params"] == {"retryable": True}
        assert table.state == before and table.version == 0
        blocker.rollback()
        blocker.close()
        await act(master, table, conn, "draw")  # the database is back: the retry applies
        assert table.version == 1
        await master.close()

    run(main())


def test_the_record_is_served_only_after_the_game(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(9))
        await master.open()
        table, _ = await seated_table(master, 1, seats=3, bot_level="random")
        me = Capture(0)
        master.actor(table).attach(me)
        with pytest.raises(LobbyError) as early:
            await master.record(table.id)
        assert early.value.status == 409
        rng = random.Random(0)

        def over() -> bool:
            return table.state is not None and table.state.is_over

        def my_turn() -> bool:
            return table.state is not None and table.state.to_move == 0

        lock = master.actor(table).lock
        while not over():
            # the bots play the other seats: wait for seat 0's turn, with the table idle
            await until(lambda: over() or (my_turn() and not lock.locked()), seconds=60)
            if not over():
                assert table.state is not None
                await act(master, table, me, rng.choice(table.state.legal_actions()))
        assert table.state is not None and table.state.is_over
        record = await master.record(table.id)
        assert len(record["deck"]) == 110
        assert State(record["deck"], 3, record["first_cook"]).__class__ is State
        final = me.last()
        assert final["score"] is not None and final["view"]["to_move"] is None
        # the engine's one JSON form of a scoring (R11, R12), the same the command line prints
        assert final["score"] == table.state.score().to_dict()
        step = await master.replay_step(table.id, 5)
        assert step["step"] == 5 and all("draws" in h for h in step["view"]["hands"])
        last = await master.replay_step(table.id, len(table.state.actions))
        assert last["score"] == table.state.score().to_dict()
        master.actor(table).detach(me)  # the last watcher leaves: served from the archive now
        assert table.id not in master.tables
        assert (await master.record(table.id)) == record
        with pytest.raises(LobbyError):
            await master.replay_step(table.id, 10_000)
        await master.close()

    run(main())


class BrokenBot:
    name = "broken"
    description = "always fails"

    def act(self, view: Any, rng: random.Random) -> Action:
        raise RuntimeError("bot bug")


def test_a_failing_bot_never_stalls_its_table(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(6, first_cook=1))
        await master.open()
        table, tokens = await seated_table(master, 1, seats=3, bot_level="easy", start=False)
        master.bot_delay = 0.05  # time to swap the bots in before their first move
        await master.start(table.id, tokens[0])
        master.actor(table).bots[1] = BrokenBot()
        master.actor(table).bots[2] = BrokenBot()
        await until(lambda: table.version >= 2)
        assert table.state is not None
        assert table.state.history[0].seat == 1
        await master.close()

    run(main())


def test_the_turn_clock_lets_a_bot_move_for_a_player_who_is_there(sqlite_url: str) -> None:
    import time as clock

    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer(12, first_cook=0))
        await master.open()
        table, _ = await seated_table(master, 3, clock_seconds=5)
        conns = [Capture(s) for s in range(3)]
        for c in conns:
            master.actor(table).attach(c)
        frame = conns[0].last()
        assert frame["clock"]["seat"] == 0
        assert frame["clock"]["deadline_ms"] > clock.time() * 1000 + 4000
        # time runs (the master reads the wall clock it was given): 4.95 s have passed
        master.wall_clock = lambda: clock.time() + 4.95
        master.actor(table).attach(Capture(None))  # any event re-arms the timer from the deadline
        await until(lambda: table.version >= 1)
        assert table.version == 1 and table.state is not None
        assert table.state.history[0].seat == 0
        assert not table.seats[0].zombie  # seat 0 is connected: only this move was played
        assert conns[0].last()["clock"]["seat"] == table.state.to_move
        await master.close()

    run(main())
