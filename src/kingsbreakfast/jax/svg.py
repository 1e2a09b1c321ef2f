"""An SVG drawing of JAX states, for ``State.save_svg`` (pgx's visualisation hook).

One panel per game: the round, the cook and the seat to move, the cards on the table (R4),
the king's plate (R8), and for each seat the cards it took (public, R6) and how many dish
cards it drew (R7: which ones stays hidden, so a saved picture tells nobody another seat's
hand). A batch is drawn as a column of panels. Plain text, no dependency: the drawing is a
list of rectangles and labels.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from kingsbreakfast.engine import DISHES, NUM_DISHES

_COLOURS = ("#d9a05b", "#f2d16b", "#e58f8f", "#c9b38c", "#8fc96b", "#d98fc9", "#9b5fc0")
_DRAGON_COLOUR = "#b22222"
_THEMES = {"light": ("#ffffff", "#222222"), "dark": ("#1e1e1e", "#eeeeee")}
_CELL = 34
_ROW = 30
_LEFT = 120
_WIDTH = _LEFT + (NUM_DISHES + 2) * _CELL + 20


def draw(arrays: dict[str, Any], theme: str, scale: float) -> str:
    """The SVG text for the games in ``arrays`` (the state's fields as numpy arrays, each
    with the batch's leading axes if any)."""
    if theme not in _THEMES:
        raise ValueError(f"color_theme must be 'light' or 'dark', not {theme!r}")
    if not scale > 0:
        raise ValueError(f"scale must be positive, not {scale!r}")
    batch = np.shape(arrays["current_player"])
    count = int(np.prod(batch)) if batch else 1
    games = [
        {name: np.reshape(value, (count, *np.shape(value)[len(batch):]))[g]
         for name, value in arrays.items()}
        for g in range(count)
    ]  # fmt: skip
    background, ink = _THEMES[theme]
    parts: list[str] = []
    top = 0
    for game in games:
        panel, height = _panel(game, top, ink)
        parts.extend(panel)
        top += height
    wide, high = _WIDTH * scale, top * scale
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{wide:.0f}" height="{high:.0f}" '
        f'viewBox="0 0 {_WIDTH} {top}" font-family="sans-serif" font-size="13">'
    )
    body = [f'<rect width="{_WIDTH}" height="{top}" fill="{background}"/>', *parts]
    return "\n".join([head, *body, "</svg>"]) + "\n"


def _panel(game: dict[str, Any], top: int, ink: str) -> tuple[list[str], int]:
    players = int(np.shape(game["takes"])[0])
    over = bool(game["terminated"])
    y = top + 22
    status = (
        f"round {int(game['round'])}, cook seat {int(game['cook'])}, "
        + ("game over" if over else f"seat {int(game['current_player'])} to move")
        + f", {int(np.sum(game['deck']))} cards in the deck"
    )
    out = [_text(10, y, status, ink, bold=True)]
    y += 10
    out += _row(y, "table", game["table"], ink, dragons=True)
    y += _ROW
    out += _row(y, "king", game["king"], ink)
    y += _ROW
    for seat in range(players):
        label = f"seat {seat} took"
        out += _row(y, label, game["takes"][seat], ink)
        drew = int(np.sum(game["draws"][seat]))
        note = f"drew {drew}"
        if over:
            note += f", reward {float(game['rewards'][seat]):+.2f}"
        out.append(_text(_LEFT + NUM_DISHES * _CELL + 8, y + 20, note, ink))
        y += _ROW
    y += 12
    out.append(f'<line x1="0" y1="{y}" x2="{_WIDTH}" y2="{y}" stroke="{ink}" '
               'stroke-opacity="0.3"/>')  # fmt: skip
    return out, y - top


def _row(y: int, label: str, counts: Any, ink: str, dragons: bool = False) -> list[str]:
    out = [_text(10, y + 20, label, ink)]
    kinds = NUM_DISHES + (1 if dragons else 0)
    for kind in range(kinds):
        colour = _DRAGON_COLOUR if kind == NUM_DISHES else _COLOURS[kind]
        name = "dragon" if kind == NUM_DISHES else DISHES[kind]
        x = _LEFT + kind * _CELL
        count = int(counts[kind])
        out.append(
            f'<rect x="{x}" y="{y + 3}" width="{_CELL - 4}" height="{_ROW - 6}" rx="4" '
            f'fill="{colour}" fill-opacity="{1.0 if count else 0.25}">'
            f"<title>{escape(name)}</title></rect>"
        )
        if count:
            out.append(_text(x + 9, y + 20, str(count), "#000000"))
    return out


def _text(x: int, y: int, text: str, ink: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" fill="{ink}"{weight}>{escape(text)}</text>'
