"""``kingsbreakfast tournament-admin …``: the operator makes, starts and lists the site's
tournaments straight on the server's database (the same ``--db`` as ``serve``); every
process of a running cluster sees the change at its next pass (docs/tournaments.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import DB_ENV, LangOption, fail
from kingsbreakfast.engine import KingsBreakfastError
from kingsbreakfast.i18n import _

if TYPE_CHECKING:
    from kingsbreakfast.server.tournaments.store import TournamentStore

T = TypeVar("T")
tournament_admin = typer.Typer(
    help="Make, start and list the site's tournaments (the operator's commands, on the "
    "server's database).", no_args_is_help=True)

DbOption = Annotated[
    str, typer.Option(envvar=DB_ENV, help="database URL, as for serve (also read from {db_env})")
]


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_admin, name="tournament-admin")


@tournament_admin.callback()
def _tournament_admin(lang: LangOption = None) -> None:
    """Make, start and list the site's tournaments."""


def _run(db: str, work: Callable[[TournamentStore], T]) -> T:
    """``work(store)``, every refusal or database fault told as one translated line."""
    need_extra("server", "sqlalchemy")
    from kingsbreakfast.server.storage import Storage
    from kingsbreakfast.server.store import StorageError
    from kingsbreakfast.server.tournaments.store import TournamentStore

    storage = Storage(db)
    try:
        return work(TournamentStore(storage.engine))
    except KingsBreakfastError as error:
        raise fail(error) from None
    except StorageError as error:
        raise fail(_("the database refused: {reason} (is it the server's, migrated by "
                     "serve?)").format(reason=error)) from None
    finally:
        storage.dispose()


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


@tournament_admin.command("create")
def create(
    name: Annotated[str, typer.Option(help="the tournament's name")],
    kind: Annotated[str, typer.Option(help="swiss or arena")] = "swiss",
    seats: Annotated[int, typer.Option(help="players at each table (3 to 5)")] = 4,
    speed: Annotated[str, typer.Option(help="live or turn")] = "live",
    rated: Annotated[bool, typer.Option(help="rate its games")] = False,
    rounds: Annotated[int, typer.Option(help="a Swiss's rounds")] = 3,
    minutes: Annotated[int, typer.Option(help="how long an arena lasts")] = 30,
    starts_in: Annotated[int, typer.Option(help="seconds until it starts")] = 300,
    bots: Annotated[int, typer.Option(help="bots entered by name (the chef first)")] = 0,
    bot_level: Annotated[str, typer.Option(help="how every bot plays")] = "chef",
    db: DbOption = "sqlite:///kingsbreakfast.db",
    lang: LangOption = None,
) -> None:
    """Make a tournament (the operator's: no account enters it by making it)."""
    from kingsbreakfast.server.tournaments.making import make_setup

    now = time.time()

    def work(store: TournamentStore) -> str:
        setup = make_setup(name=name, kind=kind, seats=seats, speed=speed, rated=rated,
                           rounds=rounds, minutes=minutes, starts_in=starts_in, bots=bots,
                           bot_level=bot_level, created_by=None, now=now)
        return store.create(setup, now).id

    made = _run(db, work)
    typer.echo(_("tournament {id} made: /tournaments/{id}").format(id=made))


@tournament_admin.command("start")
def start(
    tournament: Annotated[str, typer.Argument(help="the tournament's id")],
    db: DbOption = "sqlite:///kingsbreakfast.db",
    lang: LangOption = None,
) -> None:
    """Start an open tournament now."""
    if not _run(db, lambda store: store.start_now(tournament, None, time.time())):
        raise fail(_("no open tournament has this id"))
    typer.echo(_("tournament {id} starts now").format(id=tournament))


@tournament_admin.command("list")
def listing(
    db: DbOption = "sqlite:///kingsbreakfast.db",
    lang: LangOption = None,
) -> None:
    """The newest tournaments: id, kind, state, start and entrants."""
    found = _run(db, lambda store: store.listing())
    if not found:
        typer.echo(_("no tournament yet"))
        return
    states = {"open": _("open"), "running": _("running"), "over": _("over")}
    for t, entrants in found:
        typer.echo(_("{id} {name} ({kind}), {state}, starts {when}, {count} entrants").format(
            id=t.id, name=t.name, kind=t.kind, state=states.get(t.status, t.status),
            when=_when(t.starts_at), count=entrants))
