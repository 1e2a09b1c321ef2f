"""Browser journey of a forgotten password, in chromium against a real server mailing a real
SMTP server on loopback: the player sets and verifies an address on the account page, later
asks for a reset from the sign-in form on a phone, opens the mailed link, chooses a new
password and signs in with it, while the device still logged in with the old password is
logged out. Every new page state passes axe."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer, free_port  # noqa: E402
from server.kb_mailbox import Mailbox  # noqa: E402
from web.browsing import no_sideways_scroll, server_port, shot  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_phone import PHONE  # noqa: E402

NEW_PASSWORD = "pancakes for the king"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[LiveServer]:
    tmp: Path = tmp_path_factory.mktemp("web-recovery")
    port = server_port() or free_port()
    live = LiveServer(
        f"sqlite:///{tmp / 'web.db'}", log_path=tmp / "server.log", port=port,
        extra=mailbox.options(f"http://127.0.0.1:{port}"),
    ).start()
    yield live
    live.stop()


def test_forgot_mail_reset_and_sign_in(
    server: LiveServer, mailbox: Mailbox, browser: Any
) -> None:
    laptop = browser.new_context(locale="en-GB").new_page()
    register(laptop, server, "Quinn")
    laptop.goto(server.base + "/account")
    laptop.wait_for_selector("#email-state:has-text('no e-mail address')")
    laptop.fill("#email input[name=address]", "Quinn@Example.org")
    laptop.fill("#email input[name=password]", "a long enough password")
    laptop.click("#email button[type=submit]")
    laptop.wait_for_selector("#email-sent:has-text('We mailed a link to quinn@example.org')")
    laptop.wait_for_selector("#email-state:has-text('not verified yet')")
    axe_clean(laptop)
    mail = mailbox.next()
    assert mail.to == ["quinn@example.org"]
    (link,) = mail.links
    laptop.goto(link)
    laptop.wait_for_selector("#verify-state:has-text('is verified')")
    assert "#" not in laptop.url  # the token left the address bar
    axe_clean(laptop)
    laptop.goto(server.base + "/account")
    laptop.wait_for_selector("#email-state:has-text('quinn@example.org is verified')")

    phone = browser.new_context(locale="en-GB", **PHONE).new_page()
    phone.goto(server.base + "/login")
    phone.click("text=Forgot your password?")
    phone.wait_for_url(re.compile(r".*/forgot$"))
    axe_clean(phone)
    assert no_sideways_scroll(phone)
    phone.fill("#forgot input[name=who]", "quinn")
    phone.click("#forgot button[type=submit]")
    phone.wait_for_selector("#forgot-sent:has-text('a link is on its way')")
    shot(phone, "recovery-phone-forgot-sent")
    (link,) = mailbox.next().links
    assert link.startswith(server.base + "/reset#")
    phone.goto(link)
    phone.wait_for_selector("form#reset")
    assert "#" not in phone.url
    axe_clean(phone)
    assert no_sideways_scroll(phone)
    phone.fill("#reset input[name=password]", NEW_PASSWORD)
    phone.click("#reset button[type=submit]")
    phone.wait_for_selector("text=every device was logged out")
    shot(phone, "recovery-phone-reset-done")
    phone.click(".panel a[href='/login']")
    phone.fill("form#login input[name=name]", "Quinn")
    phone.fill("form#login input[name=password]", NEW_PASSWORD)
    phone.click("form#login button[type=submit]")
    phone.wait_for_url(re.compile(r".*/me$"))
    phone.wait_for_selector(".account-nav >> text=Quinn")

    laptop.goto(server.base + "/me")  # the old password's session is over
    laptop.wait_for_selector("#games a[href='/login']")
    assert laptop.locator(".account-nav >> text=Quinn").count() == 0
