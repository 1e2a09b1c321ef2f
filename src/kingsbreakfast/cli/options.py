"""Command-line options that several commands share, declared once so they read the same."""

from __future__ import annotations

from typing import Annotated

import typer

EmptyTableOption = Annotated[
    str, typer.Option(help="Variant: draw_or_feed (ruling R5a) or must_draw.")
]
DragonMinOption = Annotated[
    int, typer.Option(help="Variant: dragons needed on the table to feed one (1 or 2).")
]
