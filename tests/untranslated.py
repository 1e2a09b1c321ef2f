"""What an untranslated screen would show: pieces of English source sentences.

A screen in another language must contain none of the pieces whose translation differs.
Shared by the command-line and terminal-game language tests.
"""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from kingsbreakfast.i18n import LOCALES


def english_pieces(code: str, shortest: int = 12, phrases_only: bool = False) -> list[str]:
    """English fragments (between placeholders) that ``code``'s catalogue translates
    differently; ``phrases_only`` keeps only those with a space in them."""
    with open(LOCALES / code / "LC_MESSAGES" / "kingsbreakfast.po", "rb") as handle:
        catalog = read_po(handle, locale=code)
    pieces = []
    for message in catalog:
        if not message.id or message.context:
            continue
        source = message.id[0] if isinstance(message.id, tuple) else message.id
        target = message.string[0] if isinstance(message.string, tuple) else message.string
        if source == target:
            continue
        for piece in re.split(r"\{[^}]*\}", source):
            piece = piece.strip(" .,:;()·…")
            wanted = len(piece) >= shortest and (not phrases_only or " " in piece)
            if wanted and piece not in target:
                pieces.append(piece)
    return pieces
