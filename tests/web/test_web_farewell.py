"""Account deletion and the register form's proof of work, in chromium (docs/accounts.md).

The register form pays the proof of work the server asks for once an address has made its
free accounts of the hour (Web Crypto SHA-256, web/static/farewell.js); the account page's
"Delete my account" says what happens, asks the password again and a box ticked, and ends
with the pseudonym the games keep, which a watcher of a game in play sees on the left
seat ("Bot (was Former player 4821)") in their own language. Axe clean, and whole on a
phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_awaiting import call  # noqa: E402
from web.test_web_phone import PHONE  # noqa: E402

PASSWORD = "a long enough password"


def use_the_free_registrations(browser: Any, server: LiveServer, prefix: str = "Free") -> None:
    """Accounts made from this address (loopback, like the page's) until the next one
    needs a proof of work (none when it needs one already: each test stands on its own)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.base + "/login")
    page.wait_for_selector("form#register")
    number = 0
    while call(page, "GET", "/api/account/challenge")[1]["bits"] == 0:
        status, body = call(page, "POST", "/api/account/register",
                            {"name": f"{prefix} {number}", "password": PASSWORD})
        assert status == 201, body
        number += 1
    context.close()


def test_the_register_form_pays_the_proof_and_an_account_is_deleted(
    server: LiveServer, browser: Any
) -> None:
    use_the_free_registrations(browser, server)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/login")
    page.wait_for_selector("form#register")
    assert call(page, "GET", "/api/account/challenge")[1]["bits"] > 0
    register(page, server, "Farewell Fay")  # the form found the proof, or this fails
    status, grant = call(page, "POST", "/api/tables",
                         {"name": "x", "seats": 3, "bot_level": "random"})
    assert status == 201, grant
    table_id = grant["table"]["id"]
    assert call(page, "POST", f"/api/tables/{table_id}/start")[0] == 200

    page.goto(server.base + "/account")
    page.locator("#delete-open").click()
    page.locator("#delete-form input[name=password]").wait_for()
    assert page.locator("#delete-open").get_attribute("aria-expanded") == "true"
    axe_clean(page)
    page.fill("#delete-form input[name=password]", "not my password")
    page.check("#delete-form input[name=understood]")
    page.click("#delete-confirm")
    page.locator("#delete-error", has_text="The current password is wrong.").wait_for()
    page.fill("#delete-form input[name=password]", PASSWORD)
    page.click("#delete-confirm")
    page.locator("h1", has_text="Your account is deleted").wait_for()
    said = page.locator("p[role=status]").inner_text()
    assert re.search(r"under the name Former player \d+\.", said), said
    page.locator(".account-nav >> text=Log in").wait_for()
    axe_clean(page)
    assert call(page, "GET", "/api/account")[1]["account"] is None

    # a watcher of the game in play sees the pseudonym on the seat, in German
    watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watcher.goto(server.base + "/")
    watcher.evaluate("localStorage.setItem('kingsbreakfast.language', 'de')")
    watcher.goto(f"{server.base}/t/{table_id}")
    watcher.get_by_text(re.compile(r"Ehemaliger Spieler \d+")).first.wait_for()
    assert "Farewell Fay" not in watcher.content()
    watcher.context.close()
    context.close()


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_the_delete_section_is_whole_on_a_phone(
    server: LiveServer, browser: Any, code: str
) -> None:
    use_the_free_registrations(browser, server, f"Free {code}")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/login")
    page.evaluate(f"localStorage.setItem('kingsbreakfast.language', '{code}')")
    page.goto(server.base + "/login")
    page.wait_for_selector("form#register")
    status, body = call(page, "GET", "/api/account/challenge")
    assert status == 200 and body["bits"] > 0  # the form below pays it
    page.fill("form#register input[name=name]", f"Phone {code}")
    page.fill("form#register input[name=password]", PASSWORD)
    page.click("form#register button[type=submit]")
    page.wait_for_url(re.compile(r".*/me$"))
    page.goto(server.base + "/account")
    page.locator("#delete-open").click()
    page.locator("#delete-confirm").wait_for()
    assert no_sideways_scroll(page)
    for selector in ("#delete-open", "#delete-confirm", "#delete-cancel"):
        found = page.locator(selector).bounding_box()
        assert found is not None and found["height"] >= 44, selector
    axe_clean(page, ".danger-zone")
    page.click("#delete-cancel")
    assert page.locator("#delete-form").is_hidden()
    context.close()
