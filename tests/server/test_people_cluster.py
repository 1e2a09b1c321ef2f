"""People in the deployment: three server processes behind HAProxy on PostgreSQL, each
request going to whichever process the proxy picks. Friends made through one process are
friends, and online now, on every process; a block refuses the seat whichever process is
asked; a challenge made through one process is seen and accepted through another, and the
table it makes (served by the process the proxy routes its id to) seats both players."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.conftest import POSTGRES_URL
from server.kb_browser import Browser
from server.kb_cluster import cluster
from server.kb_schema import empty_database

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]

ROUNDS = 6
"""Requests per check: the proxy sends them round robin, so each process answers some."""


def test_people_and_challenges_hold_on_every_process(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    url = empty_database(POSTGRES_URL)
    with cluster(url, tmp_path, bot_delay=3600) as (proxy, _servers):
        ann, bob, cy = (Browser(proxy, f"127.0.11.{n}") for n in (1, 2, 3))
        for browser, name in ((ann, "Pal Ann"), (bob, "Pal Bob"), (cy, "Pal Cy")):
            assert browser.register(name)[0] == 201
        assert ann.call("POST", "/api/people/follow", {"name": "Pal Bob"})[0] == 200
        assert bob.call("POST", "/api/people/follow", {"name": "Pal Ann"})[0] == 200
        status, before = ann.call("GET", "/api/people")
        assert status == 200 and before["friends"][0]["online"] is False  # no page of his yet
        assert bob.call("GET", "/api/me/awaiting")[0] == 200  # his page's badge, each minute
        for _round in range(ROUNDS):
            status, mine = ann.call("GET", "/api/people")
            assert status == 200
            assert [(p["name"], p["online"]) for p in mine["friends"]] == [("Pal Bob", True)]

        assert ann.call("POST", "/api/people/block", {"name": "Pal Cy"})[0] == 200
        status, grant = ann.call("POST", "/api/tables",
                                 {"name": "x", "seats": 3, "bot_level": "random"})
        assert status == 201, grant
        table_id = grant["table"]["id"]
        for _round in range(ROUNDS):
            status, refused = cy.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
            assert (status, refused["error"]["code"]) == (403, "people_blocked_table")

        status, made = ann.call("POST", "/api/challenges",
                                {"name": "Pal Bob", "seats": 3, "clock_seconds": 60})
        assert status == 201, made
        for _round in range(ROUNDS):
            incoming = bob.call("GET", "/api/people")[1]["incoming"]
            assert [c["id"] for c in incoming] == [made["id"]]
        status, taken = bob.call("POST", f"/api/challenges/{made['id']}/accept")
        assert status == 201, taken
        for _round in range(ROUNDS):
            status, again = bob.call("POST", f"/api/challenges/{made['id']}/accept")
            assert (status, again["error"]["code"]) == (409, "challenge_gone")
            outgoing = ann.call("GET", "/api/people")[1]["outgoing"]
            assert [(c["state"], c["table"]) for c in outgoing] == [
                ("accepted", taken["table"])]
        status, table = cy.call("GET", f"/api/tables/{taken['table']}")
        assert status == 200
        assert [s["name"] for s in table["seats"][:2]] == ["Pal Ann", "Pal Bob"]
        status, started = ann.call("POST", f"/api/tables/{taken['table']}/start")
        assert status == 200 and started["status"] == "playing", started
