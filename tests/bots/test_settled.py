"""Settled outcomes: a move's exact points and result, only when no hidden card and no later
move can change them (bots/settled.py; R4, R7-R12)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finishes import Outcome, dragon_finishes, every_finish, with_unknown_deck
from kingsbreakfast.bots.settled import Settled, settle
from kingsbreakfast.engine import Action, State, sample_world


def last_round(seed: int, players: int, extra: int) -> State | None:
    """A random game, played at random into its last round (the deck below 2 x players,
    R4), then ``extra`` turns more; None when it ended first."""
    rng = random.Random(seed)
    state = State.new(players, rng)
    while not state.is_over and state.view(None).deck_size >= 2 * players:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for _ in range(extra):
        if state.is_over:
            return None
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return None if state.is_over else state


def outcomes_of(state: State, action: Action, worlds: int, rng: random.Random) -> set[Outcome]:
    """What ``action`` can still lead to for the mover: in ``worlds`` deals of the cards the
    mover cannot see, every finish (each card kind at each draw, dragons included, R7a, R8;
    every choice of every seat), or where that tree is too large, finishes that draw and
    feed dragons whenever they can."""
    mover = state.to_move
    assert mover is not None
    view = state.view(mover)
    found: set[Outcome] = set()
    for _ in range(worlds):
        world = sample_world(view, rng)
        world.apply(action)
        open_deck = with_unknown_deck(world)
        every = every_finish(open_deck, mover, cap=4000)
        found |= every if every is not None else dragon_finishes(open_deck, mover, rng, 60)
    return found


def completions_agree(state: State, worlds: int, rng: random.Random) -> int:
    """Check every settled action of the mover against the finishes that matter (above).
    Returns how many actions were settled."""
    mover = state.to_move
    view = state.view(mover)
    settled_count = 0
    for action in view.legal_actions():
        settled = settle(view, action)
        if settled is None:
            continue
        settled_count += 1
        for points, discarded, result in outcomes_of(state, action, worlds, rng):
            assert points == settled.points, action
            assert discarded == settled.discarded, action
            if settled.result is not None:
                assert result == settled.result, action
    return settled_count


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(2, 10**6),
    players=st.sampled_from([3, 4, 5]),
    extra=st.integers(0, 5),
)
def test_a_settled_row_is_what_every_completion_gives(seed: int, players: int, extra: int) -> None:
    state = last_round(seed, players, extra)
    if state is None:
        return
    completions_agree(state, 2, random.Random(seed + 1))


def test_settled_moves_are_found_and_both_kinds_of_result_occur() -> None:
    """Over many last rounds some moves are settled, with wins and losses among them: the
    property above is about something."""
    settled = 0
    results: set[str | None] = set()
    for seed in range(2, 160):
        state = last_round(seed, 3 + seed % 3, seed % 4)
        if state is None:
            continue
        settled += completions_agree(state, 1, random.Random(seed))
        view = state.view(state.to_move)
        results |= {s.result for a in view.legal_actions() if (s := settle(view, a))}
    assert settled >= 50
    assert {"win", "loss"} <= results


def test_a_draw_is_never_settled_and_other_seats_do_not_see_the_mover_s_draws() -> None:
    """R7: the drawn card is unseen; a view without the mover's drawn cards settles nothing
    that depends on them (a spectator's view here)."""
    for seed in range(2, 200):
        state = last_round(seed, 4, seed % 4)
        if state is None:
            continue
        mover = state.to_move
        own = state.view(mover)
        spectator = state.view(None)
        for action in own.legal_actions():
            if action.kind == "draw":
                assert settle(own, action) is None
            if own.hands[mover].hidden:
                assert settle(spectator, action) is None


# Positions pinned as text (State.to_text), each with what the move is known to give.
DRAGON_STILL_DRAWN = (
    "kb1 5 f1 0 10 4 4 *5704507402243255103313152346526431066517176324625133500304020615264"
    "4226506051461443031132663123542406105421567+107 22202110 0414254 1103203.0100010/"
    "b020011.0100000/1004331.0001000/0310513.0000000/0341000.0021000 0031121.4.0 004,100,205,"
    "302,407,100,204,301,407,003,207,325,403,001,107,306,426,024,100,205,429,000,102,206,304,"
    "006,100,203,304,407,100,204,305,402,007,200,304,401,007,106,301,402,006,105,203"
)
"""5 players, the last round, no dragon on the table but one of the deck's three cards may
be a dragon (R7a): the seat that draws it may feed it cheese (R8), so taking cheese may end
with 8, 6 or 4 points."""
SHARED = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
    "0020100.0000000 0000808.5.0 -"
)
"""Seat 2 moves last in the last round (5 cards left, R4, R10), every hand is known: taking
fruit serves the ham to the king (R9), and all three seats end with 26 points and 3
discards, a three-way shared win (R12); taking ham wins outright."""
LOSS = (
    "kb1 4 f1 0 12 3 2 *4634715257656645424516423120605040043356412645144752701661661332273"
    "3146123156213304500150523531052062030230412+107 30310000 3413466 4460030.0001101/"
    "0102044.2001100/1034201.1000000/1301111.0011001 0201511.5.0 005,103,202,301,107,233,307,"
    "007,207,307,002,132,305,000,103,204,002,105,203,301,128,231,301,002,200,307,001,106,316,"
    "007,101,202,002,107,206,303,107,203,304,005,203,300,001,105,306,007,107"
)
WIN = (
    "kb1 3 f1 0 17 1 0 *4254106734540512602151651061637040431230243234505636001357222026150"
    "4560620634232355066764134615554241133731241+109 00121000 4447232 4413331.1000001/"
    "1070545.0100000/4402213.0011101 1110142.5.0 001,104,205,106,203,004,207,025,107,001,105,"
    "200,114,200,003,204,001,102,003,100,207,104,200,006,203,000,106,036,102,200,105,206,007,"
    "207,000,106,007,102,207,120,206,004,201,005,106,002,104,201,132,201"
)


@pytest.mark.parametrize(
    ("text", "move", "known"),
    [
        (DRAGON_STILL_DRAWN, "take cheese", None),
        (SHARED, "take fruit", Settled(26, 3, "shared", 1 / 3)),
        (SHARED, "take ham", Settled(52, 0, "win")),
        (LOSS, "take bread", Settled(42, 5, "loss")),
        (WIN, "take chicken", Settled(78, 5, "win")),
    ],
)
def test_pinned_positions_settle_to_what_every_finish_gives(
    text: str, move: str, known: Settled | None
) -> None:
    """Each pinned move settles to its known value, and every finish of the position (every
    deal of the unseen cards tried, every card at every draw, every choice) agrees; where
    nothing is settled, the finishes do differ."""
    state = State.from_text(text)
    mover = state.to_move
    assert mover is not None
    action = Action.parse(move)
    assert settle(state.view(mover), action) == known
    finishes = outcomes_of(state, action, 3, random.Random(1))
    if known is None:
        assert len({points for points, _, _ in finishes}) > 1
    else:
        assert finishes == {(known.points, known.discarded, known.result)}


def test_a_mover_with_no_drawn_card_is_settled_alike_from_any_view() -> None:
    """A mover who drew nothing (R7) hides nothing: a spectator's view of it settles every
    move exactly as the mover's own view does."""
    compared = 0
    for seed in range(2, 120):
        state = last_round(seed, 3 + seed % 3, seed % 4)
        if state is None or state.is_chance:
            continue
        mover = state.to_move
        own = state.view(mover)
        if own.hands[mover].hidden:
            continue
        spectator = state.view(None)
        for action in own.legal_actions():
            settled = settle(own, action)
            assert settle(spectator, action) == settled
            compared += settled is not None
    assert compared >= 5
