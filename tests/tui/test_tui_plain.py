"""The plain line-by-line game, through its standard input and output."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from tui_helpers import game_reaching, seats

from kingsbreakfast.engine import DISHES, State, read_record
from kingsbreakfast.i18n import language
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.moves import DISH_KEYS, action_label, first_dishes, second_dishes
from kingsbreakfast.tui.plain import AGAIN, QUIT, PlainGame
from kingsbreakfast.tui.saving import saved_games
from kingsbreakfast.tui.session import Game
from rigging import rigged_deck

# A player who draws whenever possible, else takes the first dish it can, places drawn
# dragons and passes when nothing else is possible.
STUBBORN = "d\n1\n2\n3\n4\n5\n6\n7\np\nx\n"


def play_plain(game: Game, answers: str, **options: object) -> tuple[str, str]:
    out = io.StringIO()
    result = PlainGame(game, io.StringIO(answers), out, **options).run()  # type: ignore[arg-type]
    return result, out.getvalue()


def test_a_whole_plain_game_to_the_scores() -> None:
    game = Game.new(seats("random", None, "easy"), seed=31)
    result, text = play_plain(game, STUBBORN * 80 + "q\n")
    assert game.is_over
    assert result == QUIT
    assert "Final scoring" in text
    scoring = game.state.score()
    assert any(line.startswith(game.names[scoring.winners[0]]) and "win" in line
               for line in text.splitlines())
    # the bots' drawn cards never reached the human's screen while the game was on
    for bot in ("Ann", "Cid"):
        assert f"{bot} draws a card (" not in text
    # the human's own draws are named
    if any(turn.seat == 1 and turn.action.kind == "draw" for turn in game.state.history):
        assert "Bob draws a card (" in text or "Bob draws a dragon" in text


def test_play_again_starts_a_new_game() -> None:
    game = Game.new(seats(None, "random", "random"), seed=32)
    result, _ = play_plain(game, STUBBORN * 80 + "n\n")
    assert result == AGAIN
    again = game.rematch()
    assert again.seed == 33 and again.seats == game.seats and not again.state.history


def test_refusals_name_the_rule_and_change_nothing() -> None:
    game = Game(State(rigged_deck(*["bread"] * 4, *["cheese"] * 2), 3, 0),
                tuple(seats(None, "random", "random")), random.Random(1))
    before = game.state.clone()
    _, text = play_plain(game, "7\np\nf\nwhat\nfeed ham wine\nq\n")
    assert game.state == before
    assert "You can't take wine: wine is not on the table (R6)." in text
    assert "You can't place the dragon on the table: there is no drawn dragon" in text
    assert "You can't feed a dragon: there is no dragon on the table to feed (R8)." in text
    assert "Please answer with one of: " in text  # "what" is answered with the valid keys
    assert "You can't feed ham wine: there is no dragon on the table to feed (R8)." in text
    # quitting before any move of one's own: a new game adds no entry, and says so
    assert text.splitlines()[-1] == strings.not_kept()


def test_no_to_a_file_on_quitting_is_not_followed_by_saved_in() -> None:
    """Answering no to the file is never followed by "The game is saved in": the player
    reads that no file was written and that the game can still be resumed (it is kept in
    the saved games, which the question said)."""
    game = Game.new(seats(None, "random", "random"), seed=53)
    _, text = play_plain(game, "d\nq\nn\n")
    after = text.split(strings.plain_save_before_quit())[1]
    assert "saved in" not in after
    assert after.splitlines()[-1] == strings.kept_without_file()
    assert [saved.moves for saved in saved_games()] == [len(game.state.history)]
    for code in ("de", "hu", "fr", "vi"):
        with language(code):
            assert "{" not in strings.kept_without_file()
            assert strings.kept_without_file() != "No file written. The game stays in " \
                "your saved games; resume it with: kingsbreakfast play --resume"


def test_yes_to_a_file_on_quitting_says_where_it_went(tmp_path: Path) -> None:
    game = Game.new(seats(None, "random", "random"), seed=53)
    mine = tmp_path / "mine.json"
    _, text = play_plain(game, "d\nq\ny\n", save_path=mine)
    after = text.split(strings.plain_save_before_quit())[1]
    assert strings.saved_to(str(mine)) in after
    assert strings.kept_without_file() not in after
    assert read_record(mine.read_text()).actions


def test_feeding_asks_for_two_dishes() -> None:
    game = game_reaching(
        (None, "random", "random"),
        lambda g: g.to_move == 0
        and not g.state.pending_dragon
        and any(a.kind == "feed" for a in g.state.legal_actions()),
    )
    view = game.view(0)
    first = first_dishes(view)[0]
    second = second_dishes(view, first)[0]
    played = len(game.state.history)
    _, text = play_plain(game, f"f\n{DISH_KEYS[first]}\n{DISH_KEYS[second]}\nq\nn\n")
    assert "Pick the first" in text and "pick the second dish" in text
    action = game.state.history[played].action
    assert action.kind == "feed" and action.dishes == tuple(sorted((first, second)))
    if first == second:  # two of one dish are counted, not named twice
        assert f"the king loses 2 {DISHES[first]}." in text
    else:
        low, high = DISHES[min(first, second)], DISHES[max(first, second)]
        assert f"the king loses {low} and {high}" in text


def test_plain_hotseat_hides_the_previous_players_draw() -> None:
    deck = rigged_deck("bread", "bread", "cheese", "ham", "ham", "chicken", "fruit", "cake",
                       "wine")
    game = Game(State(deck, 4, 0), tuple(seats(None, None, "random", "random")),
                random.Random(3))
    _, text = play_plain(game, "\nd\n\ng\nq\nn\n")
    assert text.count("Pass the keyboard to") == 2
    before, after = text.split("Pass the keyboard to Bob")
    assert "Ann draws a card (wine)." in before
    assert "\n" * 50 in before.split("Ann draws a card (wine).")[1]  # scrolled away
    assert "(wine)" not in after
    assert "Ann: took nothing; 1 hidden card." in after
    assert "seen by Bob" in after and "Bob (you): took nothing; drew nothing." in after
    assert "Table: 2 bread, 1 cheese, 2 ham, 1 chicken, 1 fruit and 1 cake." in after
    grid = after.split("Bob (you): took nothing")[1]
    ann_row = next(line for line in grid.splitlines() if line.strip().startswith("Ann"))
    assert ann_row.endswith("+1 hidden")
    assert not any(ch.isdigit() for ch in ann_row.replace("+1 hidden", ""))


def test_save_and_resume_in_plain_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = Game.new(seats(None, "random", "random", "random"), seed=40)
    _, text = play_plain(game, "d\n1\n2\nd\np\ns\nq\n", save_path=path)
    assert f"Game saved to {path}" in text
    assert "Goodbye." in text
    record = read_record(json.loads(path.read_text()))
    resumed = Game.from_record(record)
    assert resumed.state == game.state and resumed.seats == game.seats


def test_end_of_input_leaves_quietly() -> None:
    game = Game.new(seats(None, "random", "random"), seed=41)
    result, _ = play_plain(game, "")
    assert result == QUIT


def test_the_hint_in_plain_mode_ranks_every_legal_move() -> None:
    game = Game(State(rigged_deck(*["bread"] * 4, *["cheese"] * 2), 3, 0),
                tuple(seats(None, "random", "random")), random.Random(1))
    _, text = play_plain(game, "h\nq\nn\n", hint_seconds=0.05)
    hint = text.split("win chance")[1]
    for action in game.state.legal_actions():
        assert action_label(action) in hint
