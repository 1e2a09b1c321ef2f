"""What ``tournament``, ``analyze`` and ``batch`` print on the terminal: Rich tables in the
player's language, fitted to the terminal's width (a cell wraps rather than running past
the edge; 80 columns when the output is not a terminal).

The files these commands write (JSON, CSV, ``--json``, ``analyze --markdown``) stay in
English and keep their shape: they are read by programs and pasted into the docs.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.words import dish_name

if TYPE_CHECKING:
    from kingsbreakfast.sim.analyze import Analysis
    from kingsbreakfast.sim.batch import BatchStats
    from kingsbreakfast.sim.report import Report

WIDEST = 100
"""Tables never grow wider than this, however wide the terminal."""


class _Console(Console):
    def print_table(self, table: _Titled) -> None:
        if table.heading:
            self.print(table.heading, style="bold")
        self.print(table)


def console() -> _Console:
    width = min(shutil.get_terminal_size((80, 24)).columns, WIDEST)
    return _Console(width=width, highlight=False, soft_wrap=False)


class _Titled(Table):
    """A table whose title is printed above it as a line of its own (a table's own title
    is wrapped to the table's width, which may be narrower than the title)."""

    heading: str | None = None


def _table(title: str | None, *headers: str) -> _Titled:
    table = _Titled(box=None, header_style="bold", pad_edge=False)
    table.heading = title
    for index, header in enumerate(headers):
        table.add_column(header, justify="left" if index == 0 else "right", overflow="fold")
    return table


def _share(mean: float, low: float, high: float) -> str:
    return f"{100 * mean:.1f}% [{100 * low:.1f}–{100 * high:.1f}]"


def print_tournament(report: Report, written: Sequence[str]) -> None:
    out = console()
    bots = _table(None, _("bot"), _("win share (95% CI)"), _("points"), _("discarded"))
    for bot in report["bots"]:
        share = bot["win_share"]
        bots.add_row(bot["label"], _share(share["mean"], share["low"], share["high"]),
                     f"{bot['mean_points']:.1f}", f"{bot['mean_discarded']:.2f}")
    out.print_table(bots)
    for label, count in report.get("forfeits", {}).items():
        if count:
            out.print(ngettext(
                "{bot}: {count} move forfeited (an illegal, late or unreadable answer; the "
                "lowest legal action was played)",
                "{bot}: {count} moves forfeited (illegal, late or unreadable answers; the "
                "lowest legal action was played)", count).format(bot=label, count=count))
    seats = _table(_("Seats (0 = first cook)"), _("seat"), _("win share (95% CI)"))
    for seat in report["seats"]:
        share = seat["win_share"]
        seats.add_row(str(seat["seat"]), _share(share["mean"], share["low"], share["high"]))
    out.print_table(seats)
    out.print(_("Written: {files}").format(files=", ".join(written)))


def print_analysis(result: Analysis) -> None:
    out = console()
    out.print(_("Bot in every seat: {bot}; seed {seed}.").format(bot=result["bot"],
                                                                  seed=result["seed"]))
    seats = _table(_("Seat advantage"), _("players"), _("games"), _("seat"),
                   _("win share (95% CI)"), _("first cook vs parity"))
    for row in result["tables"]:
        for s in row["seats"]:
            first = s["seat"] == 0
            seats.add_row(str(row["players"]) if first else "", str(row["games"]) if first else "",
                          str(s["seat"]), _share(s["win_share"]["mean"], s["win_share"]["low"],
                                                 s["win_share"]["high"]),
                          f"×{row['first_cook_edge']:.2f}" if first else "")
    out.print_table(seats)
    out.print()
    game = _table(_("The game"), _("players"), _("rounds"), _("king's cards at the end"),
                  _("dragons fed from the table"), _("drawn dragons used at once"),
                  _("drawn dragons placed"), _("games with a dragon fed"))
    ends = _table(_("Scores and ties"), _("players"), _("mean points"),
                  _("tie-break by discards"), _("shared wins"))
    for row in result["tables"]:
        g = row["game"]
        game.add_row(str(row["players"]), f"{g['mean_rounds']:.1f}",
                     f"{g['mean_king_cards']:.1f}", f"{g['mean_dragons_fed_from_table']:.2f}",
                     f"{g['mean_dragons_used_when_drawn']:.2f}",
                     f"{g['mean_dragons_placed']:.2f}",
                     f"{100 * g['games_with_a_dragon_fed']:.0f}%")
        ends.add_row(str(row["players"]), f"{row['scores']['mean']:.1f}",
                     f"{100 * g['tie_break_discards']:.1f}%",
                     f"{100 * g['tie_break_shared']:.1f}%")
    out.print_table(game)
    out.print()
    out.print_table(ends)
    out.print()
    dishes = len(result["tables"][0]["game"]["mean_king_by_dish"])
    king = _table(_("The king's final plate (mean cards)"), _("players"),
                  *(dish_name(dish) for dish in range(dishes)))
    for row in result["tables"]:
        king.add_row(str(row["players"]),
                     *(f"{value:.2f}" for value in row["game"]["mean_king_by_dish"].values()))
    out.print_table(king)


def print_batch(stats: BatchStats, games_per_second: float, seconds: float) -> None:
    out = console()
    out.print(_("{games} games, {players} players; {rounds} rounds and {actions} actions a "
                "game; shared wins {shared}").format(
        games=stats.games, players=stats.players, rounds=f"{stats.mean_rounds:.2f}",
        actions=f"{stats.mean_actions:.1f}", shared=f"{stats.shared_wins:.2%}"))
    table = _table(None, _("seat"), _("bot"), _("points"), _("sd"), _("discarded"),
                   _("wins"))
    for seat in range(stats.players):
        table.add_row(str(seat), stats.policies[seat], f"{stats.mean_points[seat]:.2f}",
                      f"{stats.std_points[seat]:.2f}", f"{stats.mean_discarded[seat]:.2f}",
                      f"{stats.win_rate[seat]:.2%}")
    out.print_table(table)
    out.print(_("{rate} games/s ({seconds} s)").format(
        rate=f"{games_per_second:,.0f}", seconds=f"{seconds:.2f}"))
