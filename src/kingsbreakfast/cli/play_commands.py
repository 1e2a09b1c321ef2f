"""Commands for the terminal game 'play' (issue 5)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
