"""Moderation in the deployment: three server processes behind HAProxy on PostgreSQL, the
operator's ``kingsbreakfast admin`` run on the same database while they serve. A ban ends
the account's sessions on every process at once and no process lets it log in; a mute holds
whichever process the player's chat line reaches; a hidden line leaves every process's chat
history; and the whole of it is in the audit log."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app as cli
from server.conftest import POSTGRES_URL
from server.kb_browser import Browser
from server.kb_cluster import cluster

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]

ROUNDS = 6
"""Requests per check: the proxy sends them round robin, so each process answers some."""


def admin(url: str, *words: str) -> str:
    done = CliRunner().invoke(cli, ["admin", *words, "--db", url, "--lang", "en"])
    assert done.exit_code == 0, done.output
    return done.output


def test_an_operators_decisions_hold_on_every_process(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = POSTGRES_URL
    with cluster(url, tmp_path, bot_delay=3600) as (proxy, _servers):
        ann, bob = Browser(proxy, "127.0.10.1"), Browser(proxy, "127.0.10.2")
        assert ann.register("Mod Ann")[0] == 201 and bob.register("Mod Bob")[0] == 201
        devices = [Browser(proxy, f"127.0.10.{n}") for n in (3, 4)]
        for device in devices:
            assert device.login("Mod Bob")[0] == 200
        status, grant = ann.call("POST", "/api/tables",
                                 {"name": "x", "seats": 3, "bot_level": "random"})
        assert status == 201, grant
        table_id = grant["table"]["id"]
        status, joined = bob.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
        assert status == 201, joined
        seat = {"x-seat-token": joined["token"]}

        def chat(text: str) -> tuple[int, object]:
            return bob.call("POST", f"/api/tables/{table_id}/chat", {"text": text}, seat)

        status, vile = chat("something vile")
        assert status == 201
        admin(url, "mute", "Mod Bob", "--hours", "1", "--operator", "Olga")
        answers = [chat(f"still here {n}") for n in range(ROUNDS)]
        assert {(s, body["error"]["code"]) for s, body in answers} == {(403, "muted")}
        admin(url, "hide-chat", str(vile["id"]), "--operator", "Olga")  # type: ignore[index]
        for _round in range(ROUNDS):
            status, lines = ann.call("GET", f"/api/tables/{table_id}/chat")
            assert status == 200 and lines == []

        assert "3 sessions ended" in admin(url, "ban", "Mod Bob", "--operator", "Olga")
        for browser in (bob, *devices):
            for _round in range(ROUNDS // 2):
                assert browser.call("GET", "/api/account")[1]["account"] is None
        for _round in range(ROUNDS):
            status, body = Browser(proxy, "127.0.10.9").login("Mod Bob")
            assert (status, body["error"]["code"]) == (403, "banned")
        for _round in range(ROUNDS // 2):
            assert ann.call("GET", "/api/account")[1]["account"]["name"] == "Mod Ann"
        log = admin(url, "log")
        assert [line.split()[4] for line in log.splitlines()] == ["ban", "hide_chat", "mute"]
