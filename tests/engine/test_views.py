"""What each seat may know (docs/rules.md, *Who sees what*) and
determinization from it."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from kingsbreakfast.engine import (
    Action,
    SetupError,
    State,
    WorldSampler,
    sample_world,
    unseen_cards,
)
from kingsbreakfast.engine.cards import WINE
from rigging import rigged


def random_game(seed: int, players: int, stop_after: int | None = None) -> State:
    rng = random.Random(seed)
    state = State.new(players, rng)
    steps = 0
    while not state.is_over and (stop_after is None or steps < stop_after):
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
        steps += 1
    return state


def test_own_draws_are_seen_only_by_their_owner() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", "wine", players=3)
    state.play("draw")
    mine = state.view(0)
    assert mine.hands[0].draws is not None and mine.hands[0].draws[WINE] == 1
    assert mine.my_hand is mine.hands[0]
    for viewer in (1, 2, None):
        view = state.view(viewer)
        assert view.hands[0].draws is None
        assert view.hands[0].hidden == 1
        assert view.hands[0].size == 1
        text = repr(view) + json.dumps(view.to_dict())
        assert "draws" not in json.dumps(view.to_dict()["hands"][0])
        assert "'wine'" not in text or view.table[WINE] or view.king[WINE]


def test_a_spectator_sees_no_drawn_card_at_all() -> None:
    state = random_game(4, 4, stop_after=30)
    spectator = state.view(None)
    assert spectator.seat is None and spectator.my_hand is None
    assert all(hand.draws is None for hand in spectator.hands)
    assert [hand.hidden for hand in spectator.hands] == [
        sum(state.draws(seat)) for seat in range(4)
    ]


def test_every_hand_is_shown_when_the_game_is_over() -> None:
    state = random_game(5, 3)
    view = state.view(None)
    assert view.finished
    assert [hand.cards for hand in view.hands] == list(state.hands)
    scoring = view.score()
    assert scoring is not None and scoring.points == state.score().points


def test_views_agree_with_the_state_on_public_facts() -> None:
    state = random_game(6, 5, stop_after=40)
    view = state.view(2)
    assert view.table == state.table and view.king == state.king
    assert view.deck_size == state.deck_size and view.to_move == state.to_move
    assert view.legal_actions() == state.legal_actions()
    assert view.history == state.history
    assert view.removed == state.removed


def test_view_explains_an_illegal_action() -> None:
    state = rigged("cheese", "ham", "bread", "wine", "fruit", "cake", players=3)
    view = state.view(0)
    assert view.why_illegal(view.legal_actions()[0]) is None
    from kingsbreakfast.engine import Action

    assert view.why_illegal(Action.parse("take chicken")) == "chicken is not on the table (R6)"


def test_a_sampled_world_looks_the_same_to_the_viewer() -> None:
    for seed in range(60):
        players = 3 + seed % 3
        state = random_game(seed, players, stop_after=seed % 45)
        if state.is_over:
            continue
        seat = seed % players
        view = state.view(seat)
        world = sample_world(view, random.Random(seed))
        assert world.view(seat) == view
        assert world.dish_totals() == [15] * 7 + [5]
        assert world.legal_actions() == state.legal_actions()
        # the world plays on to a proper end
        rng = random.Random(seed)
        while not world.is_over:
            legal = world.legal_actions()
            world.apply(legal[rng.randrange(len(legal))])
        assert world.card_counts()["unaccounted"] == 0


def test_sampled_worlds_vary_only_what_is_hidden() -> None:
    state = random_game(3, 4, stop_after=25)
    view = state.view(1)
    hands_seen = set()
    decks_seen = set()
    for k in range(30):
        world = sample_world(view, random.Random(k))
        assert world.draws(1) == state.draws(1)
        hands_seen.add(tuple(world.draws(0)) + tuple(world.draws(2)) + tuple(world.draws(3)))
        decks_seen.add(world.remaining_deck)
    assert len(decks_seen) > 1
    if any(view.hands[s].hidden for s in (0, 2, 3)):
        assert len(hands_seen) > 1


def test_a_spectator_can_sample_worlds_too() -> None:
    state = random_game(8, 3, stop_after=20)
    view = state.view(None)
    world = sample_world(view, random.Random(1))
    assert world.view(None) == view
    dishes, dragons = unseen_cards(view)
    assert sum(dishes) + dragons == state.deck_size + sum(
        hand.hidden for hand in view.hands
    )


def test_one_sampler_deals_independent_worlds_like_sample_world() -> None:
    for seed in range(40):
        players = 3 + seed % 3
        state = random_game(seed, players, stop_after=seed % 50)
        seat = None if seed % 7 == 0 else seed % players
        view = state.view(seat)
        sampler = WorldSampler(view)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        worlds = []
        for _ in range(3):
            world = sampler.sample(rng_a)
            twin = sample_world(view, rng_b)  # the same draws of the generator, the same world
            assert world == twin
            assert world.remaining_deck == twin.remaining_deck
            assert world.view(seat) == view
            assert world.dish_totals() == [15] * 7 + [5]
            worlds.append(world)
        if not state.is_over:  # playing one world leaves the sampler and the others alone
            first = worlds[0]
            while not first.is_over:
                first.apply(first.legal_actions()[0])
            assert sampler.sample(random.Random(seed)).view(seat) == view
            assert worlds[1].view(seat) == view


def test_a_sampler_refuses_an_inconsistent_view() -> None:
    state = random_game(4, 4, stop_after=10)
    view = state.view(0)
    bad = dataclasses.replace(view, deck_size=view.deck_size + 1)
    with pytest.raises(SetupError, match="inconsistent"):
        WorldSampler(bad)


def test_sampled_hidden_cards_and_deck_follow_the_unseen_counts() -> None:
    # Every unseen card is equally likely to be any hidden draw or any deck position:
    # over many worlds, each dish turns up in proportion to its unseen count.
    state = random_game(11, 4, stop_after=30)
    while not state.is_over and sum(h.hidden for h in state.view(0).hands) < 3:
        state.apply(Action.parse("draw") if Action.parse("draw") in state.legal_actions()
                    else state.legal_actions()[0])
    view = state.view(0)
    dishes, dragons = unseen_cards(view)
    total = sum(dishes) + dragons
    sampler = WorldSampler(view)
    rng = random.Random(5)
    worlds = 6000
    hidden_seen = [0] * 7
    top_seen = [0] * 8
    for _ in range(worlds):
        world = sampler.sample(rng)
        for seat in (1, 2, 3):
            for dish, count in enumerate(world.draws(seat)):
                hidden_seen[dish] += count
        top_seen[world.remaining_deck[0]] += 1
    hidden_total = sum(hidden_seen)
    assert hidden_total == worlds * sum(view.hands[s].hidden for s in (1, 2, 3)) > 0
    for dish in range(7):  # hidden cards are never dragons (R7b)
        expected = dishes[dish] / sum(dishes)
        assert abs(hidden_seen[dish] / hidden_total - expected) < 0.02
    for card in range(8):
        expected = (dragons if card == 7 else dishes[card]) / total
        assert abs(top_seen[card] / worlds - expected) < 0.02


def test_the_last_round_is_known_from_the_deck_and_never_ends() -> None:
    """R4, R10: once the deck holds fewer than two cards a player no table follows the round
    under way; every seat's view and a spectator's agree, and it stays so to the end."""
    rng = random.Random(17)
    state = State.new(5, rng)
    marks = []
    while not state.is_over:
        views = [state.view(seat) for seat in (None, *range(5))]
        assert len({view.last_round for view in views}) == 1
        marks.append(views[0].last_round)
        assert views[0].last_round == (views[0].deck_size < 10)
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    assert not state.view(None).last_round  # over: no round under way
    first = marks.index(True)
    assert not any(marks[:first]) and all(marks[first:])
