"""Registrations a classroom fits in (server/limits.py, server/proof.py): 30 an hour and 60
a day per address, the first 3 of an hour free, each one past them paid for with a proof of
work whose cost rises with the hour's registrations (docs/accounts.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.limits import ServerLimits
from kingsbreakfast.server.lobby import LobbyError
from kingsbreakfast.server.proof import (
    BASE_BITS,
    CHALLENGE_SECONDS,
    MAX_BITS,
    Proofs,
    bits_needed,
    solve,
)
from server.kb_accounts import Player

ADDRESS = "198.51.100.20"
PASSWORD = "correct horse battery"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0.0)) as test_client:
        yield test_client


def test_the_cost_rises_with_the_hours_registrations() -> None:
    free = ServerLimits().registrations_without_proof
    assert [bits_needed(n, free) for n in range(free)] == [0] * free
    costs = [bits_needed(n, free) for n in range(free, ServerLimits().registrations_per_hour)]
    assert costs[0] == BASE_BITS and costs == sorted(costs) and costs[-1] > costs[0] + 5
    assert bits_needed(10_000, free) == MAX_BITS


def test_a_proof_holds_for_its_address_name_and_cost_only() -> None:
    proofs, now = Proofs(b"site key"), 1_000_000.0
    challenge = proofs.challenge(ADDRESS, 8, now)
    proof = {"challenge": challenge, "counter": solve(challenge, "Pupil 1", 8)}
    proofs.check(proof, "Pupil 1", ADDRESS, 8, now + 1)  # good
    refusals = [
        (None, "Pupil 1", ADDRESS, 8, now),  # none sent
        (proof, "Pupil 2", ADDRESS, 8, now),  # another name: the proof makes one account
        (proof, "Pupil 1", "203.0.113.1", 8, now),  # fetched from another address
        (proof, "Pupil 1", ADDRESS, 9, now),  # cheaper than the address owes now
        (proof, "Pupil 1", ADDRESS, 8, now + CHALLENGE_SECONDS + 1),  # too old
        ({**proof, "counter": "x"}, "Pupil 1", ADDRESS, 8, now),
        ({**proof, "challenge": challenge.replace(".8.", ".0.")}, "Pupil 1", ADDRESS, 0, now),
    ]
    codes = []
    for sent, name, where, needed, at in refusals:
        with pytest.raises(LobbyError) as refused:
            proofs.check(sent, name, where, needed, at)
        assert refused.value.status == 428 and refused.value.params["bits"] == needed
        codes.append(refused.value.code)
    assert codes == ["proof_needed"] + ["bad_proof"] * 6
    assert Proofs(b"another site").challenge(ADDRESS, 8, now) != challenge


@pytest.mark.timeout(240, method="thread")
def test_a_classroom_of_25_registers_from_one_address_within_an_hour(
    client: TestClient,
) -> None:
    """One address (the test client's), 25 pupils one after the other, each form paying
    the proof it is asked for; then the hour's ceiling holds."""
    started = time.time()
    pupils = [Player(client) for _ in range(25)]
    asked = []
    for number, pupil in enumerate(pupils):
        asked.append(pupil.get("/api/account/challenge").json()["bits"])
        pupil.register(f"Pupil {number + 1}")
        assert pupil.me()["name"] == f"Pupil {number + 1}"
    assert time.time() - started < 3600
    free = ServerLimits().registrations_without_proof
    assert asked[:free] == [0] * free and asked[free] == BASE_BITS and asked[-1] > BASE_BITS
    late = Player(client)
    late.get("/api/account")
    bare = late.post("/api/account/register", json={"name": "Latecomer", "password": PASSWORD})
    assert bare.status_code == 428 and bare.json()["error"]["code"] == "proof_needed"
    assert bare.json()["error"]["params"]["bits"] == bits_needed(25, free)
    wrong = late.post("/api/account/register", json={
        "name": "Latecomer", "password": PASSWORD,
        "proof": {"challenge": "1.1.aa.bb", "counter": "0"},
    })
    assert wrong.status_code == 428 and wrong.json()["error"]["code"] == "bad_proof"
    for number in range(25, ServerLimits().registrations_per_hour):
        Player(client).register(f"Pupil {number + 1}")
    full = Player(client)
    full.get("/api/account")
    refused = full.post("/api/account/register", json={"name": "One more", "password": PASSWORD})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_registrations"
