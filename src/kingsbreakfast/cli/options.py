"""Command-line options that several commands share, declared once so they read and behave
the same on every command."""

from __future__ import annotations

from typing import Annotated

import typer

from kingsbreakfast.engine import DRAW_OR_FEED, MUST_DRAW, KingsBreakfastError, Rules, SetupError
from kingsbreakfast.i18n import (
    LANGUAGES,
    UnknownLanguageError,
    _,
    choose_language,
    set_language,
)
from kingsbreakfast.i18n.errors import explain

LANGUAGE_ASKED = "kingsbreakfast.language"
"""The key in the context's ``obj`` for what a ``--lang`` anywhere on the line says (None
without one), found before the line is parsed."""


def use_language(ctx: typer.Context, lang: str | None) -> str | None:
    """Pick the language as soon as ``--lang`` is read, or stop with a clear error.

    On the command line as a whole (``kingsbreakfast --lang de …``) no ``--lang`` still
    chooses: KINGSBREAKFAST_LANG, then the system locale. On a single command it only
    overrides, so ``kingsbreakfast --lang de rules`` stays German.
    """
    if lang is None and ctx.parent is not None:
        return lang
    if lang is None and isinstance(ctx.obj, dict):
        # a ``--lang`` further on the line (``play --help --lang de``) chooses already: the
        # help may be printed before that option is read
        lang = ctx.obj.get(LANGUAGE_ASKED)
    try:
        set_language(choose_language(lang))
    except UnknownLanguageError as error:
        typer.echo(_("error: {reason}").format(reason=explain(error)), err=True)
        raise typer.Exit(2) from None
    return lang


DB_ENV = "KINGSBREAKFAST_DB"
"""Where ``serve`` and ``export-games`` read the database URL, which keeps a password out of
the process list."""

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language: {languages} (default: KINGSBREAKFAST_LANG, then the system locale, "
        "then English).",
        show_default=False,
        callback=use_language,
    ),
]

VariantOption = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        help="A variant switch NAME=VALUE (docs/rules.md, Variants): "
        "empty_table={draw_or_feed} (the ruling, R5a) or {must_draw}; dragon_min_on_table=1 "
        "(R8) or 2. Repeat the option for several.",
        show_default=False,
    ),
]


def help_values() -> dict[str, str]:
    """What the help texts name from the program itself, filled in once they are
    translated (a placeholder in the text, so the catalogue holds one sentence)."""
    from kingsbreakfast.bots import BOT_NAMES, BOTS, LEVELS
    from kingsbreakfast.tui.opponents import default_bot

    return {
        "languages": ", ".join(LANGUAGES),
        "draw_or_feed": DRAW_OR_FEED,
        "must_draw": MUST_DRAW,
        "levels": ", ".join(LEVELS),
        "bots": ", ".join(BOT_NAMES),
        "default_bot": default_bot(),
        "batch_bots": ", ".join(e.name for e in BOTS if e.batch_policy is not None),
        "db_env": DB_ENV,
    }


def parse_variants(switches: list[str] | None) -> Rules:
    """``--variant empty_table=must_draw --variant dragon_min_on_table=2`` → Rules.

    A switch without ``=`` is refused here (``bad_variant``); an unknown switch or a value
    the switch does not take is the engine's :class:`SetupError`, whose parameters name the
    switch and what it accepts, so the translated sentence can say both.
    """
    values: dict[str, object] = {}
    for switch in switches or []:
        key, sep, value = switch.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise SetupError(
                f"--variant {switch!r}: write it as NAME=VALUE, e.g. empty_table=must_draw",
                "bad_variant",
                switch=repr(switch),
            )
        values[key] = int(value) if value.isdigit() else value
    return Rules.from_dict(values)


def fail(reason: Exception | str) -> typer.Exit:
    """Say what is wrong on standard error and give the exit to raise (status 2, bad input).

    An error of the project is told in the player's language from its code and parameters.
    """
    text = explain(reason) if isinstance(reason, KingsBreakfastError) else str(reason)
    typer.echo(_("error: {reason}").format(reason=text), err=True)
    return typer.Exit(2)
