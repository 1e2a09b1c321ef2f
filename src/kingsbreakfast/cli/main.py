"""The ``kingsbreakfast`` command."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from kingsbreakfast.bots import make_bot
from kingsbreakfast.cli.options import (
    LANGUAGE_ASKED,
    LangOption,
    VariantOption,
    fail,
    help_values,
    parse_variants,
)
from kingsbreakfast.engine import (
    Action,
    KingsBreakfastError,
    Record,
    RecordError,
    State,
    outcome,
    read_record,
)
from kingsbreakfast.i18n import (
    DEFAULT,
    UnknownLanguageError,
    _,
    choose_language,
    ngettext,
    set_language,
)
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.i18n.rules import rules_text
from kingsbreakfast.narrate import DEFAULT_NAMES, narrate, round_opening, score_lines

app = typer.Typer(
    help="King's Breakfast (King Lui): play it in the terminal or the browser, against bots "
    "or friends; replay game records, watch and test bots.",
    no_args_is_help=True,
    add_completion=False,
)

EXAMPLES = "kingsbreakfast.examples"


def run(args: Sequence[str] | None = None) -> None:
    """Run the command line; a mistake in the options is one line in the player's language
    naming the fix, with exit status 2 (see :mod:`kingsbreakfast.cli.errors`)."""
    from kingsbreakfast.cli.errors import usage_error_line

    argv = list(sys.argv[1:] if args is None else args)
    language = _language_asked(argv)
    command = build_command(language)
    try:
        code = command.main(
            argv, prog_name="kingsbreakfast", standalone_mode=False,
            obj={LANGUAGE_ASKED: language},
        )
    except typer.Abort:
        typer.echo(_("Aborted."), err=True)
        raise SystemExit(1) from None
    except Exception as error:
        line = usage_error_line(error, argv)
        if line is None:
            raise
        typer.echo(line, err=True)
        raise SystemExit(2) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def _language_asked(argv: Sequence[str]) -> str:
    """The language ``--lang`` asks for anywhere on the line, else the environment's; an
    unknown one is refused later, by the option itself, so the help falls back to English."""
    asked: str | None = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            asked = argv[index + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    try:
        return choose_language(asked)
    except UnknownLanguageError:
        return DEFAULT


def build_command(language: str | None = None) -> Any:
    """The command line as click runs it, with metavars a person can read and its help in
    ``language`` (the current one when None).

    Typer names each value by its Python type (``<int>``, ``<bool>`` even for a flag);
    here a flag shows none and a value shows what it is (``--seed SEED``, ``--save FILE``).
    Typer carries its own copy of click, so the objects are inspected by their attributes.
    The help texts are plain strings in the code, found for the translators by the
    extractor in :mod:`kingsbreakfast.i18n.extract` and translated here, once.
    """
    if language is not None:
        set_language(language)
    command = typer.main.get_command(app)
    _readable_metavars(command)
    _translate_help(command, help_values())
    return command


class _Keep(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _translated(text: str | None, values: dict[str, str]) -> str | None:
    """``text`` in the current language, its placeholders filled, and the line breaks of
    a docstring's paragraphs joined (the help wraps to the terminal by itself)."""
    if not text:
        return text
    words = _(text).format_map(_Keep(values)) if "{" in text else _(text)
    return re.sub(r"(?<!\n)\n(?!\n)", " ", words)


def _translate_help(command: Any, values: dict[str, str]) -> None:
    command.help = _translated(command.help, values)
    command.short_help = _translated(getattr(command, "short_help", None), values)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _translated(param.help, values)
    make_usage = command.get_usage

    def usage(ctx: Any) -> str:
        return _usage_words(make_usage(ctx))

    command.get_usage = usage
    if getattr(command, "options_metavar", None) == "[OPTIONS]":
        command.options_metavar = _("[OPTIONS]")
    if getattr(command, "subcommand_metavar", None) == "COMMAND [ARGS]...":
        command.subcommand_metavar = _("COMMAND [ARGS]...")
    make_help = command.format_help

    def format_help(ctx: Any, formatter: Any) -> Any:
        _translate_panels()  # typer's help module is imported only when help is shown
        return make_help(ctx, formatter)

    command.format_help = format_help
    for sub in getattr(command, "commands", {}).values():
        _translate_help(sub, values)


def _usage_words(line: str) -> str:
    return line.replace("Usage: ", _("Usage: "), 1)


def _translate_panels() -> None:
    """Typer's own words around the help (panel titles, default and required marks)."""
    from typer import rich_utils

    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    # typer fills these with str.format and one positional value
    rich_utils.DEFAULT_STRING = _("[default: {value}]").replace("{value}", "{}")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.ENVVAR_STRING = _("[env var: {value}]").replace("{value}", "{}")


def _readable_metavars(command: Any) -> None:
    for param in command.params:
        if getattr(param, "param_type_name", "") == "argument":
            param.display_type_rich = _no_type  # its name (FILES, RECORD) says it already
            continue
        if getattr(param, "param_type_name", "") != "option" or param.metavar is not None:
            continue
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        elif param.name == "variant":
            param.metavar = "NAME=VALUE"
        elif getattr(getattr(param, "type_descriptor", None), "is_path", False):
            param.metavar = "PATH"
        else:
            param.metavar = (param.name or "value").upper()
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:  # made anew for each run, so named here
        option = make_help_option(ctx)
        if option is not None:
            option.metavar = ""
            option.help = _("Show this message and exit.")
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        _readable_metavars(sub)


def _no_type(ctx: Any) -> None:
    return None


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"kingsbreakfast {_version()}")
        raise typer.Exit()


def _version() -> str:
    from importlib import metadata  # only when asked: it costs the start of every command

    try:
        return metadata.version("kingsbreakfast")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        return "unknown"


@app.callback()
def _root(
    lang: LangOption = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """King's Breakfast (King Lui), the card game by Alan R. Moon and Aaron Weissblum."""


# --- replay ---------------------------------------------------------------------------------


def read_source(source: str) -> bytes:
    """A record's JSON text from a path, ``-`` (standard input) or a bundled example name."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(source)
        if not path.exists() and _is_example(source):
            data = resources.files(EXAMPLES).joinpath(f"{source}.json").read_bytes()
        else:
            try:
                data = path.read_bytes()
            except OSError as error:
                raise RecordError(
                    f"cannot read {source}: {error.strerror or error}",
                    "unreadable_file",
                    path=source,
                    reason=error.strerror or str(error),
                ) from None
    return data


def _is_example(name: str) -> bool:
    return resources.files(EXAMPLES).joinpath(f"{name}.json").is_file()


def _example_names() -> list[str]:
    return sorted(
        entry.name.removesuffix(".json")
        for entry in resources.files(EXAMPLES).iterdir()
        if entry.name.endswith(".json")
    )


@app.command()
def replay(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Record files (kingsbreakfast/1); '-' reads standard input; a bundled "
            "example may be named (see 'kingsbreakfast examples').",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per record, one per line.")
    ] = False,
    step: Annotated[
        bool, typer.Option("--step", help="Step through one record in the game's own screen.")
    ] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="With --step: line by line, for any terminal.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Check and replay game records, then print where they end and the scores.

    Exit status 2 when any record is invalid, else 0.
    """
    if step:
        _step(files, as_json, plain)
        return
    failed = False
    for source in files:
        try:
            obj = read_source(source)
            record = read_record(obj)
            state = record.replay()
        except RecordError as error:
            failed = True
            if as_json:
                print(json.dumps({"error": error.message, "action_index": error.action_index}))
            else:
                print(_readable_error(source, error), file=sys.stderr)
            continue
        if as_json:
            print(json.dumps(outcome(state)))
        else:
            if len(files) > 1:
                print(f"== {source}")
            print("\n".join(_account(record, state)))
    if failed:
        raise typer.Exit(2)


def _step(files: list[str], as_json: bool, plain: bool) -> None:
    """``replay --step``: one valid record, shown in the terminal game's replay viewer."""
    from kingsbreakfast.cli.play_commands import step_replay

    if len(files) != 1 or as_json:
        typer.echo(_("error: --step shows exactly one record, and not with --json"), err=True)
        raise typer.Exit(2)
    try:
        record = read_record(read_source(files[0]))
    except RecordError as error:
        print(_readable_error(files[0], error), file=sys.stderr)
        raise typer.Exit(2) from None
    step_replay(record, plain=plain)


def _readable_error(source: str, error: RecordError) -> str:
    """The reason a record is invalid, in the player's language where we can say it."""
    reason = explain(error)
    if error.action_index is None or reason == error.message:
        # outside the actions, or no translation: the engine's sentence says it all
        return _("{file}: invalid record: {reason}").format(file=source, reason=reason)
    if "action" in error.params:
        return _("{file}: invalid record: action {index} ({action}): {reason}").format(
            file=source, index=error.action_index, action=error.params["action"], reason=reason
        )
    return _("{file}: invalid record: action {index}: {reason}").format(
        file=source, index=error.action_index, reason=reason
    )


def _account(record: Record, final: State) -> list[str]:
    """A readable account of the game: every action in words, then the scores."""
    names = list(record.players)
    seats = ", ".join(
        _("{name} (seat {seat})").format(name=name, seat=seat) for seat, name in enumerate(names)
    )
    lines = [_("King's Breakfast, {count} players: {seats}").format(count=len(names), seats=seats)]
    if not record.rules.is_default:
        switches = record.rules.to_dict().items()
        variants = ", ".join(f"{key}={value}" for key, value in switches)
        lines.append(_("Variants: {variants}").format(variants=variants))
    state = record.start()
    lines.append(round_opening(state.view(None), names))
    # once the game is over the whole record may be shown, hidden draws included
    lines.extend(_tell(state, record.actions, names, reveal=final.is_over))
    lines.append("")
    if final.is_over:
        lines.extend(score_lines(final.score(), final.king, names))
    else:
        to_move = final.to_move
        assert to_move is not None
        lines.append(
            _("The record stops in round {round}; {player} is to move.").format(
                round=final.round, player=names[to_move]
            )
        )
    return lines


def _tell(
    state: State, actions: Iterable[Action], names: Sequence[str], reveal: bool
) -> Iterator[str]:
    """Play ``actions`` on ``state`` and tell each turn in words, as it happens.

    A turn's lines are indented, except the opening of the round a turn starts, so the
    rounds stand out. With ``reveal`` the mover's own view is told (the card a player
    drew); without it, only what everyone at the table saw.
    """
    for action in actions:
        mover = state.to_move
        before = state.view(mover if reveal else None)
        state.play(action)
        after = state.view(mover if reveal else None)
        turn_lines = narrate(before, action, after, names)
        opens_round = state.round != before.round and not state.is_over
        for number, line in enumerate(turn_lines):
            last = number == len(turn_lines) - 1
            yield line if last and opens_round else "  " + line


@app.command()
def examples(lang: LangOption = None) -> None:
    """List the example records that ship with the package (replay them by name)."""
    for name in _example_names():
        print(name)


# --- demo -----------------------------------------------------------------------------------


@app.command()
def demo(
    players: Annotated[int, typer.Option(help="Number of players, 3 to 5.")] = 4,
    bots: Annotated[
        str,
        typer.Option(
            help="The bots, in seat order, comma-separated; one name serves every seat "
            "(see 'kingsbreakfast bots')."
        ),
    ] = "random",
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deck and the bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game's kingsbreakfast/1 record here.")
    ] = None,
    variant: VariantOption = None,
    lang: LangOption = None,
) -> None:
    """Watch bots play a whole game, told action by action, with the final scores."""
    try:
        rules = parse_variants(variant)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        state = State.new(players, rng, rules=rules)
        chosen = [part.strip() for part in bots.split(",") if part.strip()] or ["random"]
        if len(chosen) == 1:
            chosen = chosen * players
        if len(chosen) != players:
            raise fail(
                ngettext("--bots names {named} bot for {players} seats: name one per seat, "
                         "or one for all",
                         "--bots names {named} bots for {players} seats: name one per seat, "
                         "or one for all", len(chosen)).format(named=len(chosen),
                                                               players=players)
            )
        seated = [make_bot(name) for name in chosen]
    except KingsBreakfastError as error:
        raise fail(error) from None
    names = list(DEFAULT_NAMES[:players])
    from kingsbreakfast.tui.strings import bot_word

    print(
        _("King's Breakfast, {count} bots ({bots}), seed {seed}.").format(
            count=players, bots=", ".join(bot_word(name) for name in chosen), seed=seed
        )
    )
    print(round_opening(state.view(None), names))
    bot_rngs = [random.Random(rng.randrange(2**63)) for _ in seated]

    def moves() -> Iterator[Action]:
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            yield seated[seat].act(state.view(seat), bot_rngs[seat])

    for line in _tell(state, moves(), names, reveal=True):
        print(line)
    print()
    print("\n".join(score_lines(state.score(), state.king, names)))
    if save is not None:
        save.write_text(Record.from_state(state, names).to_json(indent=1) + "\n")
        print(_("Record written to {path}").format(path=save))


@app.command()
def rules(lang: LangOption = None) -> None:
    """Explain the rules of the game, in your language (in a pager on a terminal)."""
    text = rules_text()
    if not sys.stdout.isatty():
        print(text)  # into a file or a pipe: the Markdown source, ready to reuse
        return
    from rich.console import Console
    from rich.markdown import Markdown

    # colours only where the pager shows them: less with -R (the default pager), else plain
    pager = os.environ.get("MANPAGER") or os.environ.get("PAGER") or "less"
    styles = Path(pager.split()[0]).name == "less" if pager.strip() else False
    if styles and "R" not in os.environ.get("LESS", ""):
        os.environ["LESS"] = (os.environ.get("LESS", "") + " -R").strip()
    console = Console()
    with console.pager(styles=styles):
        console.print(Markdown(text))


def _register_commands() -> None:
    """Commands that live in their own modules, one area each."""
    from kingsbreakfast.cli import (
        agent_commands,
        dataset_commands,
        learn_commands,
        play_commands,
        research_commands,
        review_commands,
        serve_commands,
        sim_commands,
        train_commands,
    )

    for module in (
        play_commands, sim_commands, research_commands, serve_commands, agent_commands,
        dataset_commands, learn_commands,
    ):
        module.register(app)
    train_commands.register(app)
    review_commands.register(app)


_register_commands()
