"""The five catalogues are complete, consistent with the source and compiled."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import kingsbreakfast
from kingsbreakfast.i18n import LANGUAGES, LOCALES
from kingsbreakfast.i18n.errors import known_codes

PACKAGE = Path(kingsbreakfast.__file__).parent
ROOT = PACKAGE.parent.parent
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)[^}]*\}")
EXPECTED_PLURALS = {"de": 2, "hu": 2, "fr": 3, "vi": 1}


def template() -> Catalog:
    # strict: a merge that drops a line of an entry must fail here, not pass half-read
    with open(LOCALES / "messages.pot", "rb") as handle:
        return read_po(handle, abort_invalid=True)


def catalogue(code: str) -> Catalog:
    with open(LOCALES / code / "LC_MESSAGES" / "kingsbreakfast.po", "rb") as handle:
        return read_po(handle, locale=code, abort_invalid=True)


def ids(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(message.id, message.context) for message in catalog if message.id}


def test_the_template_lists_every_message_in_the_source(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-k", "N_", "-F",
         str(ROOT / "babel.cfg"), "-o", str(fresh), "--no-location", str(PACKAGE)],
        check=True, capture_output=True,
    )
    with open(fresh, "rb") as handle:
        extracted = read_po(handle)
    assert ids(extracted) == ids(template()), "run pybabel extract (docs/translating.md)"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str) -> None:
    catalog = catalogue(code)
    assert ids(catalog) == ids(template())
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(form.strip() for form in forms), f"{code}: {message.id!r} is empty"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_follow_the_language(code: str) -> None:
    catalog = catalogue(code)
    assert catalog.num_plurals == EXPECTED_PLURALS[code]
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(message.string) == catalog.num_plurals


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_match_the_source(code: str) -> None:
    for message in catalogue(code):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(set(PLACEHOLDER.findall(s)) for s in sources))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            found = set(PLACEHOLDER.findall(form))
            # a language may leave out the number where its grammar needs no count
            assert found <= wanted, f"{code}: {form!r} has placeholders not in {sources[0]!r}"
            missing = wanted - found - {"count"}
            assert not missing, f"{code}: {form!r} lacks {missing}"
            form.format(**dict.fromkeys(wanted, "x"))  # a translation that does not format fails


@pytest.mark.parametrize("code", TRANSLATED)
def test_compiled_catalogues_are_up_to_date(code: str) -> None:
    mo = LOCALES / code / "LC_MESSAGES" / "kingsbreakfast.mo"
    with open(mo, "rb") as handle:
        compiled = read_mo(handle)
    source = catalogue(code)
    for message in source:
        if not message.id:
            continue
        entry = compiled.get(message.id, context=message.context)
        assert entry is not None, f"{code}: {message.id!r} missing from the .mo: recompile"
        got = tuple(entry.string) if isinstance(entry.string, list) else entry.string
        assert got == message.string, f"{code}: {message.id!r} differs: recompile"


def test_every_error_code_the_engine_raises_can_be_translated() -> None:
    raised: set[str] = set()
    for path in [*(PACKAGE / "engine").glob("*.py"), PACKAGE / "cli" / "main.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.endswith("Error")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                raised.add(node.args[1].value)
    # codes about programming mistakes, never shown to a player
    internal = {"bad_rules", "bad_seat", "bad_view", "deck_unknown", "bad_player_names",
                "no_deck", "unknown_action_id", "empty_action", "unknown_action",
                "bad_setup", "error",
                # a card is being turned up: only research code that deals an unknown deck
                # meets these (no game a person plays stops at a chance step)
                "chance_step", "not_chance_step", "card_not_in_deck",
                # a position's text form is written by the project itself (tests, the server's
                # records), never typed by a player
                "bad_state_text"}
    assert raised - internal <= known_codes(), sorted(raised - internal - known_codes())


def test_the_catalogue_file_parses_back(tmp_path: Path) -> None:
    buffer = io.BytesIO((LOCALES / "de" / "LC_MESSAGES" / "kingsbreakfast.po").read_bytes())
    assert len(read_po(buffer)) > 50


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_entry_is_fuzzy(code: str) -> None:
    """A fuzzy entry is a guess pybabel made when the English changed; gettext would show
    it as if it were checked, so none may be left (the header's own flag aside)."""
    fuzzy = [message.id for message in catalogue(code) if message.id and message.fuzzy]
    assert not fuzzy, f"{code}: fuzzy entries: {fuzzy}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_entries_use_the_same_placeholders_in_every_form(code: str) -> None:
    """Beyond the count a language may leave out, every form of a plural entry fills in
    the same placeholders, so no form drops a name or a number the others give."""
    for message in catalogue(code):
        if not message.id or not message.pluralizable:
            continue
        found = [set(PLACEHOLDER.findall(form)) - {"count"} for form in message.string]
        assert all(names == found[0] for names in found), f"{code}: {message.id[0]!r}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_sentence_is_left_in_english(code: str) -> None:
    """A msgstr copied from its msgid passes the emptiness check but leaves the player
    reading English; a message of three words or more must read differently."""
    copied = []
    for message in catalogue(code):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        words = re.findall(r"[A-Za-z]{2,}", PLACEHOLDER.sub("", sources[0]))
        if len(words) >= 3 and any(form in sources for form in forms):
            copied.append(sources[0])
    assert not copied, f"{code}: left in English: {copied}"
