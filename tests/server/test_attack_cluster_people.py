"""The people, tournament and notice attacks against the deployment: three server processes
on one PostgreSQL behind HAProxy. What one process refuses, every process refuses: a block
made through one holds on the others, a challenge accepted through all three at once makes
one table, a tournament entered through all three at once takes one entry, and the cap on
tournaments made counts them all. Each account's calls go to a chosen process directly (the
same session cookie is good on every one), table calls through the proxy.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kingsbreakfast.server.tournaments.store import MAX_MADE
from server.conftest import POSTGRES_URL
from server.kb_attack_people import code, keys, member, secrets_in
from server.kb_browser import Browser
from server.kb_cluster import Proxy, cluster
from server.kb_live import LiveServer

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]


def on(browser: Browser, server: LiveServer | Proxy) -> Browser:
    """The same browser (its cookies, its machine) talking to another process."""
    other = Browser(server, browser.address)  # type: ignore[arg-type]
    other.jar = browser.jar
    return other


def all_at_once(browsers: list[Browser], method: str, path: str) -> list[tuple[int, Any]]:
    """The same call through every process at once, three times each."""
    with ThreadPoolExecutor(len(browsers) * 3) as pool:
        return list(pool.map(lambda b: b.call(method, path), browsers * 3))


def test_people_and_tournaments_hold_across_three_processes(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    with cluster(POSTGRES_URL, tmp_path, bot_delay=0.0) as (proxy, servers):
        ann, bob = member(servers[0], "Ring Ann"), member(servers[1], "Ring Bob")
        # a challenge accepted through all three processes at once: one table
        status, made = ann.call("POST", "/api/challenges", {"name": "Ring Bob", "seats": 3})
        assert status == 201, made
        bobs = [on(bob, server) for server in servers]
        replies = all_at_once(bobs, "POST", f"/api/challenges/{made['id']}/accept")
        won = [body for status, body in replies if status == 201]
        assert len(won) == 1, replies
        assert {code(r) for r in replies if r[0] != 201} == {(409, "challenge_gone")}
        outgoing = on(ann, servers[2]).call("GET", "/api/people")[1]["outgoing"]
        assert [(c["state"], c["table"]) for c in outgoing] == [("accepted", won[0]["table"])]
        assert secrets_in(outgoing) == [] and secrets_in(won) == []

        # a tournament entered through all three at once: one entry
        cup = ann.call("POST", "/api/tournaments", {
            "name": "Ring Cup", "starts_in": 3600, "bot_level": "random"})[1]["id"]
        replies = all_at_once(bobs, "POST", f"/api/tournaments/{cup}/entry")
        assert [status for status, _ in replies].count(201) == 1, replies
        entrants = servers[2].get(f"/api/tournaments/{cup}")["entrants"]
        assert [e["name"] for e in entrants] == ["Ring Bob"]

        # the cap on tournaments made counts every process's, made at once
        flooder = member(servers[2], "Ring Flooder")
        with ThreadPoolExecutor(12) as pool:  # all at once, through every process
            makes = list(pool.map(lambda n: on(flooder, servers[n % 3]).call(
                "POST", "/api/tournaments", {"name": f"Flood {n}", "starts_in": 3600,
                                             "bot_level": "random"}), range(12)))
        assert [status for status, _ in makes].count(201) == MAX_MADE
        assert {code(m) for m in makes if m[0] != 201} == {(429, "too_many_made")}

        # a block made through one process holds on the others, both ways
        assert on(bob, servers[2]).call("POST", "/api/people/block",
                                        {"name": "Ring Ann"})[0] == 200
        for server in servers:
            assert code(on(ann, server).call("POST", "/api/challenges",
                                             {"name": "Ring Bob"})) == (403, "people_blocked")
            assert code(on(ann, server).call("POST", "/api/people/follow",
                                             {"name": "Ring Bob"})) == (403, "people_blocked")
        status, grant = on(bob, proxy).call("POST", "/api/tables", {"name": "x", "seats": 3})
        assert status == 201, grant
        joined = on(ann, proxy).call("POST", f"/api/tables/{grant['table']['id']}/join",
                                     {"name": "x"})
        assert code(joined) == (403, "people_blocked_table")

        # a push endpoint that leads home is refused by every process
        for server in servers:
            reply = on(ann, server).call("POST", "/api/me/push", {
                "endpoint": "https://127.1/x", "keys": keys()})
            assert code(reply) == (422, "bad_subscription")
        assert on(ann, servers[1]).call("POST", "/api/me/push", {
            "endpoint": "https://push.example.com/ring", "keys": keys()})[0] == 200
        assert secrets_in(proxy_get(proxy, "/api/tv")) == []


def proxy_get(proxy: Proxy, path: str) -> Any:
    status, body = Browser(proxy, "127.0.0.1").call("GET", path)  # type: ignore[arg-type]
    assert status == 200, body
    return body
