"""``kingsbreakfast play``: the terminal game, and stepping through a record.

Textual is an optional extra (``kingsbreakfast[tui]``): it is imported only when the
full-screen game starts, so the rest of the command line works without it, and ``--plain``
(or a dumb terminal) plays line by line without it.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from kingsbreakfast.bots import find_bot
from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import (
    LangOption,
    VariantOption,
    fail,
    parse_variants,
)
from kingsbreakfast.engine import KingsBreakfastError, Record, RecordError, read_record
from kingsbreakfast.i18n import _, set_language
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.plain import (
    AGAIN,
    HUNG_UP,
    INTERRUPTED,
    PlainGame,
    forget_the_terminal,
    hang_up_on_sighup,
)
from kingsbreakfast.tui.replay_plain import PlainReplay
from kingsbreakfast.tui.saving import (
    Autosaver,
    GameInUse,
    GameLock,
    SavedGame,
    autosave_dir,
    delete_saved,
    finished_dir,
    load_record,
    saved_games,
)
from kingsbreakfast.tui.session import Game, plan_seats

ASK = ""
"""``--resume`` given without a file: offer the saved games."""
NEW = Path("")
"""The answer of a player offered the saved games (``--offer-saved``) who wants a new one."""


class _PlayCommand(TyperCommand):
    """``play`` with a ``--resume`` whose file may be left out: the parser underneath knows
    no option with an optional value, so a bare ``--resume`` is given the value :data:`ASK`
    before parsing."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = list(args)
        for index, arg in enumerate(args):
            if arg == "--":
                break
            if arg == "--resume":
                following = args[index + 1] if index + 1 < len(args) else None
                if following is None or (following.startswith("-") and following != "-"):
                    args.insert(index + 1, ASK)
                break
        return super().parse_args(ctx, args)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command(name="play", cls=_PlayCommand)(play)
    app.command(name="saves")(saves)


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()] if text else []


def _plain_wanted(plain: bool) -> bool:
    """Plain mode when asked, or when the terminal cannot show a full-screen app."""
    return plain or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


def play(
    ctx: typer.Context,
    players: Annotated[int, typer.Option(help="Players at the table, 3 to 5.")] = 4,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bots for the other seats, in seat order, comma-separated; one name serves "
            "them all. Levels: {levels}; bots: {bots}. Default: {default_bot}.",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        int, typer.Option(help="Your seat (0 is first; the first cook is drawn at random).")
    ] = 0,
    hotseat: Annotated[
        int,
        typer.Option(
            help="Humans taking turns at this keyboard, seated from --seat on (0: watch bots)."
        ),
    ] = 1,
    names: Annotated[
        str | None,
        typer.Option(help="Names of the humans, comma-separated.", show_default=False),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deck, the first cook and the bots.")
    ] = None,
    lang: LangOption = None,
    variant: VariantOption = None,
    speed: Annotated[
        float, typer.Option(help="Seconds a bot pauses before its move (keys + and - change it).")
    ] = 0.5,
    hint_seconds: Annotated[
        float, typer.Option(help="Seconds the hint (key h) may think.")
    ] = 2.0,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="Line by line, for dumb terminals and screen readers (no Textual)."
        ),
    ] = False,
    light: Annotated[
        bool, typer.Option("--light", help="Colours for a light terminal (key t switches).")
    ] = False,
    resume: Annotated[
        str | None,
        typer.Option(
            metavar="[FILE]",
            help="Resume a saved game (a kingsbreakfast/1 record); seats come from the file. "
            "Without a file: choose one of the games saved automatically.",
            show_default=False,
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Where key s saves the game (default: kingsbreakfast-DATE-TIME.json here).",
            show_default=False,
        ),
    ] = None,
    offer_saved: Annotated[
        bool,
        typer.Option(
            "--offer-saved",
            help="Offer the unfinished saved games before starting a new one (scripts/play.sh "
            "does).",
        ),
    ] = False,
) -> None:
    """Play King's Breakfast in the terminal against bots, or hot-seat with friends."""
    try:
        if speed < 0:
            raise fail(_("--speed must be 0 or more, not {speed}").format(speed=speed))
        if hint_seconds <= 0:
            raise fail(_("--hint-seconds must be more than 0, not {seconds}").format(
                seconds=hint_seconds))
        full_screen = not _plain_wanted(plain)
        if full_screen:
            need_extra("tui", "textual", "numpy")  # --plain plays without them
        source = _resume_source(resume) if resume is not None else None
        if resume is not None and source is None:
            return  # no saved game, or the player chose none
        if resume is None and offer_saved and saved_games():
            source = _resume_source(ASK, offer_new=True)
            if source is None:
                return  # the player quit
            if source == NEW:
                source = None
        start = _starter(players, bots, seat, hotseat, names, seed, variant or [], source)
        game = start()
    except KingsBreakfastError as error:  # bad seats, an unknown bot, a bad record
        raise fail(error) from None
    if source is not None:
        if lang is None and not _language_given(ctx):
            _speak_saved_language(game)
        autosaver = Autosaver.for_resumed(source, game.game_id)
    else:
        autosaver = Autosaver()
    lock = GameLock(autosaver.path)
    try:
        lock.acquire()  # a second window on the same saved game is refused
    except GameInUse as error:
        raise fail(str(error)) from None
    autosaver.lock = lock  # a rematch takes it along (Autosaver.next_game)
    try:
        if not full_screen:
            _play_plain(game, speed, save, hint_seconds, autosaver)
            return
        from kingsbreakfast.tui.app import PlayApp

        app = PlayApp(game, speed=speed, save_path=save, hint_seconds=hint_seconds,
                      light=light, autosaver=autosaver)
        app.run()
    finally:
        lock.release()
    if app.farewell:
        with contextlib.suppress(OSError):  # a closed terminal hears nothing; the file is kept
            typer.echo(app.farewell)


def _language_given(ctx: typer.Context) -> bool:
    """Whether ``--lang`` was given before the command (``kingsbreakfast --lang de play``)."""
    root = ctx.find_root()
    return root is not ctx and root.params.get("lang") is not None


def _speak_saved_language(game: Game) -> None:
    """A resumed game speaks the language it was played in, unless ``--lang`` says
    otherwise (a saved language we no longer have is left alone)."""
    language = game.saved_language
    if language is not None:
        with contextlib.suppress(KingsBreakfastError):
            set_language(language)


def _local_time(stamp: str) -> str:
    """A record's ``saved`` time (UTC, ISO) as the player's clock shows it."""
    try:
        return _dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def _resume_source(resume: str, offer_new: bool = False) -> Path | None:
    """The file to resume: the one named, or one the player picks from the autosaves
    (``d`` and a number deletes that entry instead). ``offer_new``: the player may answer
    ``n`` for a new game instead (:data:`NEW`), and once every entry is deleted a new game
    starts."""
    if resume != ASK:
        return Path(resume)
    while True:
        games = saved_games()
        if not games:
            if offer_new:
                return NEW
            typer.echo(strings.no_saved_games(str(autosave_dir())))
            return None
        _list_saved(games)
        if (len(games) == 1 and not offer_new and not sys.stdin.isatty()
                and games[0].error is None):
            return games[0].path
        ask = strings.offer_saved_game if offer_new else strings.pick_saved_game
        typer.echo(ask(len(games)), nl=False)
        answer = sys.stdin.readline()
        if not answer:
            typer.echo()
            return None
        answer = answer.strip().lower()
        picked: SavedGame | None = None
        if answer == "":
            picked = next((g for g in games if g.error is None), None)
        elif answer.isdigit() and 1 <= int(answer) <= len(games):
            picked = games[int(answer) - 1]
        elif answer in ("q", "quit"):
            return None
        elif offer_new and answer in ("n", "new"):
            return NEW
        elif answer.startswith("d") and answer[1:].strip().isdigit():
            number = int(answer[1:].strip())
            if 1 <= number <= len(games):
                _delete(games[number - 1], number)
                continue
        if picked is None:
            new = ", n" if offer_new else ""
            typer.echo(strings.valid_answers(f"1–{len(games)}, Enter{new}, d1–d{len(games)}, q"))
            continue
        if picked.error is not None:
            typer.echo(strings.saved_game_broken(picked.path.name, picked.error))
            continue
        return picked.path


def _list_saved(games: list[SavedGame]) -> None:
    typer.echo(strings.saved_games_title())
    for number, saved in enumerate(games, start=1):
        if saved.error is not None:
            line = strings.saved_game_unreadable(number, saved.path.name, saved.error)
        else:
            line = strings.saved_game_line(
                number, _seated(saved), saved.round, _local_time(saved.saved))
            line += "\n     " + strings.saved_game_last(saved.moves, saved.last)
        typer.echo("  " + line)


def _seated(saved: SavedGame) -> str:
    """The players with their bots' levels (``Ann, Bob (easy), Cid (hard)``): games with
    the same names tell apart by their opponents."""
    bots = saved.bots if len(saved.bots) == len(saved.players) else (None,) * len(saved.players)
    return ", ".join(name if bot is None else strings.bot_label(name, bot)
                     for name, bot in zip(saved.players, bots, strict=True))


def _delete(saved: SavedGame, number: int) -> None:
    try:
        delete_saved(saved)
    except OSError as error:
        raise fail(strings.delete_failed(str(saved.path), error.strerror or str(error))) from None
    typer.echo(strings.saved_game_deleted(number))


def saves(
    delete: Annotated[
        list[int] | None,
        typer.Option(help="Delete the saved game with this number (as listed); repeat the "
                     "option for several.", show_default=False),
    ] = None,
    lang: LangOption = None,
) -> None:
    """List the games saved automatically, newest first, or delete some of them.

    Finished games are kept apart, for replay: kingsbreakfast replay FILE --step.
    """
    games = saved_games()
    if delete:
        wrong = [n for n in delete if not 1 <= n <= len(games)]
        if wrong:
            raise fail(strings.no_such_saved_game(wrong[0], len(games)))
        for number in sorted(set(delete), reverse=True):
            _delete(games[number - 1], number)
        return
    if not games:
        typer.echo(strings.no_saved_games(str(autosave_dir())))
    else:
        _list_saved(games)
    typer.echo(strings.finished_games_kept(str(finished_dir())))


def _starter(
    players: int,
    bots: str | None,
    seat: int,
    hotseat: int,
    names: str | None,
    seed: int | None,
    variants: list[str],
    resume: Path | None,
) -> Callable[[], Game]:
    """Check every option now (so a mistake is reported before the screen opens) and
    return what starts the first game."""
    if resume is not None:
        if resume.exists():
            record = load_record(resume)
        else:  # a bundled example's name, as replay takes it
            from kingsbreakfast.cli.record_commands import read_source

            record = read_record(read_source(str(resume)))
        return lambda: Game.from_record(record, seed=seed)
    rules = parse_variants(variants)
    plan = plan_seats(players, _split(bots), seat, hotseat, _split(names))
    for choice in {s.bot for s in plan if s.bot is not None}:
        find_bot(choice)  # an unknown name is refused before the screen opens
    return lambda: Game.new(plan, seed, rules)


def _play_plain(
    game: Game,
    speed: float,
    save: Path | None,
    hint_seconds: float,
    autosaver: Autosaver,
) -> None:
    hang_up_on_sighup()
    while True:
        outcome = PlainGame(
            game, sys.stdin, sys.stdout, save_path=save, speed=speed, hint_seconds=hint_seconds,
            autosaver=autosaver,
        ).run()
        if outcome == INTERRUPTED:
            raise typer.Exit(130)  # the shell's code for Ctrl-C; the game is saved
        if outcome == HUNG_UP:
            forget_the_terminal()
            raise typer.Exit(128 + 1)  # SIGHUP's code, as a shell reports it; saved too
        if outcome != AGAIN:
            return
        game = game.rematch()
        autosaver = autosaver.next_game()


def step_replay(record: Record, plain: bool = False, light: bool = False) -> None:
    """Step through a record forwards and backwards in the game's own screen (the
    ``replay FILE --step`` command); ``plain`` steps line by line instead."""
    if _plain_wanted(plain):
        PlainReplay(record, sys.stdin, sys.stdout).run()
        return
    need_extra("tui", "textual")
    from kingsbreakfast.tui.replay_app import ReplayApp

    ReplayApp(record, light=light).run()


__all__ = ["RecordError", "parse_variants", "register", "step_replay"]
