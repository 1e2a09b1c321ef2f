"""Account deletion in the deployment: three server processes behind HAProxy on
PostgreSQL. After the deletion no process accepts any of the account's sessions, whichever
process took the request; the game in play it sat at (owned by whichever process the proxy
chose) shows the pseudonym on the left seat from every process (server/farewell.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from server.conftest import POSTGRES_URL
from server.kb_browser import PASSWORD, Browser
from server.kb_cluster import cluster

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
    pytest.mark.timeout(300, method="thread"),
]


def test_no_process_accepts_a_deleted_accounts_session(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    with cluster(POSTGRES_URL, tmp_path, bot_delay=3600) as (proxy, servers):
        ann = Browser(proxy, "127.0.11.1")  # type: ignore[arg-type]
        bob = Browser(proxy, "127.0.11.2")  # type: ignore[arg-type]
        assert ann.register("Gone Ann")[0] == 201 and bob.register("Gone Bob")[0] == 201
        # the same session, shown to each process directly
        direct = []
        for server in servers:
            device = Browser(server, "127.0.11.3")
            device.jar = dict(ann.jar)
            assert device.call("GET", "/api/account")[1]["account"]["name"] == "Gone Ann"
            direct.append(device)
        status, grant = ann.call("POST", "/api/tables",
                                 {"name": "x", "seats": 3, "bot_level": "random"})
        assert status == 201, grant
        table_id = grant["table"]["id"]
        assert bob.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})[0] == 201
        assert ann.call("POST", f"/api/tables/{table_id}/start")[0] == 200

        status, gone = ann.call("POST", "/api/account/delete", {"password": PASSWORD})
        assert status == 200, gone
        pseudonym = gone["pseudonym"]
        assert re.fullmatch(r"Former player \d+", pseudonym)
        for device in direct:  # every process, at once: no wait, no retry
            assert device.call("GET", "/api/account")[1]["account"] is None
            status, body = device.call("POST", "/api/tables",
                                       {"name": "x", "seats": 3, "bot_level": "random"})
            assert status == 201 and body["table"]["seats"][0]["name"] == "x"  # a guest now
        for _round in range(3):  # round robin: each process answers
            seat = bob.call("GET", f"/api/tables/{table_id}")[1]["seats"][0]
            assert seat == {**seat, "kind": "open", "name": pseudonym}
            status, body = Browser(proxy, "127.0.11.4").login("Gone Ann")  # type: ignore[arg-type]
            assert status == 401, body
