"""``kingsbreakfast serve``: run the game server (lobby API, play WebSocket, browser client).

One process on SQLite needs nothing installed. On PostgreSQL any number of processes share
the database, each table held by one of them at a time (a lease); ``--workers N`` starts N
such processes on consecutive ports and restarts any that dies, for a reverse proxy that
routes each table to one of them (docs/deploy.md).
"""

from __future__ import annotations

import importlib
import inspect
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints

import typer

from kingsbreakfast.cli.extras import lacking
from kingsbreakfast.cli.options import DB_ENV, LangOption, fail
from kingsbreakfast.i18n import _

if TYPE_CHECKING:
    from kingsbreakfast.server.limits import ServerLimits
    from kingsbreakfast.server.mail import MailSettings
    from kingsbreakfast.server.push import PushSettings


class WebSocketLayer(StrEnum):
    """uvicorn's WebSocket implementations (``auto``: websockets' sans-I/O one)."""

    AUTO = "auto"
    WEBSOCKETS_SANSIO = "websockets-sansio"
    WEBSOCKETS = "websockets"
    WSPROTO = "wsproto"


class SmtpSecurity(StrEnum):
    """How the connection to the SMTP server is protected."""

    NONE = "none"
    STARTTLS = "starttls"
    TLS = "tls"


LOOPBACK = ("localhost", "127.0.0.1", "::1")
"""SMTP hosts on this machine: the only ones a password may go to without TLS."""


class HttpLayer(StrEnum):
    """uvicorn's HTTP parsers (``auto``: httptools when installed)."""

    AUTO = "auto"
    HTTPTOOLS = "httptools"
    H11 = "h11"


RESTART_PAUSE = 1.0
"""Seconds before a worker that died is started again (a crash loop must not spin)."""
SHARED_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
"""Database URLs that several processes may share (PostgreSQL)."""
TIMEOUT_ENV = {
    "db_lock_timeout": "KINGSBREAKFAST_DB_LOCK_TIMEOUT",
    "db_statement_timeout": "KINGSBREAKFAST_DB_STATEMENT_TIMEOUT",
    "db_idle_timeout": "KINGSBREAKFAST_DB_IDLE_TIMEOUT",
}
"""The database timeouts' environment variables: every ``Storage`` of this process (and of
the workers it starts) reads them."""


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """Every option of ``kingsbreakfast serve``, declared once: each field's annotation is
    its command-line option (:func:`register` hands typer a command whose parameters are
    these fields), and the server is started from one such object."""

    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1"
    port: Annotated[
        int, typer.Option(help="port to listen on (with --workers N: the first of N ports)")
    ] = 8000
    db: Annotated[
        str,
        typer.Option(
            envvar=DB_ENV,
            help="database URL: sqlite:///FILE (default, nothing to install) or "
            "postgresql://user:password@host/dbname (also read from "
            "{db_env}, which keeps the password out of the process list)",
        ),
    ] = "sqlite:///kingsbreakfast.db"
    workers: Annotated[
        int,
        typer.Option(
            help="server processes to run on ports PORT, PORT+1, …: PostgreSQL only; put a "
            "reverse proxy in front (docs/deploy.md)"
        ),
    ] = 1
    lease_seconds: Annotated[
        float,
        typer.Option(
            help="PostgreSQL: how long a table's lease outlives its owner's last renewal, "
            "i.e. how soon another process takes over the tables of one that died"
        ),
    ] = 3.0
    migrate: Annotated[
        bool,
        typer.Option(help="bring the database schema up to date at start-up"),
    ] = True
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before it moves, so people can follow")
    ] = 0.6
    zombie_grace: Annotated[
        float,
        typer.Option(
            help="seconds a disconnected player's turn waits (tables without a clock) "
            "before a bot plays for them"
        ),
    ] = 30.0
    log_level: Annotated[
        str,
        typer.Option(help="the server's log level: critical, error, warning, info or debug"),
    ] = "info"
    log_json: Annotated[
        bool, typer.Option(help="write the log as JSON, one object a line")
    ] = False
    sockets_per_address: Annotated[
        int, typer.Option(help="play sockets one client address may hold open")
    ] = 64
    sockets_per_table: Annotated[
        int, typer.Option(help="play sockets (players and spectators) one table may hold")
    ] = 1500
    tables_per_minute: Annotated[
        float,
        typer.Option(help="tables one client address may open a minute (bursts of 10)"),
    ] = 6.0
    registrations_per_hour: Annotated[
        int, typer.Option(help="new accounts one client address may make in an hour")
    ] = 30
    registrations_per_day: Annotated[
        int, typer.Option(help="new accounts one client address may make in a day")
    ] = 60
    registrations_without_proof: Annotated[
        int, typer.Option(help="new accounts an address makes in an hour before each next "
                          "one needs a proof of work from the browser")
    ] = 3
    lobby_expiry: Annotated[
        float,
        typer.Option(
            help="seconds a lobby table may stay idle or without a host before it is "
            "forgotten (0: for ever)"
        ),
    ] = 1800.0
    db_lock_timeout: Annotated[
        float,
        typer.Option(
            envvar="KINGSBREAKFAST_DB_LOCK_TIMEOUT",
            help="PostgreSQL: seconds a statement waits for a row another session holds "
            "before the call is refused as retryable (0: for ever)",
        ),
    ] = 3.0
    db_statement_timeout: Annotated[
        float,
        typer.Option(
            envvar="KINGSBREAKFAST_DB_STATEMENT_TIMEOUT",
            help="PostgreSQL: seconds any one statement may run (0: for ever)",
        ),
    ] = 30.0
    db_idle_timeout: Annotated[
        float,
        typer.Option(
            envvar="KINGSBREAKFAST_DB_IDLE_TIMEOUT",
            help="PostgreSQL: seconds a session may sit idle inside a transaction before "
            "the database ends it and frees its locks (a paused process), 0: for ever",
        ),
    ] = 5.0
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket frames (permessage-deflate): less traffic, more CPU per "
            "frame; off by default (see docs/server.md, Load)"
        ),
    ] = False
    ws: Annotated[
        WebSocketLayer,
        typer.Option(
            help="uvicorn's WebSocket implementation (see docs/server.md, Load, for how "
            "they compare)"
        ),
    ] = WebSocketLayer.AUTO
    http: Annotated[
        HttpLayer, typer.Option(help="uvicorn's HTTP/1.1 parser")
    ] = HttpLayer.AUTO

    smtp_host: Annotated[
        str,
        typer.Option(
            help="the SMTP server that sends the site's mail (address verification, "
            "password reset); none: the site sends no mail"
        ),
    ] = ""
    smtp_port: Annotated[int, typer.Option(help="the SMTP server's port")] = 25
    smtp_security: Annotated[
        SmtpSecurity,
        typer.Option(
            help="how the connection to the SMTP server is protected: none (a relay on this "
            "machine), starttls (usually port 587) or tls (usually port 465); the server's "
            "certificate is checked"
        ),
    ] = SmtpSecurity.NONE
    smtp_user: Annotated[
        str,
        typer.Option(
            envvar="KINGSBREAKFAST_SMTP_USER",
            help="the user name to log in to the SMTP server with (none: no log-in)",
        ),
    ] = ""
    smtp_password: Annotated[
        str,
        typer.Option(
            envvar="KINGSBREAKFAST_SMTP_PASSWORD", show_default=False,
            help="the SMTP log-in's password: give it in KINGSBREAKFAST_SMTP_PASSWORD, "
            "which keeps it out of the process list",
        ),
    ] = ""
    mail_from: Annotated[
        str, typer.Option(help="the sender of the site's mail (noreply@cards.example)")
    ] = ""
    public_url: Annotated[
        str,
        typer.Option(
            help="the site's address as players open it (https://cards.example): the links "
            "in its mail start with it"
        ),
    ] = ""
    push_contact: Annotated[
        str,
        typer.Option(
            help="how push services reach the operator (mailto:… or https://…), sent with "
            "each Web Push notice (VAPID); none: the sender of the site's mail"
        ),
    ] = ""
    push_local_endpoints: Annotated[
        bool,
        typer.Option(
            help="let browsers' push endpoints be http or on this machine or network (a "
            "push service of one's own, tests); never on a public site"
        ),
    ] = False
    notice_digest_seconds: Annotated[
        float,
        typer.Option(help="how long a notice mail waits to gather the player's other games")
    ] = 120.0

    lang: LangOption = None

    @property
    def shared(self) -> bool:
        """The database is PostgreSQL, which several processes may share."""
        return self.db.startswith(SHARED_SCHEMES)


def register(app: typer.Typer) -> None:
    serve = serve_command()
    app.command("serve")(serve)


def serve_command() -> Callable[..., None]:
    """The ``serve`` command as typer reads it: one keyword parameter per field of
    :class:`ServeSettings` (with its option and default), whose values make the settings."""

    def serve(**options: Any) -> None:
        """Serve games in the browser: open http://HOST:PORT/ and share the table's link."""
        run(ServeSettings(**options))

    hints = get_type_hints(ServeSettings, include_extras=True)
    parameters = [
        inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY,
                          default=field.default, annotation=hints[field.name])
        for field in fields(ServeSettings)
    ]
    # typer reads a command's parameters from inspect.signature and its annotations
    serve.__dict__["__signature__"] = inspect.Signature(parameters, return_annotation=None)
    serve.__annotations__ = {**{p.name: p.annotation for p in parameters}, "return": None}
    return serve


def run(settings: ServeSettings) -> None:
    """Check the settings, then serve: one process here, or ``--workers`` of them."""
    try:  # the server extra, before anything else: without it nothing below can run
        importlib.import_module("uvicorn")
        importlib.import_module("kingsbreakfast.server.app")
    except ImportError as error:
        raise lacking("server", error.name or str(error)) from None
    check(settings)
    os.environ.update({env: str(getattr(settings, name)) for name, env in TIMEOUT_ENV.items()})
    if settings.workers > 1:
        raise typer.Exit(supervise(settings.workers, settings.host, settings.port, settings.db,
                                   settings.migrate))
    serve_one(settings)


def check(settings: ServeSettings) -> None:
    """Refuse, before any port is opened, settings that cannot work (exit status 2, with a
    translated reason naming the option)."""
    from kingsbreakfast.server import logs

    s = settings
    if s.bot_delay < 0 or s.zombie_grace < 0:
        raise fail(_("--bot-delay and --zombie-grace must not be negative"))
    if s.workers < 1:
        raise fail(_("--workers must be at least 1"))
    if s.workers > 1 and not s.shared:
        raise fail(
            _(
                "--workers {count} needs PostgreSQL: SQLite serves one process only "
                "(give --db postgresql://… or leave --workers at 1)"
            ).format(count=s.workers)
        )
    if s.shared and s.lease_seconds <= 0:
        raise fail(_("--lease-seconds must be more than 0"))
    if s.log_level.lower() not in logs.LEVELS:
        raise fail(
            _("--log-level must be one of: {levels}").format(levels=", ".join(logs.LEVELS))
        )
    if min(s.sockets_per_address, s.sockets_per_table, s.registrations_per_hour,
           s.registrations_per_day) < 1 or s.tables_per_minute <= 0:
        raise fail(_("the connection and table limits must be more than 0"))
    if s.lobby_expiry < 0:
        raise fail(_("--lobby-expiry must not be negative"))
    if min(s.db_lock_timeout, s.db_statement_timeout, s.db_idle_timeout) < 0:
        raise fail(_("the database timeouts must not be negative"))
    if s.smtp_host and (not s.mail_from or "@" not in s.mail_from
                        or not s.public_url.startswith(("http://", "https://"))):
        raise fail(_("--smtp-host needs --mail-from (an address) and --public-url "
                     "(http://… or https://…)"))
    if not 0 < s.smtp_port < 65536:
        raise fail(_("--smtp-port must be a port number (1 to 65535)"))
    if (s.smtp_user and s.smtp_security == SmtpSecurity.NONE
            and s.smtp_host not in LOOPBACK and not s.smtp_host.startswith("127.")):
        raise fail(_("--smtp-user needs --smtp-security starttls or tls: a password goes to "
                     "another machine only over TLS"))


def serve_one(settings: ServeSettings) -> None:
    """One server process on ``settings.port`` until it is stopped."""
    import uvicorn

    from kingsbreakfast.server import logs
    from kingsbreakfast.server.app import create_app

    s = settings
    logs.configure(s.log_level, s.log_json)
    app = create_app(
        s.db, bot_delay=s.bot_delay, zombie_grace=s.zombie_grace,
        lease_seconds=s.lease_seconds if s.shared else None, migrate=s.migrate,
        limits=limits(s), mail=mail_settings(s),
        push=push_settings(s), notice_digest=s.notice_digest_seconds,
    )
    typer.echo(f"King's Breakfast server on http://{s.host}:{s.port}/ "
               f"(database: {_safe(s.db)})")
    uvicorn.run(
        app,
        host=s.host,
        port=s.port,
        log_level=s.log_level.lower(),
        log_config=logs.uvicorn_config(s.log_level, s.log_json),
        ws_max_size=64 * 1024,
        # the server pings every socket: a silent peer is closed within 15 s, and a tunnel
        # through the proxy is never idle past its timeout while this process lives
        ws_ping_interval=5.0,
        ws_ping_timeout=10.0,
        ws_per_message_deflate=s.ws_deflate,
        ws=s.ws.value,
        http=s.http.value,
        lifespan="on",
    )


def limits(settings: ServeSettings) -> ServerLimits:
    """The bounds a stranger's connections and tables are held to (``server/limits.py``)."""
    from kingsbreakfast.server.limits import ServerLimits

    s = settings
    return ServerLimits(
        sockets_per_address=s.sockets_per_address, sockets_per_table=s.sockets_per_table,
        tables_per_minute=s.tables_per_minute, lobby_expiry=s.lobby_expiry,
        registrations_per_hour=s.registrations_per_hour,
        registrations_per_day=s.registrations_per_day,
        registrations_without_proof=max(0, s.registrations_without_proof),
    )


def mail_settings(settings: ServeSettings) -> MailSettings | None:
    """Where the site's mail goes out, or None (no ``--smtp-host``: no mail)."""
    from kingsbreakfast.server.mail import MailSettings

    s = settings
    if not s.smtp_host:
        return None
    return MailSettings(
        s.smtp_host, s.smtp_port, s.mail_from, s.public_url, security=s.smtp_security.value,
        user=s.smtp_user, password=s.smtp_password,
    )


def supervise(workers: int, host: str, port: int, db: str, migrate: bool) -> int:
    """Run ``workers`` one-process servers on consecutive ports, restarting any that exits,
    until told to stop (SIGTERM or Ctrl-C), which is passed on to every worker."""
    passed: list[str] = []
    skip = False
    given = sys.argv[sys.argv.index("serve") + 1:] if "serve" in sys.argv else []
    for arg in given:  # the worker's options: ours minus port, workers, db, host
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--port", "--workers", "--db", "--host"):
            skip = "=" not in arg
            continue
        passed.append(arg)
    env = {**os.environ, DB_ENV: db}  # never on a command line, where ps would show it

    if migrate:  # once, here, before any worker starts: they all run with --no-migrate
        from kingsbreakfast.server.storage import Storage

        storage = Storage(db)
        storage.migrate()
        storage.dispose()

    def launch(number: int) -> subprocess.Popen[bytes]:
        argv = [sys.executable, "-m", "kingsbreakfast", "serve", "--host", host,
                "--port", str(port + number), *passed]
        if "--no-migrate" not in argv:
            argv.append("--no-migrate")
        return subprocess.Popen(argv, env=env)

    children: dict[int, subprocess.Popen[bytes]] = {}
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    typer.echo(
        f"King's Breakfast: {workers} workers on http://{host}:{port}–{port + workers - 1}/ "
        f"(database: {_safe(db)})"
    )
    for number in range(workers):
        children[number] = launch(number)
    while not stopping:
        for number, child in list(children.items()):
            if child.poll() is not None and not stopping:
                typer.echo(f"worker on port {port + number} exited ({child.returncode}); "
                           "starting it again", err=True)
                time.sleep(RESTART_PAUSE)
                children[number] = launch(number)
        time.sleep(0.2)
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children.values():
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
    return 0


def _safe(url: str) -> str:
    """The URL without its password, for the startup line."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, location = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{location}"
    return url


def push_settings(settings: ServeSettings) -> PushSettings:
    """How the site's Web Push notices go out (:mod:`kingsbreakfast.server.push`)."""
    from kingsbreakfast.server.push import PushSettings

    s = settings
    contact = s.push_contact or (f"mailto:{s.mail_from}" if s.mail_from else "")
    return PushSettings(contact=contact or "mailto:noreply@localhost",
                        local_endpoints=s.push_local_endpoints)
