"""On a terminal of 16 colours the highlighted move and the status line stay readable: the
colours the screen asks for, brought down to the 16 as the terminal shows them, keep a
contrast of at least 4.5:1 (WCAG AA). The themes' blue came out as cyan under white, about
2:1."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from rich.color import Color, ColorSystem
from rich.segment import Segment
from tui_helpers import seats, settle

from kingsbreakfast.tui.app import PlayApp
from kingsbreakfast.tui.session import Game
from kingsbreakfast.tui.widgets import MoveList

XTERM = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
         (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
         (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
"""xterm's 16 colours as it shows them by default."""


def luminance(rgb: tuple[int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(segment: Segment) -> float:
    """The segment's text against its background once the terminal has only 16 colours."""
    assert segment.style is not None and segment.style.color and segment.style.bgcolor
    shown = [XTERM[Color.downgrade(colour, ColorSystem.STANDARD).number or 0]
             for colour in (segment.style.color, segment.style.bgcolor)]
    light, dark = sorted((luminance(rgb) for rgb in shown), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_the_highlight_and_status_line_read_at_16_colours(
    light: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "xterm-16color")
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    app = PlayApp(Game.new(seats(None, "random", "random"), seed=11), speed=0, light=light)
    assert app.console.color_system == "standard"

    async def scenario() -> list[Segment]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            moves = app.screen.query_one(MoveList)
            assert moves.highlighted == 0
            highlighted = [s for s in moves.render_line(0) if s.text.strip()]  # the first move
            status = [s for s in app.screen.query_one("#status").render_line(0)
                      if s.text.strip()]
            return highlighted + status

    segments = asyncio.run(scenario())
    assert segments
    low = [(s.text, round(contrast(s), 2)) for s in segments if contrast(s) < 4.5]
    assert low == []
