"""The lesson's game is a real, legal game that reaches every step in order (docs/rules.md
R1–R12), and its deal really produces what the steps say."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.engine import (
    CARD_IDS,
    DISHES,
    DRAW_ID,
    NUM_ACTIONS,
    PLACE_DRAGON_ID,
    Action,
    Record,
    State,
    replay,
)
from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.lesson import (
    LEARNER,
    STEPS,
    LessonGame,
    lesson_deck,
    lesson_record,
    scoring_lines,
)


def _counts(cards: dict[str, int]) -> dict[str, int]:
    return {dish: count for dish, count in cards.items() if count}


def play_through(dragon: Action) -> tuple[LessonGame, list[str]]:
    """Every step's example move (``dragon`` for the drawn dragon), then draws to the end."""
    game = LessonGame("You")
    seen: list[str] = []
    while not game.over:
        step = game.lesson.step
        assert step is not None
        if not seen or seen[-1] != step.key:
            seen.append(step.key)
        move = dragon if step.key == "dragon" else step.example
        if move not in game.view().legal_actions():
            move = game.view().legal_actions()[0]
            assert step.to_the_end
        assert game.offer(move) is None
    assert game.lesson.step is None
    return game, seen


def test_the_deck_is_a_whole_deck_of_r1() -> None:
    deck = lesson_deck()
    assert len(deck) == 110
    assert all(deck.count(dish) == 15 for dish in DISHES)
    assert deck.count("dragon") == 5
    State(deck, 4)  # the engine's own check of a deck (R1) passes


@pytest.mark.parametrize("dragon", ["place_dragon", "feed cheese cheese", "feed cake cake"])
def test_the_lesson_reaches_every_step_in_order_and_ends(dragon: str) -> None:
    game, seen = play_through(Action.parse(dragon))
    assert seen == [step.key for step in STEPS]
    # the game is a legal game of the engine: its record replays to the same end (R10)
    record = Record.from_state(game.state, list(game.names))
    assert replay(record.to_dict()) == game.state
    assert game.state.is_over


def test_the_deal_produces_what_the_steps_say() -> None:
    game = LessonGame("You")
    view = game.view()
    # R4, R6: round 1, the learner cooks, 8 cards, 3 cheese to take
    assert (game.lesson.step.key, view.round, view.cook, view.to_move) == ("take", 1, 0, 0)
    assert sum(view.table) == 8 and view.table[DISHES.index("cheese")] == 3
    game.offer(Action.parse("take cheese"))
    # R7: the draw brings a fourth cheese, seen by the learner alone (R7b)
    game.offer(Action(DRAW_ID))
    view = game.view()
    assert view.hands[LEARNER].takes[DISHES.index("cheese")] == 3
    assert view.hands[LEARNER].draws is not None
    assert view.hands[LEARNER].draws[DISHES.index("cheese")] == 1
    assert game.state.view(1).hands[LEARNER].draws is None
    # R9: the king holds 3 wine, 2 cake, 1 cheese; 3 cheese lie on the table
    assert game.lesson.step.key == "king"
    assert _counts(view.to_dict()["king"]) == {"cheese": 1, "cake": 2, "wine": 3}
    assert view.table[DISHES.index("cheese")] == 3 and view.table[DISHES.index("fruit")] == 1
    game.offer(Action.parse("take fruit"))
    # R8: a dragon on the table, Dee just took 2 wine, the king holds 3 wine
    view = game.view()
    assert game.lesson.step.key == "feed"
    assert view.table_dragons == 1 and view.king[DISHES.index("wine")] == 3
    assert view.hands[3].takes[DISHES.index("wine")] == 2
    assert view.history[-1].seat == 3 and str(view.history[-1].action) == "take wine"
    game.offer(Action.parse("feed wine wine"))
    assert game.view().hands[3].takes[DISHES.index("wine")] > game.view().king[
        DISHES.index("wine")
    ]
    # R7a: the learner cooks round 5 and the draw turns up a dragon
    view = game.view()
    assert (game.lesson.step.key, view.round, view.cook) == ("dragon_draw", 5, LEARNER)
    game.offer(Action(DRAW_ID))
    view = game.view()
    assert game.lesson.step.key == "dragon" and view.pending_dragon
    assert game.state.initial_deck.count(CARD_IDS.index("dragon")) == 5


def test_a_move_the_step_does_not_ask_for_is_refused_kindly_and_changes_nothing() -> None:
    game = LessonGame("You")
    before = game.state.clone()
    word = game.offer(Action(DRAW_ID))  # legal in the game, not what step 1 asks
    assert word is not None and "Take the cheese." in word
    assert game.state == before and game.lesson.step is STEPS[0]
    illegal = game.offer(Action.parse("take fruit"))  # no fruit on the table (R6)
    assert illegal is not None and "fruit" in illegal
    assert game.state == before


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_step_and_the_scoring_speak_each_language(code: str) -> None:
    game, _ = play_through(Action(PLACE_DRAGON_ID))
    with language(code):
        lines = scoring_lines(game.view(), game.names)
        assert len(lines) >= 3
        fresh = LessonGame("You")
        for step in STEPS:
            fresh.lesson.index = STEPS.index(step)
            assert fresh.lesson.text() and fresh.lesson.title()
            if code != "en":
                assert fresh.lesson.text() != step.text.format(name="Dee")
                assert fresh.lesson.judge(Action.parse("pass")) != (
                    f"Not quite: the lesson waits for one move here. {step.task}"
                ) or step.to_the_end


def test_the_lesson_record_names_its_deck() -> None:
    record = lesson_record(("You", "Bob", "Cid", "Dee"))
    assert record.deck is not None and record.seed is None
    assert [CARD_IDS[c] for c in record.deck] == list(lesson_deck())


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(min_value=-1, max_value=NUM_ACTIONS - 1), max_size=150))
def test_any_move_is_played_only_when_the_rules_and_the_step_allow_it(tries: list[int]) -> None:
    """Whatever the learner tries (every action id, R5–R8; -1 stands for the step's own
    move), a move is played exactly when it is legal (the engine's) and the step accepts it;
    otherwise nothing changes. The steps go forward one at a time, never back, and the
    learner is to move whenever the game is on."""
    game = LessonGame()
    last = 0
    for number in tries:
        if game.over:
            break
        step = game.lesson.step
        assert step is not None and game.state.to_move == LEARNER
        legal = game.state.legal_actions()
        action = Action(number) if number >= 0 else (
            step.example if step.example in legal else legal[0])
        before = game.state.clone()
        wanted = before.is_legal(action) and step.accepts(action)
        word = game.offer(action)
        assert (word is None) == wanted
        if word is not None:
            assert game.state == before and game.lesson.step is step
        assert last <= game.lesson.index <= last + 1 or game.over
        last = game.lesson.index


def _asked(step_key: str, game: LessonGame) -> set[Action]:
    """What each step asks for, worked out from its rules and the position (not from the
    step's own ``accepts``): the oracle for the test below."""
    view = game.view()
    legal = set(view.legal_actions())
    cheese, fruit, wine = (DISHES.index(d) for d in ("cheese", "fruit", "wine"))
    mine = view.hands[LEARNER].cards
    assert mine is not None
    if step_key == "take":  # R6: the cheese, all 3 of it
        assert view.table[cheese] == 3
        return {Action.take("cheese")}
    if step_key in ("draw", "dragon_draw"):  # R7
        return {Action(DRAW_ID)}
    if step_key == "king":
        # R9, R11: the learner holds more cheese than the king, so taking more is wrong;
        # the step asks for the fruit
        assert mine[cheese] > view.king[cheese] and view.table[cheese] > 0
        assert view.table[fruit] > 0
        return {Action.take("fruit")}
    if step_key == "feed":
        # R8: two of the king's wine leave, and the wine taker then holds more than the king
        assert view.table_dragons >= 1 and view.king[wine] == 3
        assert any(hand.takes[wine] == 2 for seat, hand in enumerate(view.hands)
                   if seat != LEARNER)
        return {Action.feed("wine", "wine")}
    if step_key == "dragon":  # R7a: use the drawn dragon or place it, nothing else
        assert view.pending_dragon
        return {a for a in legal if a.kind == "feed"} | {Action(PLACE_DRAGON_ID)}
    assert step_key == "end"  # R10: any legal move
    return legal


def test_every_step_accepts_exactly_what_its_rules_ask_for() -> None:
    """At every step (all of them, in order), every legal move is offered to a copy of the
    game: the step takes exactly the moves the oracle above names (the king step refuses
    taking cheese, the feed step any other feed), the refused ones change nothing."""
    import copy

    game = LessonGame("You")
    reached: list[str] = []
    while not game.over:
        step = game.lesson.step
        assert step is not None
        if not reached or reached[-1] != step.key:
            reached.append(step.key)
        asked = _asked(step.key, game)
        legal = game.view().legal_actions()
        assert asked <= set(legal)
        for action in legal:
            trial = copy.deepcopy(game)
            before = trial.state.clone()
            word = trial.offer(action)
            assert (word is None) == (action in asked), (step.key, str(action))
            if word is not None:
                assert trial.state == before
        move = step.example if step.example in asked else sorted(asked)[0]
        assert game.offer(move) is None
    assert reached == [step.key for step in STEPS]


def test_the_feed_step_names_the_bot_that_just_took_the_wine() -> None:
    """R8: the step says feeding spoils the wine of the bot that took it; that bot is the one
    whose move came just before the learner's, read from the game, and no other bot is
    named."""
    game = LessonGame("You")
    while game.lesson.step is not None and game.lesson.step.key != "feed":
        game.offer(game.lesson.step.example)
    view = game.view()
    taker = view.history[-1].seat
    assert str(view.history[-1].action) == "take wine"
    with language("en"):
        text = game.lesson.text()
    assert game.names[taker] in text
    assert all(game.names[seat] not in text for seat in range(1, len(game.names))
               if seat != taker)


def test_a_game_a_bot_ends_ends_the_lesson_too() -> None:
    """R10 comes after the last turn of a round, whoever takes it: here the learner cooks the
    last round (4 cards in the deck, fewer than 8, R4), so a bot takes its last turn, and
    the lesson passes to the scoring all the same."""
    game = LessonGame("You")
    game.state = State.from_text(
        "kb1 4 f1 0 10 0 0 =0000 02222000 0000000 0000000.0000000/0000000.0000000/"
        "0000000.0000000/0000000.0000000 bddddff.5.0 -"
    )
    game.lesson.index = [step.key for step in STEPS].index("end")
    assert game.offer(Action.parse("take cheese")) is None
    assert game.over and game.bot_turns[-1][0] == 3
    assert game.lesson.step is None
