"""The account page's "Download my data" in chromium: one click saves a JSON file of
everything the site holds about the account (``GET /api/me/data``), with the account's own
name and table in it; the section is axe clean and reads in the player's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from server.kb_live import LiveServer  # noqa: E402
from web.test_web_accounts import axe_clean, register  # noqa: E402
from web.test_web_awaiting import call  # noqa: E402


def test_the_account_page_downloads_the_accounts_data(server: LiveServer, browser: Any,
                                                       tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    page = context.new_page()
    register(page, server, "Data Dora")
    status, grant = call(page, "POST", "/api/tables",
                         {"name": "x", "seats": 3, "bot_level": "random"})
    assert status == 201, grant
    page.goto(server.base + "/account")
    link = page.locator("#data-download")
    link.wait_for()
    axe_clean(page)
    with page.expect_download() as caught:
        link.click()
    saved = tmp_path / "data.json"
    caught.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["account"]["name"] == "Data Dora"
    assert [t["game"] for t in data["tables"]] == [grant["table"]["id"]]

    page.evaluate("localStorage.setItem('kingsbreakfast.language', 'de')")
    page.goto(server.base + "/account")
    page.locator("#data-title", has_text="Deine Daten").wait_for()
    assert page.locator("#data-download").inner_text() == "Meine Daten herunterladen"
    context.close()
