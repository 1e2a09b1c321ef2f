"""``kingsbreakfast admin …``: the site operator's moderation, straight on the server's
database (the same ``--db`` as ``serve``), so every process of a running cluster sees each
decision at once: read the reports and close them, hide a chat line, rename, mute or ban an
account, and read the audit log every one of these actions writes
(:mod:`kingsbreakfast.server.moderation`)."""

from __future__ import annotations

import getpass
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import DB_ENV, LangOption, fail
from kingsbreakfast.engine import KingsBreakfastError
from kingsbreakfast.i18n import _, ngettext

if TYPE_CHECKING:
    from kingsbreakfast.server.moderation import ModerationStore

T = TypeVar("T")
admin = typer.Typer(help="Moderate the site: reports, chat lines, accounts (an operator's "
                    "commands, on the server's database).", no_args_is_help=True)

DbOption = Annotated[
    str, typer.Option(envvar=DB_ENV, help="database URL, as for serve (also read from {db_env})")
]
OperatorOption = Annotated[
    str | None, typer.Option(help="who acts, for the audit log (default: the login name)")
]


def register(app: typer.Typer) -> None:
    app.add_typer(admin, name="admin")


@admin.callback()
def _admin(lang: LangOption = None) -> None:
    """Moderate the site: reports, chat lines and accounts."""


@contextmanager
def _store(db: str) -> Iterator[ModerationStore]:
    need_extra("server", "sqlalchemy")
    from kingsbreakfast.server.moderation import ModerationStore
    from kingsbreakfast.server.storage import Storage

    storage = Storage(db)
    try:
        yield ModerationStore(storage.engine)
    finally:
        storage.dispose()


def _run(db: str, work: Callable[[ModerationStore], T]) -> T:
    """``work(store)``, every refusal or database fault told as one translated line."""
    from kingsbreakfast.server.store import StorageError

    with _store(db) as store:
        try:
            return work(store)
        except KingsBreakfastError as error:
            raise fail(error) from None
        except StorageError as error:
            raise fail(_("the database refused: {reason} (is it the server's, migrated by "
                         "serve?)").format(reason=error)) from None


def _operator(given: str | None) -> str:
    if given:
        return given
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "operator"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


@admin.command("reports")
def reports(
    db: DbOption = "sqlite:///kingsbreakfast.db",
    every: Annotated[bool, typer.Option("--all", help="closed reports too, newest first")] = False,
    lang: LangOption = None,
) -> None:
    """The reports still open, oldest first (each with its number for `admin close`)."""
    found = _run(db, lambda store: store.reports(open_only=not every))
    if not found:
        typer.echo(_("no report is open") if not every else _("no report yet"))
        return
    for item in found:
        who = item.reporter or _("a guest")
        typer.echo(_("#{id} {when}: {target}, reported by {who}").format(
            id=item.id, when=_when(item.at), target=item.target_name, who=who))
        if item.game_id:
            typer.echo("   " + _("table {table}").format(table=item.game_id))
        if item.chat_id is not None:
            typer.echo("   " + _("chat line {id}: {text}").format(
                id=item.chat_id, text=item.chat_text or ""))
        typer.echo("   " + _("reason: {reason}").format(reason=item.reason))
        if item.closed_at is not None:
            typer.echo("   " + _("closed {when}: {outcome}").format(
                when=_when(item.closed_at), outcome=item.outcome))


@admin.command("close")
def close(
    report: Annotated[int, typer.Argument(help="the report's number")],
    outcome: Annotated[str, typer.Option(help="what was decided, for the log")] = "",
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Close a report (what was decided goes to the audit log)."""
    _run(db, lambda store: store.close_report(
        report, outcome, _operator(operator), time.time()))
    typer.echo(_("report {id} closed").format(id=report))


@admin.command("hide-chat")
def hide_chat(
    line: Annotated[int, typer.Argument(help="the chat line's number (from a report)")],
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Hide a chat line: kept for the record, never sent to anyone again."""
    _run(db, lambda store: store.hide_line(
        line, _operator(operator), time.time()))
    typer.echo(_("chat line {id} hidden").format(id=line))


@admin.command("rename")
def rename(
    name: Annotated[str, typer.Argument(help="the account's name now")],
    new: Annotated[str, typer.Argument(help="its new name")],
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Rename an account (the rules of names hold; no other account may read alike)."""
    given = _run(db, lambda store: store.rename(
        name, new, _operator(operator), time.time()))
    typer.echo(_("{old} is now {new}").format(old=name, new=given))


@admin.command("mute")
def mute(
    name: Annotated[str, typer.Argument(help="the account to mute")],
    hours: Annotated[float, typer.Option(min=0.01, max=24 * 365,
                                         help="for how long, in hours")] = 24.0,
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Mute an account: it writes nothing in any chat until the time is up."""
    named, until = _run(db, lambda store: store.mute(
        name, hours * 3600.0, _operator(operator), time.time()))
    typer.echo(_("{name} is muted until {when}").format(name=named, when=_when(until)))


@admin.command("unmute")
def unmute(
    name: Annotated[str, typer.Argument(help="the account to let chat again")],
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Lift a mute."""
    named, _until = _run(db, lambda store: store.mute(
        name, 0.0, _operator(operator), time.time()))
    typer.echo(_("{name} may chat again").format(name=named))


@admin.command("ban")
def ban(
    name: Annotated[str, typer.Argument(help="the account to ban")],
    why: Annotated[str, typer.Option(help="the reason, for the audit log")] = "",
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Ban an account: it cannot log in, and every session it has ends now."""
    named, ended = _run(db, lambda store: store.ban(
        name, True, _operator(operator), time.time(), why))
    typer.echo(ngettext("{name} is banned; {count} session ended",
                        "{name} is banned; {count} sessions ended", ended).format(
        name=named, count=ended))


@admin.command("unban")
def unban(
    name: Annotated[str, typer.Argument(help="the account to let in again")],
    db: DbOption = "sqlite:///kingsbreakfast.db",
    operator: OperatorOption = None,
    lang: LangOption = None,
) -> None:
    """Lift a ban."""
    named, _ended = _run(db, lambda store: store.ban(
        name, False, _operator(operator), time.time()))
    typer.echo(_("{name} may log in again").format(name=named))


@admin.command("log")
def audit_log(
    limit: Annotated[int, typer.Option(min=1, max=10000, help="how many actions")] = 50,
    db: DbOption = "sqlite:///kingsbreakfast.db",
    lang: LangOption = None,
) -> None:
    """The audit log: every operator action, newest first."""
    actions = _run(db, lambda store: store.log(limit))
    if not actions:
        typer.echo(_("no operator action yet"))
    for action in actions:
        detail = f" ({action.detail})" if action.detail else ""
        typer.echo(f"{_when(action.at)}  {action.operator}  {action.action}  "
                   f"{action.target}{detail}")
