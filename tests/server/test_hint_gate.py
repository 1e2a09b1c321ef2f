"""The hint's gate (server/hint_gate.py): none at a rated table, a few per seat then one
every few seconds elsewhere, computed in a worker thread."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

pytest.importorskip("numpy")

from kingsbreakfast.engine import State
from kingsbreakfast.server import hint_gate
from kingsbreakfast.server.hint_gate import HINT_BURST, HINT_EVERY, HintGate, is_rated
from kingsbreakfast.server.lobby import LobbyError


def test_a_table_is_rated_when_two_accounts_hold_seats() -> None:
    assert not is_rated({}) and not is_rated({0: 7}) and not is_rated({0: 7, 2: 7})
    assert is_rated({0: 7, 2: 8})


def test_hints_are_refused_at_a_rated_table_and_paced_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    gate = HintGate(clock=lambda: now[0])
    view = State.new(3, random.Random(3)).view(0)
    threads: list[str] = []

    def ranked(seen: object) -> list[object]:
        threads.append(threading.current_thread().name)
        return []

    monkeypatch.setattr(hint_gate, "rank_actions", ranked)

    async def main() -> None:
        with pytest.raises(LobbyError) as rated:
            await gate.advise("t", 0, {0: 1, 1: 2}, view)
        assert (rated.value.status, rated.value.code) == (409, "no_hints_rated")
        for _ in range(HINT_BURST):
            assert await gate.advise("t", 0, {0: 1}, view) == []
        with pytest.raises(LobbyError) as paced:
            await gate.advise("t", 0, {0: 1}, view)
        assert paced.value.code == "hint_rate" and paced.value.params["retry_after"] > 0
        assert await gate.advise("t", 1, {0: 1}, view) == []  # another seat: its own
        now[0] += HINT_EVERY
        assert await gate.advise("t", 0, {0: 1}, view) == []

    asyncio.run(main())
    assert threads and all(name != threading.main_thread().name for name in threads)
