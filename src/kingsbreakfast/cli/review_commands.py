"""``kingsbreakfast review``: a finished game's choices of one seat, valued by the master bot.

The numbers come from :mod:`kingsbreakfast.bots.review`, the one review the browser shows
too; this module only prints them, as a Rich table in the player's language, or as JSON
(``--json``, English keys, for programs). Every refusal — a file that cannot be read, a
record that is not valid, a seat the game does not have, a game that is not over — is one
translated line on standard error with exit status 2, as for the other commands.
"""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import LangOption, fail
from kingsbreakfast.engine import KingsBreakfastError, RecordError, read_record
from kingsbreakfast.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.table import Table

    from kingsbreakfast.bots.review import ReviewedMove, SeatReview
    from kingsbreakfast.engine import Record


def review(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD",
            help="A kingsbreakfast/1 record of a finished game: a file, '-' for standard "
            "input, or a bundled example's name (see 'kingsbreakfast examples').",
        ),
    ],
    seat: Annotated[
        int, typer.Option(help="The seat whose choices to review, from 0 (the record's "
                          "first player).")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as one JSON object.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Review one seat's choices in a finished game: for each, the master bot's value of it
    beside its best move, from what that seat could see at the time (never the hidden
    cards), with the costliest choices marked."""
    need_extra("tui", "numpy")  # the master bot's network
    from kingsbreakfast.bots.review import review_seat
    from kingsbreakfast.cli.record_commands import read_source, readable_error

    try:
        game = read_record(read_source(record))
    except RecordError as error:
        if error.code == "unreadable_file":  # no record at all: say only why
            raise fail(error) from None
        typer.echo(_("error: {reason}").format(reason=readable_error(record, error)), err=True)
        raise typer.Exit(2) from None
    try:
        reviewed = review_seat(game, seat)
    except KingsBreakfastError as error:
        raise fail(error) from None
    if as_json:
        print(json.dumps(reviewed.to_dict(), ensure_ascii=False))
        return
    print_review(reviewed)
    print_costliest(reviewed, game)


def review_explained() -> str:
    """What the review's numbers mean, in one sentence (the browser says the same)."""
    return _(
        "For each choice, the master bot sets the move played beside its own best move from "
        "what that player could see then (never the hidden cards): points lost is how many "
        "fewer final points it expects after the move played, win chance lost how much "
        "smaller a share of the win, and a big loss gives up {threshold} or more of the win "
        "chance."
    )


def print_review(reviewed: SeatReview) -> None:
    from kingsbreakfast.bots.review import BIG_LOSS
    from kingsbreakfast.cli.reports import console
    from kingsbreakfast.tui.moves import action_label

    out = console()
    out.print(_("Review of {player} (seat {seat})").format(
        player=reviewed.player, seat=reviewed.seat), style="bold", markup=False)
    table = _review_table()
    for move in reviewed.moves:
        marked = move.big_loss
        table.add_row(
            str(move.move), str(move.round), action_label(move.chosen),
            "—" if move.best == move.chosen else action_label(move.best),
            _points(move.points_lost), _share(move.win_lost),
            BIG_MARK if marked else "",
            style="bold red" if marked else None,
        )
    out.print(table)
    if any(move.big_loss for move in reviewed.moves):
        out.print(_("{mark} a big loss").format(mark=BIG_MARK), markup=False)
    out.print()
    out.print(ngettext(
        "{count} choice reviewed", "{count} choices reviewed", len(reviewed.moves),
    ).format(count=len(reviewed.moves)), markup=False)
    if reviewed.forced:
        out.print(ngettext(
            "{count} turn had a single legal move and is not counted",
            "{count} turns had a single legal move and are not counted", reviewed.forced,
        ).format(count=reviewed.forced), markup=False)
    out.print(_("Points lost in all: {points}").format(points=_points(reviewed.points_lost)),
              markup=False)
    out.print(ngettext(
        "{count} big loss", "{count} big losses", reviewed.big_losses,
    ).format(count=reviewed.big_losses), markup=False)
    if reviewed.biggest:
        out.print(_("The costliest choices: {moves}").format(
            moves="; ".join(_costliest(move) for move in reviewed.biggest)), markup=False)
    threshold = f"{100 * BIG_LOSS:.0f}%"
    out.print(textwrap.fill(review_explained().format(threshold=threshold), 78), markup=False)


FIGURES_WIDTH = 10
"""The widest a figure's column grows (its header wraps instead): 15.1 or 36.1% need six."""
BIG_MARK = "*"
"""Beside a big loss, one character (explained under the table): the words themselves took a
column wide enough to wrap every row's moves in German, Hungarian and French."""


def _review_table() -> Table:
    from rich.table import Table

    table = Table(box=None, header_style="bold", pad_edge=False)
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (
        (_("move"), "right"), (_("round"), "right"), (_("played"), "left"),
        (_("best move"), "left"), (_("points lost"), "right"), (_("win chance lost"), "right"),
        ("", "left"),
    )
    for number, (header, justify) in enumerate(columns):
        # the figures' long headers wrap (two lines) so that the moves keep one line each
        figures = number in (4, 5)
        table.add_column(header, justify=justify, overflow="fold",
                         max_width=FIGURES_WIDTH if figures else None)
    return table


SPARKS = "▁▂▃▄▅▆▇█"
"""A win chance from 0 to 1 as one of eight heights, for the line of the seat's chances."""


def sparkline(chances: list[float]) -> str:
    """The win chances as one character each, low to high."""
    top = len(SPARKS) - 1
    return "".join(SPARKS[min(top, max(0, round(chance * top)))] for chance in chances)


def print_costliest(reviewed: SeatReview, record: Record) -> None:
    """Under the table: the seat's win chance at each choice as a line of heights, then
    each of the costliest choices as that seat saw it — the board, the move played and the
    master bot's, and the reason of each (the hint's words)."""
    from kingsbreakfast.bots.reasons import reason
    from kingsbreakfast.cli.reports import console
    from kingsbreakfast.engine import State
    from kingsbreakfast.tui import strings
    from kingsbreakfast.tui.board import board_notes, board_rows, board_text
    from kingsbreakfast.tui.moves import action_label

    out = console()
    if reviewed.moves:
        chances = [move.win_chance for move in reviewed.moves]
        out.print(_("Win chance at each choice: {line} (first {first}, last {last})").format(
            line=sparkline(chances), first=_share(chances[0]), last=_share(chances[-1])),
            markup=False)
    width = min(out.width, 80)
    for move in reviewed.biggest:
        state: State = record.start()
        for action in record.actions[: move.action_index]:
            state.play(action)
        view = state.view(reviewed.seat)
        out.print()
        out.print(_("Move {move} (round {round}), as {player} saw it:").format(
            move=move.move, round=move.round, player=reviewed.player), style="bold",
            markup=False)
        rows = board_rows(view, list(record.players))
        for line in board_text(rows, width):
            out.print(line, markup=False)
        for note in board_notes(rows, view, width):
            out.print(textwrap.fill(note, width - 1), markup=False)
        for label, action in ((_("played"), move.chosen), (_("best move"), move.best)):
            why = reason(view, action)
            words = strings.hint_reason(why.key, why.params)
            text = f"{label}: {action_label(action)}" + (f" — {words}" if words else "")
            out.print(textwrap.fill(text, width - 2, subsequent_indent="  "), markup=False)


def _costliest(move: ReviewedMove) -> str:
    from kingsbreakfast.tui.moves import action_label

    return _("move {move} ({action}, −{share})").format(
        move=move.move, action=action_label(move.chosen), share=_share(move.win_lost))


def _points(points: float) -> str:
    return f"{points:.1f}"


def _share(share: float) -> str:
    return f"{100 * share:.1f}%"


def register(app: typer.Typer) -> None:
    """Add this module's command to the ``kingsbreakfast`` command line."""
    app.command()(review)
