"""A request for a seat freed during play holds it against other askers for a minute at
most (server/consent.py): the next asker after that replaces it."""

from __future__ import annotations

import asyncio

import pytest

from kingsbreakfast.server import consent
from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.memory_store import MemoryStore
from server.kb_harness import seated_table


class Clock:
    """The requests' clock, moved by the test: waiting a minute takes no time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_an_unanswered_request_gives_way_to_the_next_asker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert consent.REQUEST_SECONDS <= 60.0
    clock = Clock()
    monkeypatch.setattr(consent, "time", clock)

    async def main() -> None:
        master = Master(MemoryStore(), bot_delay=3600.0)
        await master.open()
        try:
            table, tokens = await seated_table(master, 2, seats=3)
            await master.leave(table.id, tokens[1])
            seat, _cid = await master.join(table.id, "Cid")
            assert seat == 1
            with pytest.raises(LobbyError) as held:
                await master.join(table.id, "Dee")
            assert held.value.code == "seat_requested"
            clock.now += consent.REQUEST_SECONDS - 1  # not yet: Cid's request holds
            with pytest.raises(LobbyError) as held:
                await master.join(table.id, "Dee")
            assert held.value.code == "seat_requested"
            clock.now += 1.5  # the host did not answer Cid in time
            seat, _dee = await master.join(table.id, "Dee")
            assert seat == 1
            requests = master.actor(table).consent.requests
            assert [r.name for r in requests.values()] == ["Dee"]
        finally:
            await master.close()

    asyncio.run(main())
