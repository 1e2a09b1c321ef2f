"""Choosing the language, and what each language shows."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kingsbreakfast.engine import IllegalActionError, State
from kingsbreakfast.i18n import (
    LANGUAGES,
    UnknownLanguageError,
    _,
    accept_language,
    choose_language,
    language,
    ngettext,
)
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.i18n.rules import rules_text
from kingsbreakfast.i18n.words import cards_phrase, dish_count, dish_name, dragon_name
from untranslated import english_pieces


def test_lang_option_then_environment_then_locale() -> None:
    env = {"KINGSBREAKFAST_LANG": "hu", "LANG": "fr_FR.UTF-8"}
    assert choose_language("de", env) == "de"
    assert choose_language(None, env) == "hu"
    assert choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert choose_language(None, {"LC_ALL": "vi_VN.UTF-8", "LANG": "de_DE"}) == "vi"
    assert choose_language(None, {"LANGUAGE": "xx:de_AT", "LANG": "C"}) == "de"
    assert choose_language(None, {"LANG": "C.UTF-8"}) == "en"
    assert choose_language(None, {"LANG": "ja_JP.UTF-8"}) == "en"


def test_an_unknown_requested_language_is_an_error() -> None:
    with pytest.raises(UnknownLanguageError):
        choose_language("xx", {})
    with pytest.raises(UnknownLanguageError):
        choose_language(None, {"KINGSBREAKFAST_LANG": "klingon"})


def test_accept_language_picks_the_best_we_have() -> None:
    assert accept_language("ja, vi;q=0.8, fr;q=0.9") == "fr"
    assert accept_language("de-CH") == "de"
    assert accept_language("ja") == "en"
    assert accept_language(None) == "en"
    assert accept_language("hu;q=0, fr;q=0.1") == "fr"
    assert accept_language("fr;q=bad, de") == "de"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-AT", "de"),  # a region of a language we have
        ("DE-at", "de"),
        ("fr-CA;q=0.8, en;q=0.5", "fr"),
        ("ja, fr-CA;q=0.8, hu-HU;q=0.9", "hu"),
        ("en-US,en;q=0.9,de;q=0.8", "en"),
        ("de;q=0.5, vi-VN;q=0.5", "de"),  # a tie keeps the header's order
        ("x-klingon, ja;q=0.9, vi-VN;q=0.2", "vi"),
        ("fr;Q=0.4, de;q=0.3", "fr"),
        ("*", "en"),  # anything: our default
        ("ja, *;q=0.5", "en"),
        ("fr-CA;q=0.8, *;q=0.9", "en"),  # any language but French is liked better
        ("en;q=0, *", "de"),  # anything but English: the first other catalogue
        ("en;q=0, de;q=0, *;q=0.1", "hu"),
        ("*;q=0, fr", "fr"),
        ("", "en"),
        (",, ;q=1", "en"),
    ],
)
def test_accept_language_ranks_q_values_regions_and_the_wildcard(
    header: str, expected: str
) -> None:
    assert accept_language(header) == expected


def test_only_the_servers_language_choice_needs_babel() -> None:
    """Babel ships with the server extra; a terminal game translates without it."""
    blocked = (
        "import sys; sys.modules['babel'] = None\n"
        "from kingsbreakfast.i18n import choose_language, language, ngettext\n"
        "with language(choose_language('de', {})):\n"
        "    print(ngettext('{count} card', '{count} cards', 2).format(count=2))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2 Karten"


def test_dish_and_dragon_names_follow_r1() -> None:
    expected = {
        "en": (["bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"], "Emerald"),
        "de": (["Brot", "Käse", "Schinken", "Hähnchen", "Obst", "Kuchen", "Wein"], "Emerald"),
        "hu": (["kenyér", "sajt", "sonka", "csirke", "gyümölcs", "torta", "bor"], "Smaragdocska"),
        "fr": (["pain", "fromage", "jambon", "poulet", "fruits", "gâteau", "vin"], "Dragon"),
        "vi": (["bánh mì", "phô mai", "giăm bông", "gà", "trái cây", "bánh ngọt", "rượu vang"],
               "Rồng ngáo"),
    }
    for code, (dishes, dragon) in expected.items():
        with language(code):
            assert [dish_name(d) for d in range(7)] == dishes
            assert dragon_name() == dragon


def test_plural_forms_in_each_language() -> None:
    cases = {
        "en": ("1 card", "2 cards", "0 cards"),
        "de": ("1 Karte", "2 Karten", "0 Karten"),
        "hu": ("1 lap", "2 lap", "0 lap"),
        "fr": ("1 carte", "2 cartes", "0 carte"),
        "vi": ("1 lá", "2 lá", "0 lá"),
    }
    for code, (one, two, zero) in cases.items():
        with language(code):
            forms = [ngettext("{count} card", "{count} cards", n).format(count=n)
                     for n in (1, 2, 0)]
            assert forms == [one, two, zero]
    with language("fr"):
        assert dish_count(1, 3) == "3 fromages"
        assert cards_phrase([0, 2, 1, 0, 0, 0, 0], 1) == "2 fromages, 1 jambon et 1 dragon"


def test_engine_errors_are_explained_in_each_language() -> None:
    state = State.new(3, 1)
    missing = next(d for d in range(7) if state.table[d] == 0)
    with pytest.raises(IllegalActionError) as caught:
        state.play(missing)
    texts = set()
    for code in LANGUAGES:
        with language(code):
            text = explain(caught.value)
            assert dish_name(missing) in text and "(R6)" in text
            texts.add(text)
    assert len(texts) == len(LANGUAGES)
    with language("en"):
        assert explain(caught.value) == str(caught.value)


def test_the_rules_are_written_in_every_language() -> None:
    titles = set()
    for code in LANGUAGES:
        text = rules_text(code)
        titles.add(text.splitlines()[0])
        for rule in ("R1", "R2", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"):
            assert rule in text, f"{code} rules do not mention {rule}"
    assert len(titles) == len(LANGUAGES)


def run_cli(*args: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KINGSBREAKFAST_LANG"}
    env["LANG"] = "C.UTF-8"
    if lang:
        env["KINGSBREAKFAST_LANG"] = lang
    return subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", *args],
        capture_output=True, text=True, env=env, timeout=120,
    )


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_a_whole_game_told_in_each_language_shows_no_english(code: str) -> None:
    result = run_cli("demo", "--seed", "11", "--players", "5", lang=code)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    with language(code):
        assert _("The king is served {cards}.").split("{")[0] in text
    for fragment in english_pieces(code):
        assert fragment not in text, f"untranslated English in {code}: {fragment!r}"


def test_lang_option_overrides_the_environment() -> None:
    result = run_cli("--lang", "de", "rules", lang="fr")
    assert result.stdout.startswith("# So spielt man King Lui")
    result = run_cli("rules", "--lang", "vi")
    assert "Rồng ngáo" in result.stdout
    result = run_cli("rules", lang="xx")
    assert result.returncode == 2 and "unknown language" in result.stderr
