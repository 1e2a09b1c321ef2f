"""The page notices a frozen server: its table socket stays open but goes silent when the
server process is stopped (SIGSTOP), and without the page's own heartbeat it would say
"connected" for ever while bots played its seat. With it, the page says it is reconnecting,
and once the process runs again it is back at the table in its own seat."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import server_port  # noqa: E402
from web.playing import open_solo_table  # noqa: E402

NOTICED_WITHIN_MS = 30_000
"""A generous bound on the wait (the heartbeat gives a socket up after about 6 s of silence;
``benchmarks/frozen_owner.py`` measures how soon): only whether it happens is tested."""


@pytest.fixture()
def frozen_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of this test alone: it is stopped and resumed."""
    live = LiveServer(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=3600.0, log_path=tmp_path / "server.log",
        port=server_port(),
    ).start()
    yield live
    assert live.process is not None
    os.kill(live.process.pid, signal.SIGCONT)
    live.stop()


def test_a_frozen_server_is_noticed_and_the_seat_kept(
    frozen_server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_solo_table(page, frozen_server.base)
    page.wait_for_selector(".conn.ok")
    assert page.locator("#leave-game").count() == 1  # shown to a seated player only
    assert frozen_server.process is not None
    pid = frozen_server.process.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        # the socket is still open, only silent: the heartbeat alone can tell
        page.wait_for_selector(".conn.bad", timeout=NOTICED_WITHIN_MS)
    finally:
        os.kill(pid, signal.SIGCONT)
    page.wait_for_selector(".conn.ok", timeout=NOTICED_WITHIN_MS)
    assert page.locator("#leave-game").count() == 1  # still seated, not a spectator
    assert errors == []
    context.close()
