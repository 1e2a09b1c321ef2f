"""Commands for research interfaces and batch simulation (issue 4)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
