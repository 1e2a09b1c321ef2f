"""Settled outcomes pinned where each way of getting them wrong shows (bots/settled.py; R4,
R5, R7-R12): hand-built positions and positions a search found, each with its exact expected
points and result, and each checked against every finish of the position (every card kind at
every draw, a dragon included, and every choice of every seat, in several deals of what the
mover cannot see), not against a few uniform random finishes.

``benchmarks/mutants.py`` names the bug each pin is there for."""

from __future__ import annotations

import random

import pytest

from finishes import Outcome, every_finish, with_unknown_deck
from kingsbreakfast.bots.settled import Settled, settle
from kingsbreakfast.engine import Action, State, sample_world

OTHERS_DRAW = (
    "kb1 3 f1 0 12 0 1 =4044 00002010 dd0e000 0001000.0000000/0200000.0000000/"
    "1000000.0000000 00f0afe.5.0 -"
)
"""Built by hand. 3 players, the last round (4 cards in the deck, R4), seat 1 to move and
seat 2 still to play; every dragon is gone (R8, R7a), every hand known. Seat 1 holds 2
cheese against the king's 13 (26 points, R11); seat 2 holds 1 bread against the king's 13
(13 points), and one of the deck's four cards is bread: if seat 2 draws it (R7) it has 26
points too with fewer discards and wins (R12). So seat 1's points are settled, its result is
not."""
TIE_BREAK = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000003.0000000/0200003.0000000/"
    "0020000.0000000 0000908.5.0 -"
)
"""Built by hand. Seat 2 moves last in the last round (5 cards left, R4, R10), every hand
known. Taking fruit serves the 3 ham to the king (R9): seat 2's 2 ham score 2 x 13 = 26 and
its 2 fruit are discarded (the king has none, R11); seats 0 and 1 also score 26 but discard 3
each, so seat 2 wins on the tie-break (R12), alone. Taking ham instead (5 ham against the
king's 10) wins outright with 50."""
HIDDEN_HANDS = (
    "kb1 3 f1 0 16 0 2 *0305442257656607456241210501622341015620014456334655403110164020311"
    "6203513024142573202654674651347363325231356+105 00030110 2233765 7103120.1120000/"
    "4311232.0200100/1451413.0010000 0132013.5.0 000,104,207,105,202,029,236,007,107,000,101,"
    "202,107,202,007,206,000,107,003,106,204,100,204,005,201,000,106,001,100,202,105,203,007,"
    "200,003,101,018,100,205,126,206,004,201,007,022,103,007,102"
)
"""Found by a search. Seat 2 ends the game by taking chicken with 55 points (R11); seats 0
and 1 hold 4 and 3 hidden drawn cards (R7): some deals of them beat 55, some do not."""
EQUAL_BEST = (
    "kb1 5 f1 0 10 4 3 *2565475110526264026400510231716173162352060604641253444533415133544"
    "6334364035201013252160012356722136424550067+101 00020004 3300031 3060360.0000000/"
    "0614013.0000000/3403206.0000000/3136601.0000000/1140223.0000010 0000000.0.0 002,101,"
    "204,306,400,106,200,304,402,005,201,300,402,005,103,303,405,002,101,206,404,000,102,206,"
    "301,005,101,203,304,407,101,206,303,405,004,204,302,401,005,103,302,406,005,103,200,406,"
    "002,105,201"
)
"""Found by a search. 5 players; seat 3 feeds the dragon a cheese and a cake (R8) and is left
with 12 points: the seat still to play can reach exactly 12, so the result is open."""
SERVED_EXACTLY = (
    "kb1 5 f1 0 10 4 4 *6317473600554424366542232503772120501643560153045146012543541224622"
    "5130614300031315030643275112620621356416546+107 12111130 0064202 5441021.0000000/"
    "2101320.0010001/4033020.0000010/0305403.0000000/1200302.1200010 1100152.5.0 000,104,203,"
    "306,407,103,202,304,406,005,205,303,407,002,107,310,407,000,101,207,436,003,100,232,301,"
    "034,105,203,301,404,104,202,306,400,001,200,303,407,001,107,334,401,006,104,205"
)
"""Found by a search. 5 players; seat 4 may take wine while dishes it holds lie on the table:
served to the king (R9) they may make its count of a dish reach the king's exactly, or a
dragon may eat from the king (R8), so its points are open."""

TWO_STILL_TO_PLAY = (
    "kb1 5 f1 0 10 4 1 *0530532151255366451355600424134162023071351346500670746622246301551"
    "6341122542547036202664310437404106341522613+108 12011100 6151014 0321210.0100100/"
    "2035400.0000001/4410000.0000020/2014222.0000000/0022346.0010100 0300142.5.0 001,100,202,"
    "303,407,104,207,303,405,001,200,302,406,003,104,320,402,005,103,200,403,034,107,108,236,"
    "306,007,102,207,304,406,103,201,305,407,004,232,300,403,004,107,316,404,007,103,201,406,002"
)
"""Found by a search. 5 players, the last round, cook 4: seat 1 takes bread with 37 points,
and seats 3 and 2 (the cook's right, R5) still play. What they take, and what the table then
serves the king (R9), decides whether one of them passes 37: the result is open. Counting
the table off the king's plate instead of onto it, or the wrong seats as still to play,
wrongly settles it as a win."""

LAST_DISH_TAKEN = (
    "kb1 3 f1 0 12 0 1 =4044 00002000 dd0e000 0001000.0000000/0200000.0000000/"
    "1000000.0000000 00f0aff.5.0 -"
)
"""Built by hand from OTHERS_DRAW, the wine gone: seat 1 takes the last dish on the table,
so the king's plate is final (R9), and every hand is known. Seat 2 still plays, and may draw
the deck's one bread (R7): 2 bread against the king's 13 tie seat 1's 26 with fewer
discards (R12). Every hand known and the plate final, the result is still open: a seat to
play is not a fixed hand."""
TWO_DRAWS_NEEDED = (
    "kb1 3 f1 0 12 0 1 =0044 00002000 cd0e000 0001000.0000000/0200000.0000000/"
    "1000000.0000000 00f0bff.5.0 -"
)
"""As LAST_DISH_TAKEN, one more bread in the deck and one less on the king's plate (12):
seat 2 draws once at most (R5, R7), so 2 bread score 24 at best, below seat 1's 26: a win.
Only two draws would have made 36."""

TAKE_TO_TIE = (
    "kb1 3 f1 0 12 0 1 =4446 10002000 dd0e000 0001000.0000000/0200000.0000000/"
    "1000000.0000000 00f0afe.5.0 -"
)
"""Built by hand: a bread on the table beside the fruit, none in the deck. Seat 1 takes
fruit (26 points, 2 discards); seat 2, still to play, holds 1 bread and may take the other
(R6): 2 bread against the king's 13 tie 26 with no discard and win (R12). If it leaves the
bread, the king is served it (R9) and seat 1 wins: the result is open."""

TIE_BREAK_LOST = (
    "kb1 3 f1 0 12 0 2 =44446 00302000 ddaf0f0 2000001.0000000/0200003.0000000/"
    "0020000.0000000 000090a.5.0 -"
)
"""TIE_BREAK with two of seat 0's discards gone: taking fruit still gives seat 2 26 points
and 2 discards, but seat 0 now has 26 with 1 discard and wins the tie-break (R12): a loss
that no bound proves (nobody passes 26), only the final hands."""


def outcomes(text: str, move: str, worlds: int) -> set[Outcome]:
    """Every (points, discards, R12 result) of the mover after ``move``: in ``worlds`` deals
    of the cards the mover cannot see, every finish (every card kind at each draw, every
    choice of every seat)."""
    state = State.from_text(text)
    mover = state.to_move
    assert mover is not None
    rng = random.Random(7)
    found: set[Outcome] = set()
    for _ in range(worlds):
        world = sample_world(state.view(mover), rng)
        world.apply(Action.parse(move))
        every = every_finish(with_unknown_deck(world), mover, cap=20_000)
        assert every is not None
        found |= every
    return found


@pytest.mark.parametrize(
    ("text", "move", "known"),
    [
        (OTHERS_DRAW, "take wine", Settled(26, 1, None)),
        (OTHERS_DRAW, "take fruit", Settled(26, 2, None)),
        (TIE_BREAK, "take fruit", Settled(26, 2, "win", 1.0)),
        (TIE_BREAK, "take ham", Settled(50, 0, "win")),
        (HIDDEN_HANDS, "take chicken", Settled(55, 14, None)),
        (EQUAL_BEST, "feed cheese cake", Settled(12, 15, None)),
        (SERVED_EXACTLY, "take wine", None),
        (TWO_STILL_TO_PLAY, "take bread", Settled(37, 9, None)),
        (LAST_DISH_TAKEN, "take fruit", Settled(26, 2, None)),
        (TWO_DRAWS_NEEDED, "take fruit", Settled(26, 2, "win")),
        (TAKE_TO_TIE, "take fruit", Settled(26, 2, None)),
        (TIE_BREAK_LOST, "take fruit", Settled(26, 2, "loss")),
    ],
)
def test_each_pinned_move_settles_to_its_known_value(
    text: str, move: str, known: Settled | None
) -> None:
    state = State.from_text(text)
    mover = state.to_move
    assert mover is not None
    assert settle(state.view(mover), Action.parse(move)) == known


@pytest.mark.parametrize(
    ("text", "move", "worlds", "results"),
    [
        (OTHERS_DRAW, "take wine", 1, {(26, 1, "win"), (26, 1, "loss")}),
        (TIE_BREAK, "take fruit", 1, {(26, 2, "win")}),
        (TIE_BREAK, "take ham", 1, {(50, 0, "win")}),
        (HIDDEN_HANDS, "take chicken", 20, {(55, 14, "win"), (55, 14, "loss")}),
        (EQUAL_BEST, "feed cheese cake", 10, {(12, 15, "win"), (12, 15, "loss")}),
        (TWO_STILL_TO_PLAY, "take bread", 3, {(37, 9, "win"), (37, 9, "loss")}),
        (LAST_DISH_TAKEN, "take fruit", 1, {(26, 2, "win"), (26, 2, "loss")}),
        (TWO_DRAWS_NEEDED, "take fruit", 1, {(26, 2, "win")}),
        (TAKE_TO_TIE, "take fruit", 1, {(26, 2, "win"), (26, 2, "loss")}),
        (TIE_BREAK_LOST, "take fruit", 1, {(26, 2, "loss")}),
    ],
)
def test_the_pinned_values_are_what_every_finish_gives(
    text: str, move: str, worlds: int, results: set[Outcome]
) -> None:
    """The oracle for the pins above, independent of settle: where a result is settled every
    finish gives it; where it is left open, finishes do give both a win and a loss."""
    assert outcomes(text, move, worlds) == results


def test_a_move_whose_points_are_left_open_does_end_with_other_points() -> None:
    """SERVED_EXACTLY: the mover's points are not settled, and two finishes do differ."""
    assert len({points for points, _, _ in outcomes(SERVED_EXACTLY, "take wine", 1)}) > 1


def test_nothing_is_settled_before_the_last_round() -> None:
    """While the deck can set another table (R4) the mover plays again: no move is settled,
    whatever the rest of the position (random games, every seat count, R2)."""
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = State.new(3 + seed % 3, rng)
        while not state.is_over and not state.view(None).last_round:
            view = state.view(state.to_move)
            for action in view.legal_actions():
                assert settle(view, action) is None
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000
