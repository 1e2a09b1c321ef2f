"""Saving a game as a ``kingsbreakfast/1`` record and reading one back to resume or replay.

A saved game holds the whole deck (the record format needs it to replay the game), so the
file is for the players' own machine, not for showing to an opponent mid-game.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from kingsbreakfast.engine import Record, RecordError, read_record

from .session import Game


def default_save_path(now: _dt.datetime | None = None) -> Path:
    """``kingsbreakfast-YYYYMMDD-HHMMSS.json`` in the current folder."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return Path(f"kingsbreakfast-{stamp}.json")


def write_record(game: Game, path: Path) -> None:
    """Write the game so far; the file is complete or untouched (written aside, then moved)."""
    text = game.record().to_json(indent=1) + "\n"
    aside = path.with_name(path.name + ".part")
    aside.write_text(text, encoding="utf-8")
    aside.replace(path)


def load_record(path: Path) -> Record:
    """Read and check a record file; :class:`RecordError` names what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(
            f"cannot read {path}: {error.strerror or error}", "unreadable_file"
        ) from None
    return read_record(data)
