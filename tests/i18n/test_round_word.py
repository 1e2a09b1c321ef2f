"""One word for a round in each language, in the browser's strings, the terminal's and the
rules text: French says "manche" (its "tour" is a player's turn), German "Runde", Hungarian
"forduló", Vietnamese "vòng"."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from kingsbreakfast.i18n import LOCALES
from kingsbreakfast.i18n.rules import rules_text

WORD = {"fr": ("manche", r"\btours?\b"), "de": ("runde", None), "hu": ("forduló", None),
        "vi": ("vòng", None)}
ROUND = re.compile(r"\bround\b", re.IGNORECASE)


@pytest.mark.parametrize("code", sorted(WORD))
def test_a_round_has_one_word(code: str) -> None:
    word, never = WORD[code]
    with open(LOCALES / code / "LC_MESSAGES" / "kingsbreakfast.po", "rb") as handle:
        catalogue = read_po(handle)
    for message in catalogue:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or not any(ROUND.search(text) for text in ids):
            continue
        if any("turn" in text.lower() for text in ids):
            continue  # both a round and a turn: checked by a reader, not by a word count
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert word in text.lower(), f"{code}: {message.id!r} → {text!r}"
            if never:
                assert not re.search(never, text, re.IGNORECASE), f"{code}: {text!r}"


def test_the_french_rules_call_a_round_a_manche() -> None:
    text = rules_text("fr")
    assert "manche" in text.lower()
    assert not re.search(r"\b(un|des|du|au|le) tours?\b", text, re.IGNORECASE)
