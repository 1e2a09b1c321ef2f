"""The hint's table, one layout for the game's dialog, the plain mode and ``kingsbreakfast
hint``: the move on the left (wrapped inside its column when long), the figures on the
right, headers cut with a legend only when the width leaves no other way; under each move
its reason (bots/reasons.py), indented, and exact figures marked ``=`` (bots/settled.py)."""

from __future__ import annotations

from collections.abc import Sequence

from kingsbreakfast.bots.hint import ActionEstimate

from . import strings
from .fit import Columns, fit_columns, pad, wrap_cells
from .moves import action_label

MOVE_CELLS = 12
"""The move column never gets fewer cells than this; its text wraps inside it."""
FIGURE_CELLS = (5, 6, 6)
"""Cells the figures need: ``100.0``, ``100.0%``, ``-99.9%``."""


def hint_columns(width: int) -> Columns:
    return fit_columns(strings.hint_titles(), (MOVE_CELLS, *FIGURE_CELLS), width, flexible=0)


def hint_reason(estimate: ActionEstimate) -> str:
    """The move's reason in the player's language (empty when it has none)."""
    if estimate.reason is None:
        return ""
    return strings.hint_reason(estimate.reason.key, estimate.reason.params)


def hint_row(columns: Columns, estimate: ActionEstimate, why: bool = True) -> list[str]:
    """One move's lines: the first carries the figures, the others the rest of its name,
    then (``why``) its reason, indented. The game's dialog shows the reason of the
    highlighted move under the list instead, to keep one line a move on small screens."""
    figures = strings.hint_numbers(estimate.expected_points, estimate.win_chance,
                                   estimate.behind, estimate.exact, estimate.result is not None)
    label = wrap_cells(action_label(estimate.action), columns.widths[0] - 1)
    first = pad(label[0], columns.widths[0], left=True) + "".join(
        pad(figure, width, left=False)
        for figure, width in zip(figures, columns.widths[1:], strict=True)
    )
    lines = [first, *label[1:]]
    reason = hint_reason(estimate) if why else ""
    if reason:
        lines.extend("  " + line for line in wrap_cells(reason, max(columns.width - 3, 10)))
    return lines


def hint_lines(ranking: Sequence[ActionEstimate], width: int) -> list[str]:
    """The whole table as lines of text: header, one row per move, the legend if any."""
    columns = hint_columns(width)
    lines = [columns.header_line().rstrip()]
    for estimate in ranking:
        lines.extend(line.rstrip() for line in hint_row(columns, estimate))
    legend = columns.legend()
    if legend:
        lines.append(legend)
    if any(estimate.exact for estimate in ranking):
        lines.extend(wrap_cells(strings.hint_exact_note(), max(columns.width - 1, 10)))
    return lines
