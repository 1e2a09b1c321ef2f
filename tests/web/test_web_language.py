"""The browser client in each of the five languages: from the browser's language and from the
picker, with no English sentence and no bare message id left on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

import kingsbreakfast.web  # noqa: E402
from kingsbreakfast.i18n import LANGUAGES  # noqa: E402
from kingsbreakfast.server import strings  # noqa: E402
from server.kb_live import LiveServer  # noqa: E402
from web.browsing import shot  # noqa: E402

STATIC = next(iter(kingsbreakfast.web.__path__)) + "/static"
ENGLISH: dict[str, str] = json.loads(Path(STATIC, "strings", "en.json").read_text("utf-8"))
IDS = re.compile(r"\b(?:" + "|".join(re.escape(key) for key in ENGLISH) + r")\b")


def translated(code: str) -> dict[str, str]:
    return strings.catalog(Path(STATIC), code)


def test_every_client_string_is_served_translated() -> None:
    """The server hands out the catalogue's translation of every client string (the
    catalogue tests check each one is translated; here, that none gets lost on the way)."""
    for code in LANGUAGES:
        table = translated(code)
        assert set(table) == set(ENGLISH)
        if code == "en":
            assert table == ENGLISH
            continue
        same = {key for key, text in table.items() if text == ENGLISH[key]}
        assert same == READ_ALIKE[code], f"{code}: served in English: {sorted(same)}"


READ_ALIKE: dict[str, set[str]] = {
    "de": {"score.cell", "seat.bot", "tour.buchholz", "tour.live", "tour.name"},
    "hu": {"notices.channel.mail", "score.cell", "tour.bot", "tour.buchholz"},
    "fr": {"dish.dragon", "level.expert", "score.cell", "score.points", "tour.bot",
           "tour.buchholz", "tour.points", "tour.table", "tour.tables"},
    "vi": {"score.cell", "tour.bot", "tour.buchholz"},
}
"""The strings each language writes exactly as English does, each checked by a reader: a
format ("{held}×{king}={points}", "Bot {seat} ({level})"), a name (Buchholz, R1's *Dragon* in
French), or a word both languages share (*live*, *Name*, *Bot*, *E-mail*, *Table*, *Points*,
*Expert*). Any other string served in English is a lost translation."""


def lobby_text(browser: Any, server: LiveServer, locale: str) -> str:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("form#create")
    page.wait_for_selector("html[lang]:not([lang=''])", state="attached")
    text = page.inner_text("body")
    shot(page, f"lobby-{locale}")
    context.close()
    return str(text)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lobby_speaks_the_browsers_language(
    browser: Any, server: LiveServer, code: str
) -> None:
    text = lobby_text(browser, server, {"en": "en-GB", "de": "de-DE", "hu": "hu-HU",
                                        "fr": "fr-FR", "vi": "vi-VN"}[code])
    table = translated(code)
    for key in ("lobby.create", "lobby.yourName", "lobby.createButton", "app.language"):
        assert table[key] in text, f"{code}: {table[key]!r} missing"
    assert not IDS.findall(text), f"{code}: bare message ids {IDS.findall(text)}"
    if code != "en":
        english_only = [
            ENGLISH[key] for key in ("lobby.create", "lobby.yourName", "lobby.botLevel",
                                     "lobby.publicTables", "app.tagline")
            if ENGLISH[key] in text
        ]
        assert not english_only, f"{code}: English left on the page: {english_only}"


def test_the_picker_switches_language(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#lang")
    page.select_option("#lang", "hu")
    hungarian = translated("hu")["lobby.createButton"]
    page.wait_for_selector(f"text={hungarian}")
    page.reload()  # the choice is remembered
    page.wait_for_selector(f"text={hungarian}")
    assert page.evaluate("document.documentElement.lang") == "hu"
    context.close()


def test_the_rules_page_in_every_language(browser: Any, server: LiveServer) -> None:
    for code, locale in (("en", "en-GB"), ("de", "de-DE"), ("hu", "hu-HU"), ("fr", "fr-FR"),
                         ("vi", "vi-VN")):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#rules-link")
        page.click("#rules-link")
        page.wait_for_selector(".rules h1")
        title = page.inner_text(".rules h1")
        assert title == rules_title(code)
        assert "R11" in page.inner_text(".rules")
        shot(page, f"rules-{locale}")
        context.close()


def rules_title(code: str) -> str:
    from kingsbreakfast.i18n.rules import rules_text

    return rules_text(code).splitlines()[0].lstrip("# ").strip()


@pytest.mark.parametrize(
    ("code", "singular_counts", "plural_counts"),
    [("en", [1], [0, 2, 5]), ("fr", [0, 1], [2, 5]), ("hu", [1], [0, 2]), ("vi", [], [0, 1, 2])],
)
def test_counts_take_the_languages_plural_rule(
    browser: Any, server: LiveServer, code: str, singular_counts: list[int],
    plural_counts: list[int],
) -> None:
    # French says "0 carte" (CLDR: 0 and 1 are singular); Vietnamese has one form for all.
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#lang")
    page.select_option("#lang", code)
    catalog = ENGLISH if code == "en" else translated(code)
    page.wait_for_selector(f"text={catalog['lobby.createButton']}")  # its catalogue is in
    for count in singular_counts + plural_counts:
        # the page's own module instance: the versioned URL its app.js came from
        text = page.evaluate(
            "async ([n]) => (await import(document.querySelector('script[type=module]')"
            ".src.replace(/app\\.js$/, 'strings.js')))"
            ".tCount('game.hiddenCountOne', 'game.hiddenCount', n)",
            [count],
        )
        key = "game.hiddenCountOne" if count in singular_counts else "game.hiddenCount"
        assert text == catalog[key].replace("{count}", str(count))
    context.close()


@pytest.mark.parametrize("code", ["de", "vi"])
def test_the_picker_at_the_table_translates_every_panel_and_keeps_a_typed_line(
    browser: Any, server: LiveServer, code: str
) -> None:
    from web.playing import open_solo_table

    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_solo_table(page, server.base)
    page.wait_for_selector(".chat #chat-form")
    page.fill(".chat #chat-form input[name=text]", "half a sentence")
    page.select_option("#lang", code)
    page.wait_for_selector(f"html[lang={code}]")
    catalog = translated(code)
    chat = page.locator(".chat")
    for key in ("chat.title", "chat.label", "chat.send", "chat.empty"):
        chat.get_by_text(catalog[key], exact=True).first.wait_for()
    text = page.inner_text("body")
    english = [ENGLISH[key] for key in ("chat.title", "chat.empty") if ENGLISH[key] in text]
    assert not english, f"{code}: English left at the table: {english}"
    assert page.input_value(".chat #chat-form input[name=text]") == "half a sentence"
    context.close()
