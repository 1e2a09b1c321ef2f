"""The finished games of a server's database as a dataset of ``kingsbreakfast/1`` records.

What is written, and what never is (docs/datasheet.md):

- only games whose status is ``over`` and whose stored actions, replayed by the engine on
  their stored deck, end the game (R10): a running game's record would show the deck's
  order and every hidden draw to come, so it is never exported;
- each record is the engine's own ``kingsbreakfast/1`` record (deck, first cook, rules,
  actions), so the engine replays it and ``kingsbreakfast replay`` reads it;
- a person's name becomes a stable pseudonym, ``player-`` and 16 hex digits of
  HMAC-SHA256 keyed with the operator's salt: the same name gets the same pseudonym in every
  export made with that salt, and without the salt no one can tell which name it stands
  for, nor test a guess. A bot keeps its public name (``bot:`` and the name it played
  under); the table's id is replaced the same way (``game``), its finishing time cut to
  the day (``date``);
- no seat token, token hash, account, chat, clock, lobby or lease data: only the fields
  above are read into a record.

Only the storage API is used (``Storage.list_archive`` and ``Storage.load``), not its
tables.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from kingsbreakfast.engine import (
    FORMAT,
    Action,
    KingsBreakfastError,
    Record,
    Rules,
    State,
    outcome,
)

from .store import GameRecord
from .tables import BOT

MIN_SALT_BYTES: Final = 16
"""A shorter salt could be found by trying them all, and with it every pseudonym."""
ALL_GAMES: Final = 2**62
"""``list_archive``'s limit when every finished game is wanted."""


class Archive(Protocol):
    """What the export reads of a store (``Storage`` has both)."""

    def list_archive(self, limit: int = 50) -> list[GameRecord]: ...

    def load(self, game_id: str) -> GameRecord | None: ...


class SaltError(KingsBreakfastError):
    """The salt is missing or too short to keep the pseudonyms from being reversed."""


def check_salt(salt: bytes) -> bytes:
    if len(salt.strip()) < MIN_SALT_BYTES:
        raise SaltError(
            f"the salt must be at least {MIN_SALT_BYTES} bytes of secret (it has "
            f"{len(salt.strip())}): keep it, to get the same pseudonyms next time",
            "salt_too_short",
            needed=MIN_SALT_BYTES,
            got=len(salt.strip()),
        )
    return salt.strip()


def pseudonym(salt: bytes, kind: str, name: str) -> str:
    """A stable, keyed, one-way name for ``name`` (``kind`` keeps players and tables apart)."""
    digest = hmac.new(salt, f"{kind}\0{name}".encode(), hashlib.sha256).hexdigest()
    return f"{kind}-{digest[:16]}"


@dataclass
class Export:
    """What an export wrote and what it left out."""

    written: int = 0
    not_over: list[str] = field(default_factory=list)
    """Pseudonymous ids of games marked over whose actions do not end the game."""


def finished_records(archive: Archive, salt: bytes, report: Export) -> Iterator[dict[str, Any]]:
    """The record of every finished game, oldest first, pseudonymous (see the module doc)."""
    key = check_salt(salt)
    listed = archive.list_archive(limit=ALL_GAMES)
    listed.sort(key=lambda game: (game.finished_at is None, game.finished_at, game.id))
    for summary in listed:
        game = archive.load(summary.id)
        if game is None or game.status != "over" or game.deck is None:
            continue
        game_name = pseudonym(key, "game", game.id)
        record = _record(game, key, game_name)
        if record is None:
            report.not_over.append(game_name)
            continue
        report.written += 1
        yield record


def _record(game: GameRecord, salt: bytes, game_name: str) -> dict[str, Any] | None:
    rules = Rules.from_dict(game.rules)
    state = State(game.deck or (), game.num_seats, game.first_cook, rules)
    try:
        for seat, action in game.actions:
            state.play(action, seat)
    except KingsBreakfastError:
        return None
    if not state.is_over:  # R10: only a game that ended shows its whole deck
        return None
    seats = sorted(game.seats, key=lambda s: s.seat)
    players = [
        f"bot:{s.name}" if s.kind == BOT else pseudonym(salt, "player", s.name) for s in seats
    ]
    tags: dict[str, Any] = {"game": game_name}
    if game.finished_at is not None:
        tags["date"] = game.finished_at.date().isoformat()
    tags["outcome"] = outcome(state)
    record = Record(
        players=tuple(players),
        actions=tuple(Action(a) for _, a in game.actions),
        deck=state.initial_deck,
        first_cook=game.first_cook,
        rules=rules,
        tags=tags,
    )
    out = record.to_dict()
    assert out["format"] == FORMAT
    return out


def write_jsonl(records: Iterator[dict[str, Any]], path: Path) -> None:
    """One record a line (JSON Lines), written to a temporary file and then moved in place,
    so an export that fails leaves no half file behind."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
    partial.replace(path)


def write_parquet(records: Iterator[dict[str, Any]], path: Path) -> None:
    """The same records as a Parquet table (pyarrow): one row a game, the whole record as
    JSON text in ``record`` beside the columns a query filters on."""
    import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]

    rows: dict[str, list[Any]] = {
        "game": [], "date": [], "players": [], "num_players": [], "rules": [],
        "winners": [], "record": [],
    }  # fmt: skip
    for record in records:
        rows["game"].append(record["game"])
        rows["date"].append(record.get("date"))
        rows["players"].append(record["players"])
        rows["num_players"].append(len(record["players"]))
        rows["rules"].append(json.dumps(record.get("rules", Rules().to_dict())))
        rows["winners"].append(list(record["outcome"]["winners"]))
        rows["record"].append(json.dumps(record, ensure_ascii=False))
    partial = path.with_name(path.name + ".partial")
    pq.write_table(pa.table(rows), partial)
    partial.replace(path)
