"""The rules explained to a player, written for this project in each of our languages.

Whole texts rather than catalogue entries: a rules page reads best written as one piece by
someone who speaks the language, and gettext's sentence-by-sentence shape would break it up.
"""

from __future__ import annotations

from importlib import resources

from kingsbreakfast.i18n import current_language


def rules_text(language: str | None = None) -> str:
    """The rules page (Markdown) in ``language`` (default: the current language)."""
    code = language or current_language()
    return resources.files(__name__).joinpath(f"{code}.md").read_text(encoding="utf-8")
