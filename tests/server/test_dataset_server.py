"""``kingsbreakfast export-games`` after games played through the server's own HTTP and
WebSocket API: bots carry their level, guests are someone new in every game, an account is
one pseudonym per salt, and no game the site lists publicly can lead from its page to any
other record of the export (docs/datasheet.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.server.app import create_app
from server.kb_accounts import Player

SALT = b"a secret salt of the operator, 40 bytes.."


def play(client: TestClient, host: Player, guest: str, public: bool, level: str) -> str:
    """A table of an account, a guest and a bot, dealt and played to its end (away seats
    are played by bots at once); the game's id."""
    body = {"name": "x", "seats": 3, "bot_level": level, "public": public}
    table_id: str = host.post("/api/tables", json=body).json()["table"]["id"]
    assert Player(client).post(f"/api/tables/{table_id}/join",
                               json={"name": guest}).status_code == 201
    assert host.post(f"/api/tables/{table_id}/start").status_code == 200
    with Player(client).websocket(f"/ws/tables/{table_id}") as socket:
        socket.send_json({"type": "hello", "token": None})
        for _ in range(2000):
            frame = socket.receive_json()
            if frame["type"] == "state" and frame["score"] is not None:
                return table_id
    raise AssertionError("the game did not end")


def export(
    db_url: str, folder: Path, salt: bytes, *options: str
) -> list[dict[str, Any]]:
    salt_file = folder / "salt"
    salt_file.write_bytes(salt)
    out = folder / "games.jsonl"
    result = CliRunner().invoke(
        app, ["export-games", str(out), "--db", db_url, "--salt-file", str(salt_file), *options]
    )
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.timeout(300, method="thread")
def test_an_export_of_served_games_links_to_no_public_page(db_url: str, tmp_path: Path) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=0.0)) as client:
        ann = Player(client)
        ann.register("Ann")
        private = [play(client, ann, "Gus", False, level) for level in ("random", "easy")]
        listed = play(client, ann, "Gus", True, "random")
        pages = {g: client.get(f"/games/{g}/record").json() for g in [*private, listed]}
    # by default the game listed publicly is left out: no record matches its page
    default = export(db_url, tmp_path, SALT)
    assert len(default) == 2
    assert tuple(pages[listed]["deck"]) not in {tuple(r["deck"]) for r in default}
    records = export(db_url, tmp_path, SALT, "--listed")
    by_deck = {tuple(r["deck"]): r for r in records}
    assert len(by_deck) == len(records) == 3
    first, second, public = (by_deck[tuple(pages[g]["deck"])] for g in [*private, listed])
    # bots carry their level; the account keeps one pseudonym across its unlisted games
    assert first["players"][2] == "bot:random" and second["players"][2] == "bot:easy"
    assert first["players"][0] == second["players"][0]
    # two guests who typed the same name are two people
    assert first["players"][1] != second["players"][1]
    # the public game is matched to its page by its deck, but what that names leads nowhere
    assert pages[listed]["players"][0] == "Ann"
    others = {p for r in (first, second) for p in r["players"]}
    assert not (set(public["players"]) - {"bot:random"}) & others
    # another salt: other pseudonyms for the same account
    again = export(db_url, tmp_path, b"another secret salt, 32 bytes..")
    assert {r["players"][0] for r in again}.isdisjoint({r["players"][0] for r in records})
