"""Names people read: which characters a display name may hold, and when two names are one.

Two names are one when they *look* alike, not only when their bytes match: ``Ann`` with a
Latin A, ``Αnn`` with a Greek alpha, ``Аnn`` with a Cyrillic A, ``ann``, ``ANN``, ``Ａｎｎ``
and ``Ann`` with an accent stacked on its last letter all read as Ann to another player.
:func:`look_alike_key` is the comparison: NFKC (width and compatibility forms), the Unicode
confusable *skeleton* of UTS 39 (Unicode Security Mechanisms, section 4), case folding, and
the marks on letters dropped, NFKC again (the skeleton may answer compatibility forms: ``%``
reads as ``º/₀``); repeated until it stops changing, so capitals that look like
other small letters (``I`` and ``l``) meet as well. The skeleton is ICU's
``SpoofChecker.getSkeleton`` (PyICU), the reference implementation the Unicode consortium
keeps in step with its ``confusables.txt``: the pure-Python packages on PyPI either only flag
a character as confusable (confusable-homoglyphs) or map to every ASCII look-alike at once
(confusables), neither of which is the skeleton UTS 39 defines.

:func:`visible_name` refuses what reads as nothing or as something else: characters Unicode
marks *default ignorable* (the Hangul fillers U+3164/U+115F/U+FFA0 that fonts draw as blanks,
variation selectors such as U+FE0F, zero-width joiners), the blank Braille pattern U+2800, a
combining mark with no letter under it, more than :data:`MAX_MARKS` marks stacked on one
letter, and a name without a single visible letter.
"""

from __future__ import annotations

import unicodedata
from typing import Final

import icu  # type: ignore[import-untyped]

KEY_CHARS: Final = 255
"""A key is cut here (the skeleton of a 32-character name may be a few times longer)."""
MAX_MARKS: Final = 3
"""Combining marks one letter may carry (decomposed): Vietnamese needs two (ệ is e, a dot
below and a circumflex), nothing people write needs more than three."""
BLANK_SYMBOLS: Final = frozenset("\u2800")
"""Characters that are neither ignorable nor spaces but are drawn as nothing."""
_CHECKER: Final = icu.SpoofChecker()
_IGNORABLE: Final = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


def _skeleton(text: str) -> str:
    return str(_CHECKER.getSkeleton(0, text))


def _bare(text: str) -> str:
    """Case-folded, with every combining mark taken off its letter."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def look_alike_key(name: str) -> str:
    """One key for every name that reads the same (see the module's note)."""
    key = unicodedata.normalize("NFKC", name)
    for _round in range(8):  # a fixed point in one to three rounds; eight bound it
        step = unicodedata.normalize("NFKC", _bare(_skeleton(key)))
        if step == key:
            break
        key = step
    return key[:KEY_CHARS]


def invisible(ch: str) -> bool:
    """Drawn as nothing (or as a blank): never a part of a name."""
    return ch in BLANK_SYMBOLS or bool(icu.Char.hasBinaryProperty(ch, _IGNORABLE))


def name_fault(text: str) -> str | None:
    """Why ``text`` (trimmed, control characters already refused) cannot be a name, or
    None: ``invisible`` (a character drawn as nothing), ``lone_mark`` (a combining mark
    with no letter under it), ``stacked_marks`` (more than :data:`MAX_MARKS` on a letter),
    ``no_letter`` (nothing a reader sees as a letter)."""
    if any(invisible(ch) for ch in text):
        return "invisible"
    base: str | None = None  # the letter the marks that follow sit on
    marks = 0
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) or unicodedata.category(ch) == "Me":
            if base is None:
                return "lone_mark"
            marks += 1
            if marks > MAX_MARKS:
                return "stacked_marks"
        else:
            base = ch if _carries_marks(ch) else None
            marks = 0
    if not any(unicodedata.category(ch).startswith("L") for ch in text):
        return "no_letter"
    return None


def _carries_marks(ch: str) -> bool:
    """A base a mark may sit on: a letter or a digit, never a space or a symbol."""
    return unicodedata.category(ch)[0] in "LN"
