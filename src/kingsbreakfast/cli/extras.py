"""Commands that need an optional part of the package say so in one line, before any work.

The core install (``pip install kingsbreakfast``) brings typer, rich and platformdirs only;
the heavy packages come in extras (pyproject.toml). A command that needs one checks for it
first, so that a missing package is a clear, translated line naming the extra and the pip
command that adds it to this installation, with exit status 2 (bad usage), never a
traceback, and never after minutes of work (a tournament must not play its games and only
then find that it cannot rate them).
"""

from __future__ import annotations

import importlib.util

import typer

from kingsbreakfast.cli.options import fail
from kingsbreakfast.engine import KingsBreakfastError


def missing(*modules: str) -> list[str]:
    """The modules of ``modules`` this installation cannot import."""
    return [name for name in modules if importlib.util.find_spec(name) is None]


def need_extra(extra: str, *modules: str) -> None:
    """Stop with status 2 when any of ``modules`` is missing, naming ``extra``."""
    absent = missing(*modules)
    if absent:
        raise lacking(extra, *absent)


def lacking(extra: str, *packages: str) -> typer.Exit:
    """Say that ``packages`` of ``extra`` are missing; gives the exit (status 2) to raise.

    For an import that failed deep inside a part of the package (``error.name`` names it).
    """
    names = ", ".join(packages)
    return fail(
        KingsBreakfastError(
            f"this needs {names}, from the '{extra}' extra",
            "needs_extra",
            packages=names,
            extra=extra,
        )
    )
