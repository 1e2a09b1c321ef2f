"""Slow work cannot starve sign-in: each kind runs in a bounded workshop of its own
(server/workshops.py), a full one refuses at once with 503 ``busy`` and Retry-After, and the
lesson's replays run off the event loop, limited per address (429 ``too_many_lessons``)."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingsbreakfast.server.accounts import HASHER
from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.routes.learn import LESSONS_BURST
from kingsbreakfast.server.workshops import HINTS, LESSONS, PASSWORDS, Workshop
from server.kb_live import LiveServer


def test_a_full_workshop_refuses_at_once_and_takes_work_again_once_free() -> None:
    async def main() -> None:
        shop = Workshop("trial", workers=1, waiting=1, retry_after=3.0)
        gate = threading.Event()
        held = [asyncio.ensure_future(shop.run(gate.wait)) for _ in range(2)]
        await asyncio.sleep(0)  # both taken in hand
        assert shop.in_hand == 2
        with pytest.raises(LobbyError) as refused:
            await shop.run(lambda: "never run")
        assert refused.value.status == 503
        assert refused.value.code == "busy"
        assert refused.value.params == {"work": "trial", "retry_after": 3.0}
        gate.set()
        await asyncio.gather(*held)
        assert await shop.run(lambda: "done") == "done"
        shop.close()

    asyncio.run(main())


def test_passwords_are_hashed_while_the_hints_and_lessons_are_full() -> None:
    """The hints' and lessons' workers all busy and their queues full: a password is hashed
    all the same, in workers of its own (once the one pool they shared held it back)."""

    async def main() -> None:
        gate = threading.Event()
        held = [
            asyncio.ensure_future(shop.run(gate.wait))
            for shop in (HINTS, LESSONS) for _ in range(shop.workers + shop.waiting)
        ]
        await asyncio.sleep(0)
        try:
            for shop in (HINTS, LESSONS):
                with pytest.raises(LobbyError):
                    await shop.run(lambda: None)
            hashed = await PASSWORDS.run(HASHER.hash, "a password of someone")
            assert HASHER.verify(hashed, "a password of someone")
        finally:
            gate.set()
            await asyncio.gather(*held)

    asyncio.run(main())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("workshops")
    live = LiveServer(f"sqlite:///{folder / 'games.db'}", log_path=folder / "server.log").start()
    yield live
    live.stop()


def _learn(server: LiveServer) -> tuple[int, dict[str, object], str | None]:
    request = urllib.request.Request(
        server.base + "/api/learn", data=json.dumps({"language": "de"}).encode(),
        headers={"content-type": "application/json"}, method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, json.loads(reply.read()), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


def test_a_flood_of_lesson_calls_from_one_address_is_refused(server: LiveServer) -> None:
    answers = [_learn(server) for _ in range(int(LESSONS_BURST) + 10)]
    statuses = [status for status, _body, _wait in answers]
    assert statuses[: int(LESSONS_BURST)] == [200] * int(LESSONS_BURST)
    refused = [(body, wait) for status, body, wait in answers if status == 429]
    assert refused, statuses
    body, wait = refused[0]
    error = body["error"]
    assert isinstance(error, dict) and error["code"] == "too_many_lessons"
    assert wait is not None and int(wait) >= 1
    # the refusal names the limit; the browser words it in the page's language
    assert error["params"]["per_minute"] > 0
