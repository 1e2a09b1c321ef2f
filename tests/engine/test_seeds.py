"""Seeds are part of the record format's contract (docs/record-format.md): the same seed deals
the same 110 cards on every machine and every release, through ``shuffled_deck``,
``State.new`` and a record's ``seed``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from kingsbreakfast.engine import (
    CARD_IDS,
    UNSHUFFLED_DECK,
    Record,
    RecordError,
    Rules,
    State,
    read_record,
    replay,
    shuffled_deck,
)

GOLDEN = Path(__file__).parent.parent / "golden"
STORED = json.loads((GOLDEN / "seeds" / "shuffled-decks.json").read_text())["decks"]
SEEDS = sorted(int(seed) for seed in STORED)


def stored(seed: int) -> tuple[int, ...]:
    return tuple(CARD_IDS.index(card) for card in STORED[str(seed)])


def test_the_stored_decks_are_whole_decks() -> None:
    """R1: the fixture itself is 110 cards, 15 of each dish and 5 dragons, and the decks
    differ from each other and from the unshuffled order (else the pins would prove little)."""
    decks = [stored(seed) for seed in SEEDS]
    for deck in decks:
        assert sorted(deck) == sorted(UNSHUFFLED_DECK)
        assert deck != UNSHUFFLED_DECK
    assert len(set(decks)) == len(decks)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_shuffles_to_the_stored_deck(seed: int) -> None:
    assert shuffled_deck(random.Random(seed)) == stored(seed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_state_new_deals_from_the_seeds_deck(seed: int, players: int) -> None:
    """``State.new(n, seed)`` is ``State(deck of seed, n)``, with a seed or a generator."""
    by_seed = State.new(players, seed)
    assert by_seed.initial_deck == stored(seed)
    assert by_seed == State(stored(seed), players)
    assert by_seed == State.new(players, random.Random(seed))


def test_state_new_passes_first_cook_and_rules_through() -> None:
    rules = Rules("must_draw", 2)
    state = State.new(4, 7, 2, rules)
    assert state == State(stored(7), 4, 2, rules)
    assert (state.first_cook, state.rules) == (2, rules)


def test_state_new_continues_a_given_generator() -> None:
    """A generator is used as it stands (a tournament deals many games from one), not
    reseeded: the second deal from one generator is not the first."""
    rng = random.Random(7)
    first, second = State.new(3, rng), State.new(3, rng)
    assert first.initial_deck == stored(7)
    assert second.initial_deck != first.initial_deck


def test_without_a_seed_the_deck_comes_from_the_system_and_not_the_global_generator() -> None:
    random.seed(7)
    before = random.getstate()
    decks = {State.new(3).initial_deck for _ in range(3)}
    assert random.getstate() == before  # the engine never touches the global generator
    assert len(decks) == 3  # 110!/(15!^7 5!) decks: three equal ones would be no shuffle
    assert stored(7) not in decks


SEEDED = sorted(
    path for path in GOLDEN.glob("*.json") if "seed" in json.loads(path.read_text())["record"]
)


def test_some_golden_records_are_seeded() -> None:
    assert len(SEEDED) >= 3


@pytest.mark.parametrize("path", SEEDED, ids=lambda p: p.name)
def test_a_seeded_record_round_trips_its_seed(path: Path) -> None:
    raw: dict[str, Any] = json.loads(path.read_text())["record"]
    record = read_record(raw)
    assert (record.seed, record.deck) == (raw["seed"], None)
    assert record.to_dict() == raw
    assert read_record(record.to_json()) == record
    assert record.start() == State(
        shuffled_deck(random.Random(raw["seed"])), len(raw["players"]), record.first_cook,
        record.rules,
    )


def test_a_seeded_record_and_its_dealt_deck_replay_the_same_game() -> None:
    raw = json.loads((GOLDEN / "07-seeded-3p.json").read_text())["record"]
    dealt = dict(raw)
    del dealt["seed"]
    dealt["deck"] = STORED["7"]
    assert raw["seed"] == 7
    assert replay(raw) == replay(dealt)


def test_a_record_with_neither_deck_nor_seed_cannot_start() -> None:
    with pytest.raises(RecordError) as caught:
        Record(("a", "b", "c")).start()
    assert (caught.value.code, caught.value.params) == ("no_deck", {})
    assert str(caught.value) == "a record needs a deck or a seed"
    assert caught.value.action_index is None


def test_a_seed_of_zero_is_a_seed() -> None:
    """0 is falsy but a seed: the record must not treat it as missing."""
    record = Record(("a", "b", "c"), seed=0)
    assert record.start().initial_deck == stored(0)
    assert record.to_dict()["seed"] == 0 and "deck" not in record.to_dict()
