"""Invariants over thousands of random games (hypothesis): card conservation, legality,
record round trips and hidden-information safety."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.engine import (
    ALL_ACTIONS,
    IllegalActionError,
    Record,
    Rules,
    State,
    outcome,
    read_record,
)
from kingsbreakfast.engine.cards import DRAGON

ALL_RULES = [Rules(e, d) for e in ("draw_or_feed", "must_draw") for d in (1, 2)]

games = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=3, max_value=5),
    st.sampled_from(ALL_RULES),
    st.integers(min_value=0, max_value=4),
)

FAST = settings(
    max_examples=examples(1200), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_conservation(state: State) -> None:
    assert state.dish_totals() == [15] * 7 + [5]
    counts = state.card_counts()
    assert counts["unaccounted"] == 0
    assert sum(v for k, v in counts.items() if k != "unaccounted") == 110


@FAST
@given(games)
def test_cards_are_conserved_and_every_legal_action_applies(game: tuple) -> None:  # type: ignore[type-arg]
    seed, players, rules, first_cook = game
    rng = random.Random(seed)
    state = State.new(players, rng, first_cook % players, rules)
    check_conservation(state)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "a player always has something to do (R5b: at worst, pass)"
        assert list(legal) == sorted(set(legal))
        if steps % 7 == 0:  # every legal action really applies, on a copy
            for action in legal:
                trial = state.clone()
                trial.play(action)
                check_conservation(trial)
        if steps % 5 == 0:  # an illegal action is refused and changes nothing
            illegal = [a for a in ALL_ACTIONS if a not in legal]
            action = illegal[rng.randrange(len(illegal))]
            before = state.clone()
            try:
                state.play(action)
            except IllegalActionError as error:
                assert error.code and str(error)
            else:
                raise AssertionError(f"{action} was played though not legal")
            assert state == before
        state.play(legal[rng.randrange(len(legal))])
        check_conservation(state)
        steps += 1
    assert state.legal_actions() == ()
    assert state.deck_size == 0
    assert state.removed_unseen < 2 * players


@settings(max_examples=examples(300), deadline=None)
@given(games)
def test_a_written_record_replays_the_same_game(game: tuple) -> None:  # type: ignore[type-arg]
    seed, players, rules, stop = game
    rng = random.Random(seed)
    state = State.new(players, rng, 0, rules)
    limit = None if stop == 0 else stop * 12
    steps = 0
    while not state.is_over and (limit is None or steps < limit):
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
        steps += 1
    names = [f"p{seat}" for seat in range(players)]
    text = Record.from_state(state, names).to_json()
    again = read_record(json.loads(text)).replay()
    assert again == state
    assert outcome(again) == outcome(state)


def hide_from(seat: int, deck: tuple[int, ...], state: State, rng: random.Random) -> list[int]:
    """Another deck that differs from ``deck`` only in cards ``seat`` has not seen at this
    point of ``state``'s game: the other seats' drawn dish cards and the undealt deck."""
    replayed = State(deck, state.num_players, state.first_cook, state.rules)
    hidden_draws: list[int] = []
    for turn in state.history:
        position = len(deck) - replayed.deck_size
        replayed.play(turn.action)
        if turn.action.kind == "draw" and turn.seat != seat and not replayed.pending_dragon:
            hidden_draws.append(position)
    undealt = list(range(len(deck) - state.deck_size, len(deck)))
    cards = [deck[p] for p in hidden_draws + undealt]
    dishes = [c for c in cards if c != DRAGON]
    rng.shuffle(dishes)
    new_draws, dishes = dishes[: len(hidden_draws)], dishes[len(hidden_draws) :]
    rest = dishes + [c for c in cards if c == DRAGON]
    rng.shuffle(rest)
    other = list(deck)
    for position, card in zip(hidden_draws + undealt, new_draws + rest, strict=True):
        other[position] = card
    return other


@settings(max_examples=examples(400), deadline=None)
@given(games, st.integers(min_value=0, max_value=4))
def test_no_view_changes_when_only_hidden_cards_differ(game: tuple, viewer: int) -> None:  # type: ignore[type-arg]
    seed, players, rules, _ = game
    rng = random.Random(seed)
    state = State.new(players, rng, 0, rules)
    stop = rng.randrange(1, 70)
    while not state.is_over and len(state.history) < stop:
        legal = state.legal_actions()
        state.play(legal[rng.randrange(len(legal))])
    if state.is_over:  # at the end every hand is shown: nothing is hidden any more
        return
    seat = viewer % players
    other_deck = hide_from(seat, state.initial_deck, state, rng)
    other = State(other_deck, players, 0, rules)
    for turn in state.history:
        other.play(turn.action)  # the same decisions stay legal: legality is public
    for viewer_seat in (seat, None):
        mine, theirs = state.view(viewer_seat), other.view(viewer_seat)
        assert mine == theirs
        assert repr(mine) == repr(theirs)
        assert json.dumps(mine.to_dict()) == json.dumps(theirs.to_dict())
