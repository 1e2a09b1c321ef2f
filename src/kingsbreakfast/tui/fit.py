"""Fitting words into terminal cells: column headers cut with a legend, names cut with
their marker kept, text wrapped inside a column.

Every width is a count of terminal cells (``rich.cells.cell_len``), not of characters, so
Vietnamese diacritics (no cell of their own) and wide characters (two cells) line up alike.
A table fitted here never lets two headers touch: each column keeps a gap of one cell on its
left, and a header too wide for the room is cut to a short form ending in ``.`` which the
legend spells out, as the board does (see :mod:`.board`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from . import strings

MIN_HEADER = 3
"""A header is never cut below this many cells (plus the dot that marks the cut)."""
ELLIPSIS = "…"


def crop(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` cells, measured per character."""
    out = ""
    for char in text:
        if cell_len(out + char) > cells:
            break
        out += char
    return out


def fit_name(name: str, cells: int, wrap: Callable[[str], str] = str) -> str:
    """``wrap(name)`` in at most ``cells`` cells, the name shortened (ending in ``…``) before
    anything ``wrap`` adds is lost: "Zsuzsanna (you)" becomes "Zsu… (you)", never
    "Zsuzsanna (y"."""
    whole = wrap(name)
    if cell_len(whole) <= cells:
        return whole
    for keep in range(len(name) - 1, 0, -1):
        shorter = wrap(name[:keep].rstrip() + ELLIPSIS)
        if cell_len(shorter) <= cells:
            return shorter
    return crop(whole, cells)


def wrap_cells(text: str, cells: int) -> list[str]:
    """``text`` broken into lines of at most ``cells`` cells, at spaces where it can be."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if cell_len(candidate) <= cells:
            line = candidate
            continue
        if line:
            lines.append(line)
        while cell_len(word) > cells:  # a word longer than the column is folded
            part = crop(word, cells)
            lines.append(part)
            word = word[len(part):]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def cut_header(title: str, cells: int) -> str:
    """``title`` cut to ``cells`` cells, the cut marked by a final ``.``."""
    return crop(title, cells - 1).rstrip() + "."


def tell_apart(headers: list[str], titles: Sequence[str]) -> None:
    """Lengthen cut headers that read alike ("bánh." for both bánh mì and bánh ngọt) until
    they differ, or are whole again."""
    while True:
        seen: dict[str, list[int]] = {}
        for index, header in enumerate(headers):
            seen.setdefault(header, []).append(index)
        alike = [group for group in seen.values() if len(group) > 1]
        grown = False
        for group in alike:
            for index in group:
                if headers[index] == titles[index]:
                    continue
                cells = cell_len(headers[index])
                longer = headers[index]
                while longer == headers[index] and cells < cell_len(titles[index]):
                    cells += 1
                    longer = cut_header(titles[index], cells)
                if cells >= cell_len(titles[index]):
                    longer = titles[index]
                grown = grown or longer != headers[index]
                headers[index] = longer
        if not grown:
            return


@dataclass(frozen=True, slots=True)
class Columns:
    """Headers fitted to a width: the header shown for each column, the cells each column
    takes (its gap included, except for the first), and which headers were cut."""

    titles: tuple[str, ...]
    headers: tuple[str, ...]
    widths: tuple[int, ...]
    cut: tuple[int, ...]

    @property
    def width(self) -> int:
        return sum(self.widths)

    def legend(self) -> str:
        """The cut headers spelt out (empty when nothing was cut)."""
        return " · ".join(
            strings.abbreviation(self.headers[index], self.titles[index]) for index in self.cut
        )

    def header_line(self, left: Sequence[int] = (0,)) -> str:
        """The headers in one line, the columns in ``left`` aligned left, others right."""
        return "".join(
            pad(header, width, index in left) for index, (header, width)
            in enumerate(zip(self.headers, self.widths, strict=True))
        )


def pad(text: str, cells: int, left: bool) -> str:
    """``text`` padded with spaces to ``cells`` cells, on the right (``left``) or left."""
    room = " " * max(0, cells - cell_len(text))
    return text + room if left else room + text


def fit_columns(
    titles: Sequence[str], contents: Sequence[int], room: int, flexible: int | None = None
) -> Columns:
    """Widths for columns headed ``titles`` whose cells need ``contents`` cells, within
    ``room`` cells; every column after the first keeps one cell of gap on its left.

    The widest headers are cut first (never below :data:`MIN_HEADER` cells, never below what
    the column's cells need). The ``flexible`` column, if any, then takes whatever room is
    left (its content wraps): a move's name, a player's name.
    """
    headers = list(titles)
    cut: set[int] = set()

    def widths() -> list[int]:
        return [
            max(cell_len(header), need) + (1 if index else 0)
            for index, (header, need) in enumerate(zip(headers, contents, strict=True))
        ]

    while sum(widths()) > room:
        candidates = [
            index for index in range(len(titles))
            if index != flexible and cell_len(headers[index]) > max(MIN_HEADER + 1,
                                                                     contents[index])
            and cut_header(titles[index], cell_len(headers[index]) - 1) not in headers
        ]
        if not candidates:
            break
        widest = max(candidates, key=lambda index: (cell_len(headers[index]), -index))
        size = cell_len(headers[widest]) - 1
        headers[widest] = crop(titles[widest], size - 1).rstrip() + "."
        cut.add(widest)
    tell_apart(headers, titles)
    final = widths()
    if flexible is not None and sum(final) < room:
        final[flexible] += room - sum(final)
    return Columns(tuple(titles), tuple(headers), tuple(final), tuple(sorted(cut)))
