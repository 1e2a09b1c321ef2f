"""The boosting rule's two patterns on the meetings it is given (docs/accounts.md)."""

from __future__ import annotations

from kingsbreakfast.server.boosting import (
    EARLY_GAMES,
    RING_GAMES,
    RING_SOURCES,
    early_endings,
    patterns,
    same_opponents,
)


def test_early_endings_from_one_address_flag_the_ring() -> None:
    endings = [(f"g{n}", 10 + n, "home") for n in range(EARLY_GAMES)]  # new puppets, one address
    found = early_endings(1, endings)
    assert found is not None and found.reason == "early_endings"
    assert found.accounts == {1, *(10 + n for n in range(EARLY_GAMES))}
    assert found.games == {f"g{n}" for n in range(EARLY_GAMES)}


def test_strangers_who_quit_early_flag_nobody() -> None:
    endings = [(f"g{n}", 10 + n, f"address {n}") for n in range(10)]
    assert early_endings(1, endings) is None
    assert early_endings(1, [*endings[:EARLY_GAMES - 1], ("g0", 99, "address 0")]) is None


def test_one_account_quitting_early_again_and_again_is_a_source() -> None:
    endings = [(f"g{n}", 7, "") for n in range(EARLY_GAMES)]
    found = early_endings(1, endings)
    assert found is not None and found.accounts == {1, 7}


def test_games_only_against_a_few_addresses_flag_a_ring() -> None:
    ring = [(f"g{n}", 10 + n % 4, f"home {n % RING_SOURCES}") for n in range(RING_GAMES)]
    found = same_opponents(1, ring)
    assert found is not None and found.reason == "same_opponents"
    assert same_opponents(1, ring[:-1]) is None  # one game short
    varied = [*ring, ("g99", 50, "elsewhere")]
    assert same_opponents(1, varied) is None
    assert [p.reason for p in patterns(1, [], ring)] == ["same_opponents"]
