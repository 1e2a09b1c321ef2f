"""``kingsbreakfast export-games``: a server's finished games as a pseudonymous dataset
(``server/dataset.py`` says what is in it; docs/datasheet.md describes it)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import DB_ENV, LangOption, fail
from kingsbreakfast.i18n import _, ngettext

SALT_ENV = "KINGSBREAKFAST_EXPORT_SALT"
MIN_SALT = 16


def register(app: typer.Typer) -> None:
    app.command("export-games")(export_games)


def export_games(
    output: Annotated[Path, typer.Argument(help="file to write (.jsonl, or .parquet)")],
    db: Annotated[
        str,
        typer.Option(envvar=DB_ENV, help="database URL, as for serve (also read from {db_env})"),
    ] = "sqlite:///kingsbreakfast.db",
    salt_file: Annotated[
        Path | None,
        typer.Option(
            help="file holding the secret salt of the pseudonyms (or set "
            "KINGSBREAKFAST_EXPORT_SALT); the same salt gives the same pseudonyms in every export"
        ),
    ] = None,
    parquet: Annotated[
        bool, typer.Option(help="write Parquet (needs pyarrow) instead of JSON Lines")
    ] = False,
    listed: Annotated[
        bool,
        typer.Option(
            help="also write the games the site lists publicly (public tables, rated games): "
            "their pages show the same deck with the players' names, so these records can be "
            "matched to them (each person gets a pseudonym of that game only)"
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Write the finished games of a server database as kingsbreakfast/1 records, names
    replaced by pseudonyms, with no tokens or account data."""
    need_extra("server", "sqlalchemy")
    if parquet:
        need_extra("dataset", "pyarrow")
    if salt_file is not None:
        try:
            salt = salt_file.read_bytes()
        except OSError as error:
            raise fail(
                _("cannot read the salt file {path}: {reason}").format(
                    path=salt_file, reason=error.strerror or error
                )
            ) from None
    else:
        salt = os.environ.get(SALT_ENV, "").encode()
    if len(salt.strip()) < MIN_SALT:
        raise fail(
            _(
                "the pseudonyms need a secret salt of at least {needed} bytes "
                "(--salt-file or {variable}); this one has {got}"
            ).format(needed=MIN_SALT, variable=SALT_ENV, got=len(salt.strip()))
        )
    from kingsbreakfast.server.dataset import (
        AccountSeats,
        Export,
        finished_records,
        write_jsonl,
        write_parquet,
    )
    from kingsbreakfast.server.storage import Storage

    storage = Storage(db)
    report = Export()
    try:
        records = finished_records(
            storage, salt, report, AccountSeats(storage.engine), include_listed=listed
        )
        (write_parquet if parquet else write_jsonl)(records, output)
    except OSError as error:
        raise fail(
            _("cannot write {path}: {reason}").format(path=output, reason=error.strerror or error)
        ) from None
    finally:
        storage.dispose()
    typer.echo(
        ngettext(
            "wrote {count} finished game to {path}",
            "wrote {count} finished games to {path}",
            report.written,
        ).format(count=report.written, path=output)
    )
    if report.listed_left_out:
        typer.echo(
            ngettext(
                "left out {count} game the site lists publicly with its players' names "
                "(--listed writes it)",
                "left out {count} games the site lists publicly with their players' names "
                "(--listed writes them)",
                report.listed_left_out,
            ).format(count=report.listed_left_out),
            err=True,
        )
    if report.not_over:
        typer.echo(
            ngettext(
                "left out {count} game marked over whose actions do not end it",
                "left out {count} games marked over whose actions do not end them",
                len(report.not_over),
            ).format(count=len(report.not_over)),
            err=True,
        )
