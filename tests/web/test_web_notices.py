"""The account page's notices in chromium against a real server: the switches (saved as they
change, back after a reload), in German on a phone, axe-clean; the "enable push" button; and
the service worker's push and notificationclick handlers.

Headless chromium has no push service to subscribe at (it would need Google's, which a test
cannot reach), so the worker's handlers are exercised by dispatching a ``PushEvent`` and a
``NotificationEvent`` inside the real service worker (Playwright's handle on it): the push
handler shows the notification through ``registration.showNotification`` (read back with
``getNotifications``), and the click handler closes it and opens or focuses the table's
page (the window it opens is seen by the test)."""

from __future__ import annotations

import json
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.browsing import no_sideways_scroll, shot  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_phone import PHONE  # noqa: E402


def test_the_switches_on_a_phone_in_german(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(locale="de-DE", **PHONE)
    page = context.new_page()
    register(page, server, "Nora")
    page.goto(server.base + "/account")
    page.wait_for_selector("#notices h2:has-text('Benachrichtigungen')")
    box = page.locator("input[data-kind=your_turn][data-channel=mail]")
    box.wait_for()
    page.wait_for_selector("input[data-kind=your_turn][data-channel=mail]:checked")
    assert box.is_checked()
    assert page.locator("#notices-mail").inner_text() != ""  # no verified address yet
    box.click()
    page.wait_for_selector("#notices-state:has-text('Gespeichert')")
    assert not box.is_checked()
    axe_clean(page)
    assert no_sideways_scroll(page)
    shot(page, "notices-phone-de")
    page.reload()
    page.wait_for_selector("#notices-state", state="attached")
    page.wait_for_selector("input[data-kind=your_turn][data-channel=push]:checked")
    assert not page.locator("input[data-kind=your_turn][data-channel=mail]").is_checked()
    context.close()


def test_enable_push_says_what_happened(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(locale="en-GB")
    context.grant_permissions(["notifications"], origin=server.base)
    page = context.new_page()
    register(page, server, "Otto")
    page.goto(server.base + "/account")
    page.wait_for_selector("#push-on")
    page.click("#push-on")
    # without a reachable push service the browser refuses to subscribe: said, not hidden
    page.wait_for_selector("#notices-state:not(:empty), #notices-error:not(:empty)")
    said = page.locator("#notices-state").inner_text() + page.locator("#notices-error").inner_text()
    assert said in ("Push notices are on for this device.",
                    "Push could not be enabled on this device.")
    axe_clean(page)
    context.close()


def test_the_service_worker_shows_a_push_and_a_click_opens_the_table(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(locale="en-GB")
    context.grant_permissions(["notifications"], origin=server.base)
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    worker = context.service_workers[0] if context.service_workers else (
        context.wait_for_event("serviceworker"))
    message = {"kind": "your_turn", "title": "Your move",
               "body": "It is your move in your game with Ann.", "url": "/t/abc123",
               "tag": "kb:/t/abc123"}
    shown = worker.evaluate("""async (text) => {
        const event = new PushEvent("push", { data: text });
        self.dispatchEvent(event);
        for (let i = 0; i < 200; i++) {
          const shown = await self.registration.getNotifications();
          if (shown.length) return shown.map((n) => ({ title: n.title, body: n.body,
                                                       tag: n.tag, url: n.data.url }));
          await new Promise((r) => setTimeout(r, 10));
        }
        return [];
      }""", json.dumps(message))
    assert shown == [{"title": "Your move", "body": "It is your move in your game with Ann.",
                      "tag": "kb:/t/abc123", "url": server.base + "/t/abc123"}]
    # a message pointing elsewhere opens this site's lobby, never another site
    elsewhere = worker.evaluate("""async (text) => {
        self.dispatchEvent(new PushEvent("push", { data: text }));
        for (let i = 0; i < 200; i++) {
          const shown = await self.registration.getNotifications({ tag: "x" });
          if (shown.length) return shown[0].data.url;
          await new Promise((r) => setTimeout(r, 10));
        }
        return null;
      }""", json.dumps({**message, "url": "https://evil.example/", "tag": "x"}))
    assert elsewhere == server.base + "/"
    # a click closes the notification and opens the table: a click the test makes up is no
    # user gesture, so chromium refuses it a new window; an open window of the table is
    # focused instead, which the handler's promise reports
    table = context.new_page()
    table.goto(server.base + "/t/abc123")
    outcome = worker.evaluate("""async () => {
        const [note] = await self.registration.getNotifications({ tag: "kb:/t/abc123" });
        let done = null;
        const event = new NotificationEvent("notificationclick", { notification: note });
        event.waitUntil = (promise) => { done = promise; };
        self.dispatchEvent(event);
        let result;
        try { const win = await done; result = win ? win.url : "none"; }
        catch (error) { result = "refused: " + error.name; }
        const left = await self.registration.getNotifications({ tag: "kb:/t/abc123" });
        return { result, left: left.length };
      }""")
    assert outcome["left"] == 0
    assert outcome["result"] in (server.base + "/t/abc123", "refused: InvalidAccessError")
    context.close()
