"""Presence and seats in process: who comes and goes is told in small batched updates (and
not at all when only spectators move), and a seat freed during play changes hands only by
the host's consent, with every edge of that path refused by its own code."""

from __future__ import annotations

import asyncio
import json

import pytest

from kingsbreakfast.server import consent
from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.memory_store import MemoryStore
from kingsbreakfast.server.presence import WATCHER_CHUNK, Fanout
from kingsbreakfast.server.tables import OPEN, Table
from kingsbreakfast.server.wire import SeatAnswer
from server.kb_harness import Capture, seated_table, until


async def presence_told(master: Master, table: Table) -> None:
    """Wait for the table's batched presence update under way (if any) to go out: after it
    nothing more is told until someone else comes or goes."""
    pending = master.actor(table).presence._pending
    if pending is not None:
        await pending


def kinds(conn: Capture, start: int = 0) -> list[str]:
    return [f["type"] for f in conn.decoded()[start:]]


def test_spectators_cost_a_seated_player_nothing_and_players_a_small_update() -> None:
    async def main() -> None:
        master = Master(MemoryStore(), bot_delay=3600.0)
        await master.open()
        table, _ = await seated_table(master, 2, seats=3)
        ann = Capture(0)
        master.actor(table).attach(ann)
        await presence_told(master, table)  # Ann's own arrival is told
        start = len(ann.frames)
        crowd = [Capture(None) for _ in range(200)]
        for conn in crowd:
            master.actor(table).attach(conn)
        for conn in crowd[:100]:
            master.actor(table).detach(conn)
        assert all(kinds(c) == ["state"] for c in crowd)  # each its own greeting, only
        bob = Capture(1)
        master.actor(table).attach(bob)
        await until(lambda: len(ann.frames) > start)
        await presence_told(master, table)
        assert master.actor(table).presence._pending is None  # nothing more is to come
        assert kinds(ann, start) == ["presence"]  # the crowd and Bob: one small update
        update = ann.decoded()[-1]
        assert [s["connected"] for s in update["seats"]] == [True, True, False]
        assert len(ann.frames[-1]) < 200
        assert all(kinds(c)[-1] == "presence" for c in crowd[100:])
        await master.close()

    asyncio.run(main())


def test_a_freed_seat_needs_the_hosts_consent() -> None:
    async def main() -> None:
        store = MemoryStore()
        master = Master(store, bot_delay=3600.0)
        await master.open()
        table, tokens = await seated_table(master, 3, seats=4)
        ann = Capture(0)
        master.actor(table).attach(ann)
        await master.leave(table.id, tokens[2])
        assert table.seats[2].kind == OPEN

        async def refused(name: str, holder: str | None = None) -> str:
            with pytest.raises(LobbyError) as error:
                await master.join(table.id, name, holder=holder)
            return error.value.code

        assert await refused("Someone", tokens[1]) == "already_seated"
        assert await refused("Player 1") == "seat_name_taken"
        seat, token = await master.join(table.id, "Cid")
        assert seat == 2 and not table.seats[2].holds(token)
        assert await refused("Dee") == "seat_requested"
        assert json.loads(ann.frames[-1]) == {
            "type": "seat_request", "seat": 2, "name": "Cid", "version": table.version,
        }
        actor = master.actor(table)
        # only the host answers, and only a request that exists
        bob = Capture(1)
        master.actor(table).attach(bob)
        assert await actor.receive(bob, SeatAnswer(2, True)) is True
        assert bob.errors()[-1]["code"] == "not_host"
        assert await actor.receive(ann, SeatAnswer(3, True)) is True
        assert ann.errors()[-1]["code"] == "no_request"
        # the store is away: the request waits, nothing changes
        store.failing = True
        assert await actor.receive(ann, SeatAnswer(2, True)) is False
        assert ann.errors()[-1]["code"] == "storage_unavailable"
        assert table.seats[2].kind == OPEN and 2 in actor.consent.requests
        store.failing = False
        # a request nobody answers in time gives way to the next newcomer
        actor.consent.requests[2].asked_at -= consent.REQUEST_SECONDS + 1
        seat, dee = await master.join(table.id, "Dee")
        assert seat == 2 and actor.consent.requests[2].name == "Dee"
        assert await actor.receive(ann, SeatAnswer(2, True)) is False
        assert table.seats[2].holds(dee) and table.seats[2].name == "Dee"
        assert [(h.seat, h.kind, h.name) for h in store.holders(table.id) if h.seat == 2] == [
            (2, "human", "Player 2"), (2, "bot", ""), (2, "human", "Dee"),
        ]
        await master.close()

    asyncio.run(main())


def test_nobody_may_ask_when_nobody_hosts() -> None:
    async def main() -> None:
        master = Master(MemoryStore(), bot_delay=3600.0)
        await master.open()
        table, tokens = await seated_table(master, 1, seats=3)
        await master.leave(table.id, tokens[0])
        with pytest.raises(LobbyError) as refused:
            await master.join(table.id, "Cid")
        assert refused.value.code == "no_host"
        await master.close()

    asyncio.run(main())


def test_a_spectator_coming_or_going_never_restarts_a_bots_wait() -> None:
    async def main() -> None:
        master = Master(MemoryStore(), bot_delay=3600.0)
        await master.open()
        table, _ = await seated_table(master, 1, seats=3)
        actor = master.actor(table)
        timer = actor.timer  # a bot's wait, or the host's turn clock-less wait (None)
        watchers = [Capture(None) for _ in range(50)]
        for conn in watchers:
            actor.attach(conn)
            assert actor.timer is timer  # a crowd arriving would otherwise stall the table
        for conn in watchers:
            actor.detach(conn)
            assert actor.timer is timer
        await master.close()

    asyncio.run(main())


def test_a_crowd_gets_frames_in_chunks_never_going_backwards() -> None:
    async def main() -> None:
        sent: list[Capture] = []
        fanout = Fanout(sent.append)
        few = [Capture(None) for _ in range(WATCHER_CHUNK)]
        fanout.send(few, "v1")
        assert all(c.frames == ["v1"] for c in few)  # a few: at once
        crowd = [Capture(None) for _ in range(WATCHER_CHUNK * 3 + 5)]
        fanout.send(crowd, "v1")
        assert sum(c.frames == ["v1"] for c in crowd) == WATCHER_CHUNK  # the first chunk now
        await until(lambda: sum(c.frames == ["v1"] for c in crowd) > WATCHER_CHUNK)
        fanout.send(crowd, "v2")  # a newer frame takes the round over
        await until(lambda: all(c.frames and c.frames[-1] == "v2" for c in crowd))
        assert all(c.frames[-1] == "v2" for c in crowd)
        assert all(c.frames in (["v1", "v2"], ["v2"]) for c in crowd)
        assert len(sent) == len(few) + sum(len(c.frames) for c in crowd)

    asyncio.run(main())
