"""The browser client's strings in the player's language.

The client's English catalogue (``web/static/strings/en.json``, message id → text) is the
source; each string is translated through the project's gettext catalogues with the context
``web:<id>`` (so translators see where a string is used, and one English word may be
translated differently in two places). An untranslated string stays English.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import markdown

from kingsbreakfast.i18n import LANGUAGE_NAMES, LANGUAGES, check_language, translations
from kingsbreakfast.i18n.rules import rules_text


def languages() -> list[dict[str, str]]:
    return [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES]


def english(static: Path) -> dict[str, str]:
    data: Any = json.loads((static / "strings" / "en.json").read_text(encoding="utf-8"))
    return {str(key): str(value) for key, value in data.items()}


def catalog(static: Path, language: str) -> dict[str, str]:
    """Every client string in ``language`` (raises UnknownLanguageError for others).

    The code is normalised to one of our five before anything is cached: a cache keyed by
    whatever a client put in the path grew by a catalogue per made-up code, for ever."""
    return _catalog(static, check_language(language))


@cache
def _catalog(static: Path, code: str) -> dict[str, str]:
    table = translations(code)
    return {key: table.pgettext(f"web:{key}", text) for key, text in english(static).items()}


def rules_html(language: str) -> str:
    """The rules page in ``language`` (written for the project, see ``i18n/rules``) as HTML;
    the text is ours, so nothing from a user reaches the markup."""
    return _rules_html(check_language(language))


@cache
def _rules_html(code: str) -> str:
    return markdown.markdown(rules_text(code))
