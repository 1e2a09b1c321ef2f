"""Dealing worlds from a view (determinization): what a sampler refuses, pinned to its code
and sentence, and which worlds it deals for a fixed generator (bots' seeded searches rely on
it)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from kingsbreakfast.engine import SetupError, State, View, WorldSampler, sample_world
from kingsbreakfast.engine.determinize import unseen_cards


def game(seed: int, players: int, steps: int | None) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng)
    done = 0
    while not state.is_over and (steps is None or done < steps):
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
        done += 1
    return state


def refusal(view: View) -> SetupError:
    with pytest.raises(SetupError) as caught:
        WorldSampler(view)
    return caught.value


def test_no_world_is_dealt_while_a_card_is_turned_up() -> None:
    error = refusal(State.with_unknown_deck(3).view(0))
    assert (error.code, error.params, str(error)) == (
        "chance_step", {},
        "a world is dealt where a player is to move, not while a card is turned up",
    )


def with_hidden(view: View, seat: int, hidden: int) -> View:
    hands = list(view.hands)
    hands[seat] = dataclasses.replace(hands[seat], hidden=hidden)
    return dataclasses.replace(view, hands=tuple(hands))


MORE_SEEN = "the view is inconsistent: more cards are seen than exist"


def bad_views() -> dict[str, tuple[View, str]]:
    view = game(4, 4, 30).view(0)
    assert view.hands[1].draws is None
    over = game(4, 4, None).view(0)
    table = list(view.table)
    table[0] += 16
    return {
        "sixteen bread seen": (dataclasses.replace(view, table=tuple(table)), MORE_SEEN),
        "six dragons seen": (dataclasses.replace(view, table_dragons=6), MORE_SEEN),
        "more hidden cards than unseen ones": (
            with_hidden(view, 1, 111), "the view is inconsistent: too many hidden cards"
        ),
        "a deck one card too long": (
            dataclasses.replace(view, deck_size=view.deck_size + 1),
            f"the view is inconsistent: {view.deck_size} unseen cards for a deck of "
            f"{view.deck_size + 1}",
        ),
        "a deck one card too short": (
            dataclasses.replace(view, deck_size=view.deck_size - 1),
            f"the view is inconsistent: {view.deck_size} unseen cards for a deck of "
            f"{view.deck_size - 1}",
        ),
        "a finished game with a card unaccounted for": (
            dataclasses.replace(over, removed_unseen=over.removed_unseen + 1),
            "the view is inconsistent: cards unaccounted for",
        ),
    }


@pytest.mark.parametrize("name", list(bad_views()))
def test_an_inconsistent_view_is_refused_with_its_reason(name: str) -> None:
    view, message = bad_views()[name]
    error = refusal(view)
    assert (error.code, error.params, str(error)) == ("bad_view", {}, message)


def test_the_edges_of_consistency_are_accepted() -> None:
    """Exactly as many hidden cards as unseen dish cards, and a finished game's exact count,
    are consistent: the checks above refuse only what is really wrong."""
    over = game(4, 4, None).view(0)
    WorldSampler(over)
    view = game(4, 4, 30).view(0)
    dishes, dragons = unseen_cards(view)
    hidden_elsewhere = sum(h.hidden for s, h in enumerate(view.hands) if s not in (0, 1))
    edge = with_hidden(view, 1, sum(dishes) - hidden_elsewhere)
    edge = dataclasses.replace(edge, deck_size=dragons)
    world = WorldSampler(edge).sample(random.Random(1))
    assert world.deck_size == dragons
    assert all(card == 7 for card in world.remaining_deck)


def fingerprint(world: State, players: int) -> dict[str, Any]:
    return {
        "deck": list(world.remaining_deck),
        "draws": [list(world.draws(seat)) for seat in range(players)],
    }


def test_a_seeded_sampler_deals_the_same_worlds_as_sample_world() -> None:
    view = game(9, 5, 40).view(2)
    sampler = WorldSampler(view)
    a, b = random.Random(3), random.Random(3)
    for _ in range(5):
        assert fingerprint(sampler.sample(a), 5) == fingerprint(sample_world(view, b), 5)


def test_every_position_of_the_deck_and_of_a_hidden_hand_varies() -> None:
    """Fisher–Yates reaches every position: over many worlds the last card of the deck, the
    first, and the first and last hidden cards each take several values (a loop that stopped
    one short would pin one of them)."""
    state = game(11, 4, 30)
    view = state.view(0)
    hidden_seats = [s for s, h in enumerate(view.hands) if h.draws is None and h.hidden >= 2]
    assert hidden_seats and view.deck_size >= 2
    sampler = WorldSampler(view)
    rng = random.Random(5)
    firsts, lasts, hidden = set(), set(), set()
    for _ in range(300):
        world = sampler.sample(rng)
        firsts.add(world.remaining_deck[0])
        lasts.add(world.remaining_deck[-1])
        hidden.add(tuple(world.draws(hidden_seats[0])))
    assert len(firsts) >= 5 and len(lasts) >= 5 and len(hidden) >= 5
