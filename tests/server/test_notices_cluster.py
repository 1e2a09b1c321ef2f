"""Notices in the deployment: three server processes behind HAProxy on
PostgreSQL. Bob is away from a turn-based game whose table any of the processes may serve;
each turn that comes to him brings a push message (decrypted by the test's push service), and
the game's mail comes once, however many turns pass."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.conftest import POSTGRES_URL
from server.kb_absent import one_game, verified
from server.kb_browser import Browser
from server.kb_cluster import cluster
from server.kb_mailbox import Mailbox
from server.kb_push import PushInbox

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]


@pytest.fixture
def boxes() -> Iterator[tuple[Mailbox, PushInbox]]:
    mailbox, inbox = Mailbox().start(), PushInbox().start()
    yield mailbox, inbox
    inbox.stop()
    mailbox.stop()


def test_an_absent_player_is_brought_back_on_a_cluster(
    tmp_path: Path, boxes: tuple[Mailbox, PushInbox]
) -> None:
    assert POSTGRES_URL is not None
    mailbox, inbox = boxes
    extra = (*mailbox.options(), "--push-local-endpoints", "--notice-digest-seconds", "0")
    with cluster(POSTGRES_URL, tmp_path, bot_delay=0.0, extra=extra) as (proxy, _servers):
        ann, bob = Browser(proxy, "127.0.11.1"), Browser(proxy, "127.0.11.2")
        assert ann.register("Away Ann")[0] == 201 and bob.register("Away Bob")[0] == 201
        verified(mailbox, bob, "Bob")
        subscription = {**inbox.subscription("bob"), "language": "en"}
        assert bob.call("POST", "/api/me/push", subscription)[0] == 200
        asyncio.run(one_game(proxy, ann, bob, inbox, mailbox, turns=4))
        assert mailbox.empty()  # pushed each turn he was away (awaited), mailed once
