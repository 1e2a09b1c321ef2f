"""Seating, the watcher of the screen, and what bots are allowed to see."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest
from tui_helpers import seats

from kingsbreakfast.engine import Action, RecordError, State, View
from kingsbreakfast.narrate import DEFAULT_NAMES
from kingsbreakfast.tui import session
from kingsbreakfast.tui.session import (
    Game,
    Seat,
    SeatingError,
    Watcher,
    plan_seats,
    seats_from_tag,
)
from rigging import rigged_deck


def test_plan_seats_puts_humans_from_their_seat_and_bots_elsewhere() -> None:
    plan = plan_seats(5, ["easy", "hard", "expert"], seat=4, humans=2, names=["Zoe"])
    assert [s.bot for s in plan] == [None, "easy", "hard", "expert", None]
    assert plan[4].name == "Zoe" and plan[0].name == DEFAULT_NAMES[0]  # one set of names
    assert plan_seats(4, [], 0, 1)[1].bot == "medium"  # the default level
    assert plan_seats(4, ["random"], 0, 1)[3].bot == "random"  # one name for all bots
    assert plan_seats(3, [], 0, 1)[0].name == "Ann"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((6, [], 0, 1), "3 to 5 players"),
        ((4, [], 4, 1), "--seat must be from 0 to 3"),
        ((4, [], 0, 5), "--hotseat must be from 0 to 4"),
        ((4, ["easy", "hard"], 0, 1), "2 bots named for 3 bot seats"),
    ],
)
def test_bad_seating_is_refused_with_a_reason(args: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SeatingError, match=message):
        plan_seats(*args)


def test_seats_tag_round_trip_and_bad_tags() -> None:
    plan = [Seat("Ann"), Seat("Bob", "easy"), Seat("Cid", "expert")]
    tag = [s.to_tag() for s in plan]
    assert seats_from_tag(tag, ["Ann", "Bob", "Cid"]) == plan
    assert seats_from_tag(None, ["Ann", "Bob", "Cid"])[0].is_human
    with pytest.raises(RecordError, match="neither a human nor a bot"):
        seats_from_tag([{"kind": "alien"}] * 3, ["Ann", "Bob", "Cid"])
    with pytest.raises(RecordError, match="one"):
        seats_from_tag("humans", ["Ann", "Bob", "Cid"])


class SpyBot:
    """Records what it is given; plays the first legal action."""

    name = "spy"
    seen: ClassVar[list[object]] = []

    def act(self, view: View, rng: random.Random) -> Action:
        SpyBot.seen.append(view)
        return view.legal_actions()[0]


def test_bots_receive_only_their_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "make_opponent", lambda name: SpyBot())
    SpyBot.seen = []
    game = Game.new(seats("spy", "spy", "spy", "spy"), seed=3)
    while not game.is_over:
        mover = game.to_move
        game.play(game.bot_choice())
        view = SpyBot.seen[-1]
        assert isinstance(view, View) and view.seat == mover
        for seat, hand in enumerate(view.hands):
            assert (hand.draws is None) == (seat != mover)
    assert len(SpyBot.seen) == len(game.state.history)


def test_the_log_keeps_draws_private_to_the_drawer() -> None:
    game = Game(State(rigged_deck(*["bread"] * 6, "wine"), 3, 0),
                tuple(seats(None, "random", "random")), random.Random(0))
    game.play(Action.parse("draw"))
    assert "Ann draws a card (wine)." in game.log_lines(0)
    assert "Ann draws a card." in game.log_lines(1)
    assert "Ann draws a card." in game.log_lines(None)


def test_the_watcher_hands_over_only_between_different_humans() -> None:
    game = Game(State(rigged_deck(*["bread"] * 6, "wine", "ham"), 3, 0),
                tuple(seats(None, None, "random")), random.Random(0))
    watcher = Watcher(game)
    assert watcher.hotseat and watcher.seat is None
    assert watcher.handover_to() == 0  # even the first human is handed the keyboard
    watcher.take_over(0)
    game.play(Action.parse("draw"))
    watcher.after_move()
    assert watcher.seat is None  # Ann's turn is over: only public facts on screen
    assert watcher.handover_to() == 1
    watcher.take_over(1)
    game.play(Action.parse("draw"))
    watcher.after_move()
    game.play(game.bot_choice())  # Cid ends the round; Bob (seat 1) is the next cook
    watcher.after_move()
    assert game.to_move == 1
    assert watcher.handover_to() is None and watcher.seat == 1  # Bob saw it last


def test_a_lone_human_always_sees_their_own_view() -> None:
    game = Game.new(seats("random", None, "random"), seed=1)
    watcher = Watcher(game)
    assert not watcher.hotseat and watcher.seat == 1
    while not game.is_over:
        assert watcher.handover_to() is None
        game.play(game.state.legal_actions()[0])
        watcher.after_move()
        assert watcher.seat == 1
