"""A player's rating over their rated games as a small SVG, drawn on the server so the
browser client stays build-free and the plot needs no script.

The picture carries a title and a description for screen readers; every text in it is
escaped (a player's name is theirs to choose).
"""

from __future__ import annotations

import unicodedata
from xml.sax.saxutils import escape as _escape


def escape(text: str) -> str:
    """Text as XML character data: markup escaped, control characters (which XML cannot
    hold) dropped."""
    return _escape("".join(ch for ch in text if not unicodedata.category(ch).startswith("C")))


WIDTH = 480
HEIGHT = 200
PAD = 36


def rating_svg(ratings: list[float], title: str, description: str) -> str:
    """A line through ``ratings`` (oldest first); an empty plot says so in its description."""
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="t d">',
        f'<title id="t">{escape(title)}</title><desc id="d">{escape(description)}</desc>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - 8}" y2="{HEIGHT - PAD}" '
        'stroke="#444444"/>',
        f'<line x1="{PAD}" y1="8" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#444444"/>',
    ]
    if ratings:
        low, high = min(ratings), max(ratings)
        if high - low < 1.0:
            high = low + 1.0
        steps = max(1, len(ratings) - 1)

        def x(i: int) -> float:
            return PAD + (WIDTH - PAD - 16) * (i / steps if len(ratings) > 1 else 0.5)

        def y(value: float) -> float:
            return 8 + (HEIGHT - PAD - 16) * (high - value) / (high - low)

        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings))
        lines.append(
            f'<polyline points="{points}" fill="none" stroke="#1a5fb4" stroke-width="2.5"/>'
        )
        lines.extend(
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="#1a5fb4"/>'
            for i, v in enumerate(ratings)
        )
        for value in (low, high):
            lines.append(
                f'<text x="{PAD - 4}" y="{y(value) + 4:.1f}" text-anchor="end" '
                f'font-size="11" fill="#222222">{value:.1f}</text>'
            )
    lines.append("</svg>")
    return "".join(lines)
