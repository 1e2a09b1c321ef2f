"""The finished games of a server's database as a dataset of ``kingsbreakfast/1`` records.

What is written, and what never is (docs/datasheet.md):

- only games whose status is ``over`` and whose stored actions, replayed by the engine on
  their stored deck, end the game (R10): a running game's record would show the deck's
  order and every hidden draw to come, so it is never exported;
- each record is the engine's own ``kingsbreakfast/1`` record (deck, first cook, rules,
  actions), so the engine replays it and ``kingsbreakfast replay`` reads it;
- a seat's player is whoever was dealt its hand (the game's first seat holder). A person
  becomes ``player-`` and 16 hex digits of HMAC-SHA256 keyed with the operator's salt: an
  account gets the same pseudonym in every export made with that salt, a guest (a name
  anyone may type) one for that game only. A game whose record the site lists publicly
  with its players' names (a public table, in the archive; a rated game, on its players'
  profiles) can be matched to its page by its deck or its moves, so it is left out unless
  the operator asks for it (``--listed``); then *every* person in it gets a pseudonym of
  that game only: matching it tells nothing the page does not, and leads to no other
  game. Without the salt no one can tell which name a pseudonym stands for, nor test a
  guess. A bot is ``bot:`` and its level (``bot:hard``); the table's id is replaced the
  same way (``game``), its finishing time cut to the day (``date``);
- no seat token, token hash, account, chat, clock, lobby or lease data: only the fields
  above are read into a record.

The games are read through the storage API (``Storage.list_archive``, ``Storage.load``,
``Storage.holders``); which seats were accounts' and whether a game was rated, from the
accounts' rows (:class:`AccountSeats`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from sqlalchemy import select, union
from sqlalchemy.engine import Engine

from kingsbreakfast.engine import (
    FORMAT,
    Action,
    KingsBreakfastError,
    Record,
    Rules,
    State,
    outcome,
)

from .account_models import GameResultRow, LeaverRow, SeatAccountRow
from .store import GameRecord, SeatHolder
from .tables import HUMAN, OPEN

MIN_SALT_BYTES: Final = 16
"""A shorter salt could be found by trying them all, and with it every pseudonym."""
ALL_GAMES: Final = 2**62
"""``list_archive``'s limit when every finished game is wanted."""


class Archive(Protocol):
    """What the export reads of a store (``Storage`` has both)."""

    def list_archive(self, limit: int = 50) -> list[GameRecord]: ...

    def load(self, game_id: str) -> GameRecord | None: ...

    def holders(self, game_id: str) -> list[SeatHolder]: ...


class Owners(Protocol):
    """Which seats of a game accounts held, and whether its record is listed publicly."""

    def accounts(self, game_id: str) -> dict[int, int]: ...

    def rated(self, game_id: str) -> bool: ...


class AccountSeats:
    """:class:`Owners` from the accounts' rows of the same database (a seat held when the
    game ended, a seat left during play, a seat with a result)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def accounts(self, game_id: str) -> dict[int, int]:
        held = union(
            select(SeatAccountRow.seat, SeatAccountRow.account_id)
            .where(SeatAccountRow.game_id == game_id),
            select(LeaverRow.seat, LeaverRow.account_id).where(LeaverRow.game_id == game_id),
            select(GameResultRow.seat, GameResultRow.account_id)
            .where(GameResultRow.game_id == game_id),
        )
        with self.engine.connect() as connection:
            return {int(seat): int(account) for seat, account in connection.execute(held)}

    def rated(self, game_id: str) -> bool:
        query = select(GameResultRow.game_id).where(
            GameResultRow.game_id == game_id, GameResultRow.rated
        ).limit(1)
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None


class NoOwners:
    """A database without accounts: every person is a guest, no game is rated."""

    def accounts(self, game_id: str) -> dict[int, int]:
        return {}

    def rated(self, game_id: str) -> bool:
        return False


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
    listed_left_out: int = 0
    """Games the site lists publicly with names, left out so no record matches a page."""


def finished_records(
    archive: Archive,
    salt: bytes,
    report: Export,
    owners: Owners | None = None,
    include_listed: bool = False,
) -> Iterator[dict[str, Any]]:
    """The record of every finished game, oldest first, pseudonymous (see the module doc).

    A game the site lists publicly (a public table's, a rated one) is left out unless
    ``include_listed``: its page shows the same deck and moves with the players' names, so its
    record would match the page. Included, its people get pseudonyms of that game only, so a
    match names nobody beyond what the page shows."""
    key = check_salt(salt)
    owners = owners or NoOwners()
    listed = archive.list_archive(limit=ALL_GAMES)
    listed.sort(key=lambda game: (game.finished_at is None, game.finished_at, game.id))
    for summary in listed:
        game = archive.load(summary.id)
        if game is None or game.status != "over" or game.deck is None:
            continue
        if not include_listed and (game.public or owners.rated(game.id)):
            report.listed_left_out += 1
            continue
        game_name = pseudonym(key, "game", game.id)
        players = _players(game, archive.holders(game.id), owners, key)
        record = _record(game, players, game_name)
        if record is None:
            report.not_over.append(game_name)
            continue
        report.written += 1
        yield record


def _players(
    game: GameRecord, holders: list[SeatHolder], owners: Owners, salt: bytes
) -> list[str]:
    """Each seat's player as the module doc says: who was dealt the seat's hand."""
    dealt: dict[int, tuple[str, str]] = {}
    for holder in sorted(holders, key=lambda h: h.since):
        dealt.setdefault(holder.seat, (holder.kind, holder.name))
    accounts = owners.accounts(game.id)
    listed = game.public or owners.rated(game.id)
    players = []
    for seat in sorted(game.seats, key=lambda s: s.seat):
        kind, _name = dealt.get(seat.seat, (seat.kind, seat.name))
        if kind == OPEN:  # left without a history line: a person was dealt it
            kind = HUMAN
        if kind != HUMAN:
            players.append(f"bot:{game.bot_level}")
        elif listed:
            players.append(pseudonym(salt, "player", f"listed\0{game.id}\0{seat.seat}"))
        elif seat.seat in accounts:
            players.append(pseudonym(salt, "player", f"account\0{accounts[seat.seat]}"))
        else:
            players.append(pseudonym(salt, "player", f"guest\0{game.id}\0{seat.seat}"))
    return players


def _record(game: GameRecord, players: list[str], game_name: str) -> dict[str, Any] | None:
    rules = Rules.from_dict(game.rules)
    state = State(game.deck or (), game.num_seats, game.first_cook, rules)
    try:
        for seat, action in game.actions:
            state.play(action, seat)
    except KingsBreakfastError:
        return None
    if not state.is_over:  # R10: only a game that ended shows its whole deck
        return None
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
