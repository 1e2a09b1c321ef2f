"""The exported dataset after an account's deletion (server/dataset.py, server/farewell.py):
the export is the very same before and after, so it names neither the old name nor the
site's pseudonym and nothing in it ties one to the other; the public page of a listed game
now names the pseudonym only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from server.kb_accounts import Player
from server.test_dataset_server import SALT, export, play

PASSWORD = "correct horse battery"


@pytest.mark.timeout(300, method="thread")
def test_the_export_ties_no_pseudonym_to_the_old_name(db_url: str, tmp_path: Path) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=0.0)) as client:
        ann = Player(client)
        ann.register("Annika Example")
        private = [play(client, ann, "Gus", False, level) for level in ("random", "easy")]
        listed = play(client, ann, "Gus", True, "random")
        assert client.get(f"/games/{listed}/record").json()["players"][0] == "Annika Example"
        before = [export(db_url, tmp_path, SALT), export(db_url, tmp_path, SALT, "--listed")]
        gone = ann.post("/api/account/delete", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        pseudonym = gone.json()["pseudonym"]
        pages = {g: client.get(f"/games/{g}/record").json() for g in [*private, listed]}
    after = [export(db_url, tmp_path, SALT), export(db_url, tmp_path, SALT, "--listed")]
    assert after == before and len(after[0]) == 2 and len(after[1]) == 3
    text = json.dumps(after)
    assert "Annika" not in text and "Former player" not in text and pseudonym not in text
    for page in pages.values():  # the site's own pages: the pseudonym, never the old name
        assert page["players"][0] == pseudonym
        assert "Annika" not in json.dumps(page)
