"""The TV on the deployment (PostgreSQL, HAProxy, three server processes): every process
gives the same list and the same featured game, whichever of them holds the tables, because
the TV reads the store, never one process's memory."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, update

from kingsbreakfast.server.account_models import AccountRow
from kingsbreakfast.server.account_store import AccountStore
from kingsbreakfast.server.storage import normalize_url
from server.conftest import POSTGRES_URL
from server.kb_cluster import cluster, lobby

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)"),
    pytest.mark.skipif(shutil.which("haproxy") is None,
                       reason="needs haproxy (scripts/ci-services.sh installs it)"),
]

TABLES = 6
RATINGS = (12.0, 31.0, 20.0)
"""The conservative ratings of the accounts seated at the first three tables."""


def tv_of(base: str) -> Any:
    with urllib.request.urlopen(base + "/api/tv", timeout=15) as reply:
        return json.loads(reply.read())


def test_every_process_shows_the_same_tv(postgres_url: str, tmp_path: Path) -> None:
    with cluster(postgres_url, tmp_path, bot_delay=3600.0) as (proxy, servers):
        tables = []
        for n in range(TABLES):
            grant = lobby(proxy.base, "POST", "/api/tables",
                          {"name": f"Host {n}", "seats": 3, "bot_level": "random"})
            lobby(proxy.base, "POST", f"/api/tables/{grant['table']['id']}/start", None,
                  grant["token"])
            tables.append(grant["table"]["id"])
        engine = create_engine(normalize_url(postgres_url))
        try:  # accounts hold the first seats of three tables (as a logged-in host would)
            store = AccountStore(engine)
            for n, rating in enumerate(RATINGS):
                made = store.create_account(f"Rated {n}", f"rated {n}", f"rated-{n}", "x")
                store.own_seat(tables[n], 0, made.id)
                with engine.begin() as connection:
                    connection.execute(update(AccountRow).where(AccountRow.id == made.id)
                                       .values(mu=rating + 3.0, sigma=1.0))
        finally:
            engine.dispose()
        answers = [tv_of(server.base) for server in servers]
        through_proxy = tv_of(proxy.base)
    assert all(answer == through_proxy for answer in answers)
    listed = [t["id"] for t in through_proxy["tables"]]
    assert listed[:3] == [tables[1], tables[2], tables[0]]  # 31, 20, 12
    assert listed[3:] == tables[3:]  # unrated: the oldest first
    assert through_proxy["featured"]["id"] == tables[1]
