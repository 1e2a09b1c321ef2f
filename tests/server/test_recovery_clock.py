"""What needs the server's clock moved: a reset link expires (30 minutes), and a site
without SMTP says so clearly. The app runs in this process on a real database, mailing a
real SMTP server on loopback; only its wall clock is ours."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.mail import MailSettings
from kingsbreakfast.server.recovery import RESET_SECONDS
from server.kb_accounts import Player
from server.kb_browser import PASSWORD
from server.kb_mailbox import Mailbox


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


def test_a_reset_link_expires(db_url: str, mailbox: Mailbox) -> None:
    settings = MailSettings("127.0.0.1", mailbox.port, "noreply@cards.example",
                            "https://cards.example")
    app = create_app(db_url, bot_delay=0.0, mail=settings)
    with TestClient(app) as client:
        ann = Player(client)
        ann.register("Ann")
        ann_at = {"address": "ann@example.org", "password": PASSWORD}
        put = ann.call("PUT", "/api/me/email", json=ann_at)
        assert put.status_code == 200
        verify = ann.post("/api/email/verify", json={"token": mailbox.next().token})
        assert verify.status_code == 200
        assert ann.post("/api/password/forgot", json={"who": "Ann"}).status_code == 202
        token = mailbox.next().token
        accounts = app.state.site.accounts
        accounts.wall_clock = lambda: time.time() + RESET_SECONDS + 1
        late = ann.post("/api/password/reset", json={"token": token, "password": "x" * 12})
        assert late.status_code == 400 and late.json()["error"]["code"] == "bad_link"
        accounts.wall_clock = time.time
        assert ann.me()["name"] == "Ann"  # the expired link changed nothing


def test_without_smtp_the_mail_routes_say_so(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        ann = Player(client)
        ann.register("Ann")
        for reply in (
            ann.call("PUT", "/api/me/email", json={"address": "ann@x.org", "password": PASSWORD}),
            ann.post("/api/password/forgot", json={"who": "Ann"}),
        ):
            assert reply.status_code == 503
            assert reply.json()["error"]["code"] == "mail_unavailable"
        assert ann.call("GET", "/api/me/email").json() | {"csrf": ""} == {
            "email": None, "mail": False, "csrf": "",
        }
        none = {"address": "", "password": PASSWORD}
        removed = ann.call("PUT", "/api/me/email", json=none)  # needs no mail server
        assert removed.status_code == 200 and removed.json()["email"] is None
