"""The lesson's end: the scoring told to the learner dish by dish (R10-R12), what the
lesson says once the game is over, and the bots' plain play after the taught rounds."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.engine import DRAW_ID, PLACE_DRAGON_ID, Action, State, View
from kingsbreakfast.i18n import LANGUAGES, _, language
from kingsbreakfast.i18n.words import dish_name
from kingsbreakfast.lesson import LEARNER, STEPS, LessonGame, scoring_lines
from kingsbreakfast.lesson.course import Lesson
from kingsbreakfast.lesson.script import WINE_TAKER, plain_choice


def finished(dragon: str) -> LessonGame:
    """The lesson played with each step's own move (``dragon`` for the drawn dragon), then
    draws or the first legal move to the end."""
    game = LessonGame("You")
    while not game.over:
        step = game.lesson.step
        assert step is not None
        move = Action.parse(dragon) if step.key == "dragon" else step.example
        if move not in game.view().legal_actions():
            move = game.view().legal_actions()[0]
        assert game.offer(move) is None
    return game


@pytest.mark.parametrize("dragon", ["place_dragon", "feed cheese cheese", "feed cake cake"])
def test_the_scoring_names_each_held_dish_its_points_and_the_winner(dragon: str) -> None:
    """R11 worked out here from the hands and the king's plate: a dish held no more than
    the king scores held x king, one held more scores 0; R12: most points wins."""
    game = finished(dragon)
    view = game.view()
    hands = [hand.cards for hand in view.hands]
    assert all(hand is not None for hand in hands)  # every hand is shown at the end (R11)
    points = [0] * len(hands)
    expected = []
    for seat, hand in enumerate(hands):
        assert hand is not None
        for dish, held in enumerate(hand):
            king = view.king[dish]
            scored = held * king if held <= king else 0
            points[seat] += scored
            if seat != LEARNER or not held:
                continue
            if held > king:
                expected.append(f"{dish_name(dish)}: you hold {held}, the king {king}: "
                                "more than the king, 0 points.")
            else:
                word = "point" if scored == 1 else "points"
                expected.append(f"{dish_name(dish)}: you hold {held}, the king {king}: "
                                f"{held} × {king} = {scored} {word}.")
    with language("en"):
        lines = scoring_lines(view, game.names)
    assert "could not turn up 8 cards" in lines[0]
    assert lines[1:-2] == expected
    assert lines[-2] == f"You score {points[LEARNER]} points."
    best = max(points)
    if points[LEARNER] == best and points.count(best) == 1:
        assert lines[-1].startswith("You win!")
    elif points.count(best) == 1:
        assert lines[-1].startswith(f"{game.names[points.index(best)]} won:")
    assert ("You win!" in lines[-1]) == (LEARNER in view.score().winners)  # type: ignore[union-attr]


def test_a_game_not_over_has_no_scoring_and_a_game_over_refuses_every_move() -> None:
    game = LessonGame("You")
    assert scoring_lines(game.view(), game.names) == []
    game = finished("place_dragon")
    with language("en"):
        for action in (Action(DRAW_ID), Action.parse("take ham")):
            assert game.offer(action) == "the game is over (R10)"
        assert game.lesson.title() == "The end and the scoring"
        assert game.lesson.text() == ""
    assert game.lesson.number == len(STEPS)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_move_after_the_end_is_refused_in_the_learner_s_language(code: str) -> None:
    """R10: once the game is over no move is played, and the learner reads why in the
    language of the lesson (the catalogue's words for the game_over code), not the engine's
    English."""
    game = finished("place_dragon")
    with language(code):
        told = game.offer(Action(DRAW_ID))
        assert told == _("the game is over (R10)")
    assert (told == "the game is over (R10)") == (code == "en")


def test_the_lesson_chooses_moves_for_the_bots_only() -> None:
    """The learner's seat (0, the first cook, R2) moves by the learner's own choice: asking
    the lesson for its move, or for a spectator's, is a front's mistake and fails loudly
    instead of quietly playing for the learner."""
    game = LessonGame("You")
    for seat in (LEARNER, None):
        with pytest.raises(AssertionError):
            game.lesson.bot_move(game.state.view(seat))


def test_each_step_s_title_and_text_are_its_own_with_the_bot_named() -> None:
    lesson = Lesson(("You", "Bob", "Cid", "Dee"))
    with language("en"):
        for number, step in enumerate(STEPS, start=1):
            assert lesson.number == number and lesson.total() == len(STEPS)
            assert lesson.title() == step.title
            assert lesson.text() == step.text.format(name=lesson.names[WINE_TAKER])
            lesson.index += 1
    assert "Dee" in STEPS[3].text.format(name="Dee")


def test_a_refused_move_is_told_what_the_step_waits_for() -> None:
    lesson = Lesson(("You", "Bob", "Cid", "Dee"))
    with language("en"):
        assert lesson.judge(Action(DRAW_ID)) == (
            "Not quite: the lesson waits for one move here. Take the cheese.")
        assert lesson.judge(Action.parse("take cheese")) is None


def test_after_the_taught_rounds_a_bot_places_draws_takes_the_biggest_else_the_first() -> None:
    """plain_choice from views of random games: R7a a drawn dragon is placed, R7 a draw
    while the deck has cards, else the dish with the most cards on the table (R6), else
    the first legal move (a feed, R8, or a pass, R5b)."""
    kinds = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = State.new(4, rng)
        while not state.is_over:
            view = state.view(state.to_move)
            legal = view.legal_actions()
            chosen = plain_choice(view)
            takes = [a for a in legal if a.kind == "take"]
            if view.pending_dragon:
                expected = {Action(PLACE_DRAGON_ID)}
            elif Action(DRAW_ID) in legal:
                expected = {Action(DRAW_ID)}
            elif takes:
                most = max(view.table[a.dish or 0] for a in takes)
                expected = {a for a in takes if view.table[a.dish or 0] == most}
            else:
                expected = {legal[0]}
            assert chosen in expected, (seed, str(chosen))
            kinds.add(chosen.kind)
            state.apply(legal[rng.randrange(len(legal))])
    assert {"place_dragon", "draw", "take"} <= kinds


def random_endings() -> list[tuple[View, tuple[str, ...]]]:
    """Finished games of four played at random: discarded dishes, wins and losses."""
    endings: list[tuple[View, tuple[str, ...]]] = []
    for seed in range(12):
        rng = random.Random(seed)
        state = State.new(4, rng)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        endings.append((state.view(LEARNER), ("You", "Bob", "Cid", "Dee")))
    return endings


def test_the_scoring_of_any_ending_tells_discards_points_and_winners() -> None:
    told_discard = told_loss = 0
    for view, names in random_endings():
        hand = view.hands[LEARNER].cards
        assert hand is not None
        scoring = view.score()
        assert scoring is not None
        with language("en"):
            lines = scoring_lines(view, names)
        dish_lines = [line for line in lines[1:-2]]
        held = [(dish, count) for dish, count in enumerate(hand) if count]
        assert len(dish_lines) == len(held)
        for (dish, count), line in zip(held, dish_lines, strict=True):
            king = view.king[dish]
            head = f"{dish_name(dish)}: you hold {count}, the king {king}: "
            if count > king:
                told_discard += 1
                assert line == head + "more than the king, 0 points."
            else:
                word = "point" if count * king == 1 else "points"
                assert line == head + f"{count} × {king} = {count * king} {word}."
        total = scoring.points[LEARNER]
        assert lines[-2] == f"You score {total} point{'s' if total != 1 else ''}."
        if LEARNER in scoring.winners:
            assert lines[-1].startswith("You win!")
        else:
            told_loss += 1
            winners = ", ".join(names[seat] for seat in scoring.winners)
            assert lines[-1] == (f"{winners} won: most points wins; on equal points, fewer "
                                 "discarded cards.")
    assert told_discard and told_loss


def position(table: list[int], dragons: int) -> State:
    """Seat 1 to move in the last round of four with an empty deck (R4, R10): ``table``
    and ``dragons`` lie on the table, every other card is on the king's plate (R9) or, for
    the dragons, fed (R8); no hand holds a card."""
    king = [15 - count for count in table]
    hexa = "0123456789abcdef"
    return State.from_text(
        f"kb1 4 f1 0 10 0 1 = {''.join(hexa[c] for c in table)}{dragons} "
        f"{''.join(hexa[c] for c in king)} {'/'.join(['0000000.0000000'] * 4)} "
        f"0000000.{5 - dragons}.0 -"
    )


def test_with_the_deck_empty_a_bot_takes_the_biggest_dish_else_its_first_choice() -> None:
    view = position([1, 3, 0, 0, 0, 0, 0], 0).view(1)
    assert plain_choice(view) == Action.take(1)  # 3 cards beat 1 (R6)
    view = position([0] * 7, 1).view(1)
    legal = view.legal_actions()
    assert len(legal) > 1 and Action(DRAW_ID) not in legal
    assert plain_choice(view) == legal[0]  # a feed (R8): the first the rules list


def test_a_new_lesson_game_has_no_bot_turns_yet() -> None:
    """The learner is the first cook and moves first (R2, R5): no bot has played yet."""
    assert LessonGame("You").bot_turns == []


def test_one_point_is_told_in_the_singular_and_a_shared_win_names_every_winner() -> None:
    """A finished position (R10) written as text: the learner holds 1 of dish 0 and the
    king 1 (1 × 1 = 1 point, R11); Bob and Cid hold 2 of a dish the king has 3 of, 6 points
    each and no discard: they share the win (R12)."""
    king = [1, 3, 3, 0, 0, 0, 0]
    takes = [[1, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0, 0], [0] * 7]
    removed = [15 - k - sum(t[d] for t in takes) for d, k in enumerate(king)]
    hexa = "0123456789abcdef"

    def counts(values: list[int]) -> str:
        return "".join(hexa[v] for v in values)

    state = State.from_text(
        f"kb1 4 f1 0 12 0 - = 00000000 {counts(king)} "
        + "/".join(f"{counts(t)}.0000000" for t in takes)
        + f" {counts(removed)}.5.0 -"
    )
    with language("en"):
        lines = scoring_lines(state.view(LEARNER), ("You", "Bob", "Cid", "Dee"))
    assert lines == [
        "The cook could not turn up 8 cards, so the game is over. Every hand is shown: each "
        "card scores as many points as the king has of its dish, and a dish a player holds "
        "more of than the king scores nothing.",
        f"{dish_name(0)}: you hold 1, the king 1: 1 × 1 = 1 point.",
        "You score 1 point.",
        "Bob, Cid won: most points wins; on equal points, fewer discarded cards.",
    ]


def test_the_bots_turns_after_a_learner_s_move_are_the_script_s() -> None:
    """The script: in round 1 Bob takes ham, Cid draws, Dee takes bread; in round 2, Bob
    cooking, Bob takes ham, Cid chicken, Dee draws, and the learner is to move (R3, R5-R7)."""
    game = LessonGame("You")
    assert game.offer(Action.take("cheese")) is None
    assert game.bot_turns == [
        (1, Action.take("ham")), (2, Action(DRAW_ID)), (3, Action.take("bread")),
        (1, Action.take("ham")), (2, Action.take("chicken")), (3, Action(DRAW_ID)),
    ]
