"""The translation layer: every sentence a player reads passes through here.

Messages are marked in the source with :func:`_` (and :func:`ngettext` for counts, with
:func:`pgettext` where one English word has several meanings), extracted with Babel into
``messages.pot`` and translated in one gettext catalogue per language under ``locales/``.
The standard library's :mod:`gettext` reads the compiled catalogues at run time, so playing
needs no extra package; Babel is a tool for translators and for the tests.

The language is held in a context variable: a command-line run sets it once, a terminal game
may switch it in the middle of a game, and an async server can serve each connection in its
own language without threads stepping on each other.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import locale
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

from kingsbreakfast.engine import KingsBreakfastError

DOMAIN: Final = "kingsbreakfast"
LOCALES: Final = Path(__file__).parent / "locales"
LANGUAGES: Final = ("en", "de", "hu", "fr", "vi")
"""Supported languages: English, German (the game's original), Hungarian, French, Vietnamese."""
LANGUAGE_NAMES: Final = {
    "en": "English",
    "de": "Deutsch",
    "hu": "Magyar",
    "fr": "Français",
    "vi": "Tiếng Việt",
}
DEFAULT: Final = "en"
ENV_VAR: Final = "KINGSBREAKFAST_LANG"

_current: ContextVar[str] = ContextVar("kingsbreakfast_language", default=DEFAULT)


class UnknownLanguageError(KingsBreakfastError, ValueError):
    """A language we have no catalogue for; ``params["language"]`` is what was asked for."""

    code = "unknown_language"

    def __init__(self, language: str) -> None:
        super().__init__(
            f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}",
            language=language,
            choices=list(LANGUAGES),
        )


def check_language(code: str) -> str:
    """``code`` normalised (``DE`` → ``de``, ``fr_CA`` → ``fr``), or UnknownLanguageError."""
    short = code.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    if short not in LANGUAGES:
        raise UnknownLanguageError(code)
    return short


def _from_locale_string(value: str | None) -> str | None:
    if not value or value in ("C", "POSIX"):
        return None
    for part in value.split(":"):  # LANGUAGE may list several, best first
        try:
            return check_language(part)
        except UnknownLanguageError:
            continue
    return None


def choose_language(
    requested: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The language for a terminal session: ``--lang``, then ``KINGSBREAKFAST_LANG``, then the
    system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), then English.

    An explicit ``--lang`` or ``KINGSBREAKFAST_LANG`` that we do not have is an error (the
    user asked for it); a system locale we lack quietly falls back to English.
    """
    env = os.environ if environ is None else environ
    if requested:
        return check_language(requested)
    if env.get(ENV_VAR):
        return check_language(env[ENV_VAR])
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        found = _from_locale_string(env.get(name))
        if found:
            return found
    if environ is None:
        with contextlib.suppress(ValueError):
            found = _from_locale_string(locale.getlocale()[0])
            if found:
                return found
    return DEFAULT


def accept_language(header: str | None) -> str:
    """The best supported language from an HTTP ``Accept-Language`` header (web clients).

    The header is ranked by its q-values (a tag with ``q=0`` or an unreadable q is refused,
    ties keep the header's order) and ``*`` stands for every language of ours the header does
    not name. Babel then matches the ranking against our catalogues: case, regions (``de-AT``
    → ``de``) and its aliases. Babel is imported here only: it comes with the server, and the
    rest of the package plays without it.
    """
    from babel import Locale

    if not header:
        return DEFAULT
    ranked: list[tuple[float, int, str]] = []
    refused: set[str] = set()
    for position, item in enumerate(header.split(",")):
        tag, *params = (part.strip() for part in item.split(";"))
        weight = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if not tag:
            continue
        if weight > 0:
            ranked.append((-weight, position, tag))
        else:
            refused.add(tag.lower())
    preferred: list[str] = []
    for _weight, _position, tag in sorted(ranked):
        if tag == "*":
            named = {t.split("-")[0].lower() for _w, _p, t in ranked} | refused
            preferred.extend(code for code in LANGUAGES if code not in named)
        else:
            preferred.append(tag.replace("_", "-"))
    found = Locale.negotiate(preferred, LANGUAGES, sep="-")
    return DEFAULT if found is None else found.language


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English is the source: no catalogue needed)."""
    language = check_language(language)
    if language == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALES, languages=[language])


def set_language(language: str) -> str:
    """Make ``language`` the current one (in this context) and return its normalised code."""
    code = check_language(language)
    _current.set(code)
    return code


def current_language() -> str:
    return _current.get()


@contextlib.contextmanager
def language(code: str) -> Iterator[str]:
    """Within the block, messages come in ``code``."""
    token = _current.set(check_language(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """The current language's translation of ``message``."""
    return translations(_current.get()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the translators without translating it yet: for texts fixed
    when a class is defined (key bindings) and translated when they are shown."""
    return message


def gettext(message: str) -> str:
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The right plural form for ``count`` under the current language's rules."""
    return translations(_current.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """A translation chosen by context (``dish``/``bread`` vs. another meaning)."""
    return translations(_current.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    return translations(_current.get()).npgettext(context, singular, plural, count)


__all__ = [
    "DEFAULT",
    "ENV_VAR",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "UnknownLanguageError",
    "_",
    "accept_language",
    "check_language",
    "choose_language",
    "current_language",
    "gettext",
    "language",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
    "translations",
]
