"""The ``kingsbreakfast`` command."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from kingsbreakfast.cli import record_commands
from kingsbreakfast.cli.options import (
    LANGUAGE_ASKED,
    LangOption,
    help_values,
)
from kingsbreakfast.i18n import (
    DEFAULT,
    UnknownLanguageError,
    _,
    choose_language,
    set_language,
)
from kingsbreakfast.i18n.rules import rules_text

app = typer.Typer(
    help="King's Breakfast (King Lui): play it in the terminal or the browser, against bots "
    "or friends; replay game records, watch and test bots.",
    no_args_is_help=True,
    add_completion=False,
)

def run(args: Sequence[str] | None = None) -> None:
    """Run the command line; a mistake in the options is one line in the player's language
    naming the fix, with exit status 2 (see :mod:`kingsbreakfast.cli.errors`)."""
    from kingsbreakfast.cli.errors import usage_error_line

    argv = list(sys.argv[1:] if args is None else args)
    command = build_command(_language_asked(argv))
    try:
        code = command.main(
            argv, prog_name="kingsbreakfast", standalone_mode=False,
            obj={LANGUAGE_ASKED: _lang_on_the_line(argv)},
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


def _lang_on_the_line(argv: Sequence[str]) -> str | None:
    """What the last ``--lang`` anywhere on the line says (None without one)."""
    asked: str | None = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            asked = argv[index + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    return asked


def _language_asked(argv: Sequence[str]) -> str:
    """The language ``--lang`` asks for anywhere on the line, else the environment's; an
    unknown one is refused later, by the option itself, so the help falls back to English."""
    try:
        return choose_language(_lang_on_the_line(argv))
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


record_commands.register(app)  # here, so that --help lists them before `rules`


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
        admin_commands,
        agent_commands,
        dataset_commands,
        learn_commands,
        play_commands,
        research_commands,
        review_commands,
        serve_commands,
        sim_commands,
        tournament_admin_commands,
        train_commands,
    )

    for module in (
        play_commands, sim_commands, research_commands, serve_commands, agent_commands,
        dataset_commands, learn_commands, admin_commands,
    ):
        module.register(app)
    train_commands.register(app)
    review_commands.register(app)
    tournament_admin_commands.register(app)


_register_commands()
