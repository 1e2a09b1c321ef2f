"""``kingsbreakfast serve``: run the game server (lobby API, play WebSocket, browser client)."""

from __future__ import annotations

from typing import Annotated

import typer

from kingsbreakfast.cli.options import LangOption


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="database URL: sqlite:///FILE (default, nothing to install) or "
            "postgresql://user:password@host/dbname"
        ),
    ] = "sqlite:///kingsbreakfast.db",
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before it moves, so people can follow")
    ] = 0.6,
    zombie_grace: Annotated[
        float,
        typer.Option(
            help="seconds a disconnected player's turn waits (tables without a clock) "
            "before a bot plays for them"
        ),
    ] = 30.0,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket frames (permessage-deflate): less traffic, more CPU per "
            "frame; off by default (see docs/server.md, Load)"
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Serve games in the browser: open http://HOST:PORT/ and share the table's link."""
    try:
        import uvicorn

        from kingsbreakfast.server.app import create_app
    except ImportError as error:  # the server extra is not installed
        typer.echo(
            f"the server needs the 'server' extra (pip install 'kingsbreakfast[server]'): "
            f"{error}",
            err=True,
        )
        raise typer.Exit(2) from None
    if bot_delay < 0 or zombie_grace < 0:
        typer.echo("--bot-delay and --zombie-grace must not be negative", err=True)
        raise typer.Exit(2)
    app = create_app(db, bot_delay=bot_delay, zombie_grace=zombie_grace)
    typer.echo(f"King's Breakfast server on http://{host}:{port}/ (database: {_safe(db)})")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=64 * 1024,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=ws_deflate,
        lifespan="on",
    )


def _safe(url: str) -> str:
    """The URL without its password, for the startup line."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, location = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{location}"
    return url
