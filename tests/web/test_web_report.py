"""Reporting a chat line in chromium: at a table of two guests, one reports the other's line
from the chat panel (a button on each line of another seat, a reason, a thanks), and the
operator's ``kingsbreakfast admin reports`` on the server's database lists it with the line
and the reason; the panel stays axe clean, and a player's own lines have no such button."""

from __future__ import annotations

from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from typer.testing import CliRunner  # noqa: E402

from kingsbreakfast.cli.main import app as cli  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from web.test_web_accounts import axe_clean  # noqa: E402
from web.test_web_awaiting import call  # noqa: E402


def test_a_player_reports_a_chat_line_and_the_operator_reads_it(
        server: LiveServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, bob = (context.new_page() for context in contexts)
    for page in (ann, bob):
        page.goto(server.base + "/")
        page.wait_for_selector("header")
    status, grant = call(ann, "POST", "/api/tables",
                         {"name": "Reporting Ann", "seats": 3, "bot_level": "random"})
    assert status == 201, grant
    table_id = grant["table"]["id"]
    status, joined = call(bob, "POST", f"/api/tables/{table_id}/join", {"name": "Rude Bob"})
    assert status == 201, joined
    for page in (ann, bob):
        page.goto(f"{server.base}/t/{table_id}")
        page.wait_for_selector("#chat-form")
    bob.fill("#chat-form input[name=text]", "you all play like potatoes")
    bob.click("#chat-form button[type=submit]")
    bob.wait_for_selector(".chat-lines >> text=you all play like potatoes")
    assert bob.locator(".chat-lines button.report").count() == 0  # not one's own line

    line = ann.locator(".chat-lines li", has_text="you all play like potatoes")
    line.wait_for()
    report = line.locator("button.report")
    assert report.get_attribute("aria-label") == (
        "Report this line of Rude Bob to the site's operator")
    report.click()
    ann.fill("#report-form textarea[name=reason]", "insults the table")
    axe_clean(ann, "#chat-report")
    ann.click("#report-form button[type=submit]")
    ann.wait_for_selector("#chat-report [role=status] >> text=an operator will read")

    done = CliRunner().invoke(cli, ["admin", "reports", "--db", server.db_url, "--lang", "en"])
    assert done.exit_code == 0, done.output
    assert "Rude Bob, reported by a guest" in done.output
    assert "you all play like potatoes" in done.output
    assert "reason: insults the table" in done.output
    for context in contexts:
        context.close()
