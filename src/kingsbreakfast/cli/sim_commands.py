"""Commands for bots, hint, tournament and analyze."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Annotated

import typer

from kingsbreakfast.bots import BOTS, LEVELS, find_bot
from kingsbreakfast.bots.registry import Strength
from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import (
    LangOption,
    VariantOption,
    fail,
    parse_variants,
)
from kingsbreakfast.engine import KingsBreakfastError, read_record
from kingsbreakfast.i18n import _, ngettext


def bots(lang: LangOption = None) -> None:
    """List the bots, with how each plays, and the difficulty levels built on them; the
    strongest level comes first."""
    strongest = LEVELS[-1]
    print(_("The strongest level:") + "\n")
    print(f"{strongest}\n{_indented(_bot_description(strongest, find_bot(strongest).summary))}\n")
    # a heading of their own: under the strongest level's, they read as more of it
    print(_("The bots the levels are built on:") + "\n")
    for entry in BOTS:
        if entry.level is None:
            print(f"{entry.name}\n{_indented(_bot_description(entry.name, entry.description))}")
            if entry.options:
                print(_indented(_("Options: {options}.").format(options=", ".join(entry.options))))
            print()
    print(_("Levels, weakest first:") + "\n")
    for name in LEVELS:
        entry = find_bot(name)
        text = _bot_description(name, entry.summary)
        if entry.strength is not None:
            text += " " + _strength(entry.strength)
        print(f"{name}\n{_indented(text)}\n")


def _writable_folder(path: Path | None) -> None:
    """Refuse, before any game is played, a results or plot path whose folder is missing
    (the games' minutes would be lost to a traceback at the end)."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(_("cannot write {path}: the folder {folder} does not exist").format(
            path=path, folder=folder))


def lineup_problem(text: str, players: int) -> str | None:
    """What is wrong with a line-up's shape, in the player's language, before the bots'
    own checks (``sim.parse_lineup``, whose words are English): an empty name, a repeat
    that is not a number of at least 1 (``bot*3``), or not one bot a seat."""
    seats = 0
    for item in text.split(","):
        name, star, times = item.strip().partition("*")
        if not name.strip():
            return _("the line-up {lineup} has an empty bot name").format(lineup=repr(text))
        count = 1
        if star:
            count = int(times) if times.strip().isdigit() else 0
            if count < 1:
                return _("the repeat in {item} must be a number of at least 1: write "
                         "bot*3").format(item=repr(item.strip()))
        seats += count
    if seats != players:
        return ngettext(
            "the line-up {lineup} names {count} bot for {players} seats: give one bot per "
            "seat (use bot*k to repeat one)",
            "the line-up {lineup} names {count} bots for {players} seats: give one bot per "
            "seat (use bot*k to repeat one)", seats,
        ).format(lineup=repr(text), count=seats, players=players)
    return None


def _strength(figure: Strength) -> str:
    """A level's rung of the ladder in words (docs/analysis.md, "Strength ladder")."""
    return _(
        "Measured: as one of four players, against three {against} bots, it wins {share}% "
        "[{low}–{high}%] of the games ({games} games, a 95% Wilson interval; an equal share "
        "is 25%)."
    ).format(against=figure.against, share=round(100 * figure.share),
             low=round(100 * figure.low), high=round(100 * figure.high), games=figure.games)


def _bot_description(name: str, english: str) -> str:
    """How a bot plays, in the player's language (the bots' own text where we have none)."""
    words = {
        "random": lambda: _(
            "Picks any legal action at random. A baseline for measuring the other bots, and a "
            "gentle first opponent for someone learning the rules."),
        "greedy": lambda: _(
            "Looks only at the present: it plays the action that would score most (R11) if "
            "the game ended after this round. It never plans ahead and ignores the others."),
        "heuristic": lambda: _(
            "Counts cards: it estimates how many of each dish the king will end with and "
            "plays for its expected final points, feeding the dragon what the leader "
            "collects. Instant, but it does not look ahead at what the others will do."),
        "exploiter": lambda: _(
            "A probe for testing stronger bots, not a level: it counts cards like hard, but "
            "counts all of the leader's expected points against each action, keeps dragons on "
            "the table until the last round, and plays its last move exactly when nothing "
            "unseen can change the result."),
        "ismcts": lambda: _(
            "Searches: before each move it deals the unseen cards many times in ways that "
            "agree with what it has seen, tries the actions in a shared search tree and "
            "plays the one tried most. More simulations make it stronger."),
        "easy": lambda: _("Easy is the greedy bot."),
        "medium": lambda: _(
            "Medium is the card counter (heuristic), with a random slip in a quarter of its "
            "moves."),
        "hard": lambda: _("Hard is the card counter (heuristic), without slips."),
        "expert": lambda: _("Expert is the searcher (ismcts) with 1000 simulations a move."),
        "master": lambda: _("Master is a neural network trained on self-play (needs numpy)."),
        "chef": lambda: _(
            "Chef searches with master's network: it plays master's best few actions in many "
            "deals of the unseen cards and keeps the one that does best (needs numpy and "
            "numba)."),
    }.get(name)
    return words() if words is not None else english


def _indented(text: str) -> str:
    return textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ")


def hint(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD",
            help="A kingsbreakfast/1 record of an unfinished game: a file, '-' for standard "
            "input, or a bundled example's name (see 'kingsbreakfast examples').",
        ),
    ],
    seat: Annotated[
        int | None, typer.Option(help="Whose view to use (default: the seat to move).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    search: Annotated[
        bool, typer.Option("--search", help="Take the win chances from the chef level's "
                           "search (the seat to move only; needs numpy and numba).")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Rank the legal actions of the player to move by the master bot's estimates of its
    final points and share of the win, from what SEAT can see (never the hidden cards);
    with --search, the win chances come from the chef level's search."""
    need_extra("tui", "numpy")  # the master bot's network
    if search:
        need_extra("batch", "numba")  # the chef's compiled search
    from kingsbreakfast.bots.hint import rank_actions
    from kingsbreakfast.cli.record_commands import read_source

    try:
        state = read_record(read_source(record)).replay()
    except KingsBreakfastError as error:
        raise fail(error) from None
    if state.is_over:
        raise fail(_("the game in this record is over: there is nothing to hint"))
    viewer = state.to_move if seat is None else seat
    if viewer is None or not 0 <= viewer < state.num_players:
        raise fail(_("--seat must be a seat from 0 to {last}, not {seat}").format(
            last=state.num_players - 1, seat=viewer))
    try:
        view = state.view(viewer)
        if search and viewer != state.to_move:
            raise fail(_("--search hints only the seat to move: leave out --seat or give "
                         "seat {seat}").format(seat=state.to_move))
        ranking = rank_actions(view, search=search)
    except KingsBreakfastError as error:
        raise fail(error) from None
    if as_json:
        print(json.dumps([e.to_dict() for e in ranking], indent=1))
        return
    from kingsbreakfast.tui import strings
    from kingsbreakfast.tui.hint_table import hint_lines

    if search:
        print(_("Seat {seat} to move; the chef's search from what seat {viewer} sees:")
              .format(seat=state.to_move, viewer=viewer))
    else:
        print(_("Seat {seat} to move; the master bot's estimates from what seat {viewer} "
                "sees:").format(seat=state.to_move, viewer=viewer))
    for line in hint_lines(ranking, 76):  # the same table as the game's hint (key h)
        print("  " + line)
    explained = (strings.hint_explained() if viewer == state.to_move
                 else strings.hint_explained_for(state.to_move or 0))
    print(textwrap.fill(explained + " " + strings.hint_order(), 78))


def tournament(
    bots: Annotated[
        str, typer.Option(help="One bot per seat, comma-separated: expert,heuristic,greedy,"
                          "random or hard,medium*3; options as expert:simulations=60; "
                          "outside players as module:Class or cmd:PROGRAM (see "
                          "docs/research.md).")
    ] = "expert,heuristic,greedy,random",
    agent_timeout: Annotated[
        float, typer.Option(help="Seconds an outside program (cmd:) has for a move; a late "
                            "answer forfeits the move to the lowest legal action.")
    ] = 5.0,
    players: Annotated[int, typer.Option(help="Players at the table, 3 to 5.")] = 4,
    games: Annotated[int, typer.Option(help="Games to play (blocks of one deck per seat "
                                       "rotation).")] = 1000,
    seed: Annotated[int, typer.Option(help="Tournament seed: same seed, same results.")] = 1,
    workers: Annotated[int, typer.Option(help="Parallel worker processes.")] = 1,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local ray.init()).")
    ] = None,
    output: Annotated[
        Path, typer.Option(help="Results prefix: writes PREFIX.json, PREFIX.csv and "
                           "PREFIX-games.csv.")
    ] = Path("tournament"),
    plot: Annotated[Path | None, typer.Option(help="Draw scores and win shares here (PNG).")]
    = None,
    variant: VariantOption = None,
    lang: LangOption = None,
) -> None:
    """Play seat-rotated games between bots; write win shares (95% CI), scores, discards,
    seat advantage and OpenSkill ratings as JSON and CSV."""
    need_extra("sim", "openskill", *(["matplotlib"] if plot is not None else []))
    if backend == "ray":
        need_extra("ray", "ray")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from kingsbreakfast.sim import TournamentConfig, parse_lineup, run_tournament
    from kingsbreakfast.sim.report import build_report, write_csv, write_games_csv, write_json

    try:
        rules = parse_variants(variant)
        if not agent_timeout > 0:
            raise ValueError(_("--agent-timeout must be more than 0 seconds, not {value}")
                             .format(value=agent_timeout))
        problem = lineup_problem(bots, players)
        if problem is not None:
            raise ValueError(problem)
        lineup = parse_lineup(bots, players, agent_timeout)
        config = TournamentConfig(lineup, games, seed, rules)
        for path in (output, plot):
            _writable_folder(path)
    except (ValueError, KingsBreakfastError) as error:
        raise fail(error) from None
    if any(spec.time_bounded for spec in lineup):
        typer.echo(_("note: a bot with a time budget makes the results depend on the "
                     "machine's speed; give it simulations for reproducible tournaments"),
                   err=True)
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), transient=True,
    ) as bar:
        task = bar.add_task(_("games"), total=games)
        try:
            results = run_tournament(
                config, workers, backend, address, lambda k: bar.advance(task, k)
            )
        except (ValueError, RuntimeError) as error:
            raise fail(error) from None
    report = build_report(config, results)
    json_path = output.with_name(output.name + ".json")
    csv_path = output.with_name(output.name + ".csv")
    games_path = output.with_name(output.name + "-games.csv")
    try:
        write_json(report, json_path)
        write_csv(report, csv_path)
        write_games_csv(config, results, games_path)
    except OSError as error:
        raise fail(_("cannot write {path}: {reason}").format(
            path=error.filename or output, reason=error.strerror or error)) from None
    from kingsbreakfast.cli.reports import print_tournament

    print_tournament(report, [str(json_path), str(csv_path), str(games_path)])
    if plot is not None:
        from kingsbreakfast.sim.plot import plot_tournament

        plot_tournament(config, results, report, plot)
        print(_("Plot: {path}").format(path=plot))


def analyze(
    bot: Annotated[str, typer.Option(help="The bot in every seat (name[:option=value]).")]
    = "heuristic",
    players: Annotated[str, typer.Option(help="Table sizes, comma-separated.")] = "3,4,5",
    games: Annotated[int, typer.Option(help="Games per table size.")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed: same seed, same answers.")] = 1,
    workers: Annotated[int, typer.Option(help="Parallel worker processes.")] = 1,
    output: Annotated[Path, typer.Option(help="Write the findings as JSON here.")]
    = Path("analysis.json"),
    markdown_out: Annotated[
        Path | None, typer.Option("--markdown", help="Write the findings as Markdown here.")
    ] = None,
    plots: Annotated[
        Path | None, typer.Option(help="Directory for the plots (seats, king's plate).")
    ] = None,
    variant: VariantOption = None,
    lang: LangOption = None,
) -> None:
    """Balance questions by simulation: seat (first cook) advantage for each table size,
    dragon use, the king's final plate, scores and tie-breaks."""
    if plots is not None:
        need_extra("sim", "matplotlib")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from kingsbreakfast.sim.analyze import analyze as run_analysis
    from kingsbreakfast.sim.analyze import markdown

    try:
        sizes = [int(p) for p in players.split(",")]
    except ValueError:
        raise fail(_("--players {value!r}: write table sizes like 3,4,5").format(
            value=players)) from None
    if any(not 3 <= n <= 5 for n in sizes):
        raise fail(_("--players: table sizes must be 3 to 5 (R2), not {value}").format(
            value=players))
    if games < 1:
        raise fail(_("--games must be at least 1"))
    try:
        rules = parse_variants(variant)
    except KingsBreakfastError as error:
        raise fail(error) from None
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), transient=True,
    ) as bar:
        task = bar.add_task(_("games"), total=games * len(sizes))
        try:
            result = run_analysis(bot, sizes, games, seed, workers, rules=rules,
                                  progress=lambda k: bar.advance(task, k))
        except ValueError as error:
            raise fail(error) from None
    output.write_text(json.dumps(result, indent=2) + "\n")
    from kingsbreakfast.cli.reports import print_analysis

    print_analysis(result)
    if markdown_out is not None:
        markdown_out.write_text(markdown(result))  # for the docs: English, as they are
    if plots is not None:
        from kingsbreakfast.sim.plot import plot_king, plot_seats

        plots.mkdir(parents=True, exist_ok=True)
        plot_seats(result["tables"], plots / "analysis-seats.png")
        plot_king(result["tables"], plots / "analysis-king.png")
        print(_("Plots: {files}").format(
            files=f"{plots / 'analysis-seats.png'}, {plots / 'analysis-king.png'}"))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command(name="bots")(bots)
    app.command()(hint)
    app.command()(tournament)
    app.command()(analyze)
