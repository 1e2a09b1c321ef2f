"""People in chromium: Ann follows Bob from his profile and Bob follows back from the People
page, so each sees the other as a friend, online now; Ann challenges Bob, Bob accepts and
lands at the new table, Ann follows the challenge's link there, and both sit at it with their
ratings beside their names (in My games too); Ann blocks Cy from his profile and Cy cannot
take the table's free seat. Every page is axe clean; on a phone (390 px) the People page fits
in each of the five languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_awaiting import call  # noqa: E402
from web.test_web_phone import PHONE, clipped  # noqa: E402


def people_page(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/people")
    page.wait_for_selector("#people-lists h2")


def test_follow_challenge_accept_and_block(server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    ann, bob, cy = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (ann, bob, cy):
        page.on("pageerror", lambda error: errors.append(str(error)))
    register(ann, server, "Pia Ann")
    register(bob, server, "Pia Bob")
    register(cy, server, "Pia Cy")

    ann.goto(server.base + "/players/Pia%20Bob")
    ann.click(".person-actions button:has-text('Follow')")
    ann.wait_for_selector(".person-actions button:has-text('Unfollow')")
    axe_clean(ann)

    people_page(bob, server)
    followers = bob.locator(".people-list li", has_text="Pia Ann")
    followers.locator("button:has-text('Follow back')").click()
    bob.wait_for_selector("#people-said >> text=You follow Pia Ann.")
    friend = bob.locator(".people-list").first.locator("li", has_text="Pia Ann")
    friend.locator(".online >> text=online now").wait_for()  # Ann's page spoke just now
    # the rating is written beside the name when the page's own ratings call answers, after
    # the list is drawn (people.js): waited for, not counted as the list appears
    expect(friend.locator(".rating-tag"), "Pia Ann's rating beside her name").to_have_count(
        1, timeout=10_000)
    axe_clean(bob)

    people_page(ann, server)
    ann.locator(".people-list").first.locator("li", has_text="Pia Bob").locator(
        ".online").wait_for()
    ann.fill("#challenge input[name=name]", "Pia Bob")
    ann.select_option("#challenge select[name=seats]", "3")
    ann.click("#challenge button[type=submit]")
    ann.wait_for_selector("#people-said >> text=Challenge sent to Pia Bob.")
    ann.wait_for_selector("#outgoing >> text=waiting for an answer")
    axe_clean(ann)

    people_page(bob, server)
    incoming = bob.locator("#incoming li", has_text="Pia Ann challenges you")
    incoming.wait_for()
    axe_clean(bob)
    incoming.locator("button:has-text('Accept')").click()
    bob.wait_for_url(re.compile(r".*/t/[\w-]+$"))
    table_path = bob.url.split(server.base, 1)[1]
    bob.wait_for_selector("#app li >> text=Pia Bob")

    people_page(ann, server)
    ann.click("#outgoing a:has-text('Go to the table')")
    ann.wait_for_url(re.compile(re.escape(table_path) + "$"))
    for page in (ann, bob):
        for name in ("Pia Ann", "Pia Bob"):
            page.locator(f"#app li:has(.who[data-name='{name}']) .rating-tag").wait_for()
    ann.wait_for_selector("#start")  # Ann hosts the challenge's table
    ann.fill("#chat-form input[name=text]", "good luck")
    ann.press("#chat-form input[name=text]", "Enter")
    said = bob.locator(".chat-lines li:has(.who[data-name='Pia Ann'])")
    said.locator(".rating-tag").wait_for()  # a chat line's author with a rating too
    assert said.locator(".chat-text").inner_text() == "good luck"
    axe_clean(ann)
    ann.goto(server.base + "/me")  # My games: the game's players with their ratings
    ann.locator("#games li:has(.who[data-name='Pia Bob']) .who + .rating-tag").nth(1).wait_for()

    cy.goto(server.base + "/players/Pia%20Ann")
    cy.wait_for_selector(".person-actions")
    ann.goto(server.base + "/players/Pia%20Cy")
    ann.click(".person-actions button:has-text('Block')")
    ann.wait_for_selector(".person-actions button:has-text('Unblock')")
    cy.goto(server.base + table_path)
    cy.click("#join button[type=submit]")
    cy.wait_for_selector("#refusal >> text=You cannot sit at this table.")
    axe_clean(cy)
    assert errors == []
    for context in contexts:
        context.close()


PHONE_ACCOUNT: dict[str, Any] = {}
"""The phone's logged-in browser state, made once: an address registers only a few accounts
an hour, so the phone logs in as Pia Cy when the test above made him."""


@pytest.mark.parametrize("code", ["en", "de", "hu", "fr", "vi"])
def test_the_people_page_fits_a_phone(server: LiveServer, browser: Any, code: str) -> None:
    if not PHONE_ACCOUNT:
        first = browser.new_context(**PHONE)
        page = first.new_page()
        page.goto(server.base + "/login")
        page.wait_for_selector("form#login")
        status, _body = call(page, "POST", "/api/account/login",
                             {"name": "Pia Cy", "password": "a long enough password"})
        if status != 200:
            register(page, server, "Pia Phone")
        PHONE_ACCOUNT.update(first.storage_state())
        first.close()
    context = browser.new_context(storage_state=PHONE_ACCOUNT, **PHONE)
    page = context.new_page()
    page.goto(server.base + "/people")
    page.select_option("#lang", code)
    page.wait_for_selector(f"html[lang={code}]")
    page.goto(server.base + "/people?challenge=Pia%20Ann")
    page.wait_for_selector("#people-lists h2")
    assert page.input_value("#challenge input[name=name]") == "Pia Ann"
    assert clipped(page) == [], clipped(page)
    assert no_sideways_scroll(page)
    axe_clean(page)
    shot(page, f"phone-people-{code}")
    context.close()
