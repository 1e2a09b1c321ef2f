"""The profile a player reads right after a rated game: the rating and the games it counts
agree even when the background settle, started as the game ended, commits while the
profile is being read (between reading the account and catching up)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.accounts import name_key
from kingsbreakfast.server.app import create_app
from server.kb_accounts import Player
from server.test_accounts_play import TABLE, play_together


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=0.0)) as test_client:
        yield test_client


def test_a_settle_committed_during_the_read_shows_in_the_rating_too(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    site: Any = client.app.state.site  # type: ignore[attr-defined]
    store = site.accounts.store
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    before = client.portal.call(site.accounts.call, store.account_by_key, name_key("Ann"))
    assert before is not None and before.rated_games == 0
    table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "x"}).json()["seat"] == 1
    play_together([ann, bob], table_id, ann)
    client.portal.call(site.ratings.settle, table_id)
    after = client.portal.call(site.accounts.call, store.account, before.id)
    # (σ shrinks with every rated game; μ stays put when the two accounts tie, R12)
    assert after.rated_games == 1 and after.sigma < before.sigma
    # the interleaving pinned: the profile's account was read before the settle committed,
    # and its catch-up then found nothing left to settle
    monkeypatch.setattr(store, "account_by_key", lambda key: before)
    profile = Player(client).get("/api/players/Ann").json()
    assert len(profile["history"]) == 1 and profile["games"] == 1
    assert profile["rated_games"] == 1, "the rating shown is older than the games it counts"
    assert (profile["mu"], profile["sigma"]) == (round(after.mu, 2), round(after.sigma, 2))
