"""Every player-facing sentence of the terminal game's own screens, in one place.

The game's words (dish names, counted dishes) and the log (:mod:`kingsbreakfast.narrate`)
come from the translation layer in the language chosen with ``--lang``; the sentences of the
screens below are English until they are marked for the translators, which is this one
file's work.
"""

from __future__ import annotations

from typing import Final

from kingsbreakfast.i18n.words import dish_count
from kingsbreakfast.i18n.words import dish_name as dish_name

TITLE: Final = "King's Breakfast"
DRAGON_NAME: Final = "Emerald"

# --- names of seats ----------------------------------------------------------------------
YOU: Final = "Ann"
"""The default name of a lone human (the log speaks of every player in the third person)."""


def you_label(name: str) -> str:
    """The viewer's own row on the board."""
    return f"{name} (you)"

BOT_NAMES: Final = ("Ada", "Bert", "Cleo", "Dov", "Edda")


def seating(labels: list[str], rules: dict[str, object], default_rules: bool) -> str:
    """The log's first line: who sits where (clockwise from seat 0) and any variant."""
    line = "At the table, clockwise: " + ", ".join(labels) + "."
    if not default_rules:
        line += " Variants: " + ", ".join(f"{key}={value}" for key, value in rules.items()) + "."
    return line


def hotseat_name(number: int) -> str:
    return f"Player {number}"


def bot_label(name: str, bot: str) -> str:
    return f"{name} ({bot})"


# --- the board ---------------------------------------------------------------------------
KING: Final = "King"
TABLE: Final = "Table"
DRAWN: Final = "  drawn"


def eaten_extra(count: int) -> str:
    """Beside the king: dishes the dragons ate (public, R8)."""
    return f"{count} eaten"


def taken_extra() -> str:
    return "taken"


def drawn_extra(count: int) -> str:
    return f"{count} drawn"


def hidden_extra(count: int) -> str:
    """Beside another player's takes: how many drawn cards they hide (R7)."""
    return f"+{count} hidden" if count else ""


def status_line(
    round_number: int,
    cook: str,
    deck: int,
    to_move: str | None,
    viewer: str | None,
    with_viewer: bool = True,
) -> str:
    mover = f"{to_move} to move" if to_move is not None else "game over"
    seen = ""
    if with_viewer:
        seen = f" · seen by {viewer}" if viewer is not None else " · public view"
    return f"Round {round_number} · cook {cook} · deck {deck} · {mover}{seen}"


def provisional(points: int, discarded: int) -> str:
    extra = f", {discarded} discarded" if discarded else ""
    return f"If the game ended now: {points} points{extra}"


def dragons_on_table(count: int) -> str:
    return f"{count} dragon" if count == 1 else f"{count} dragons"


# --- actions -----------------------------------------------------------------------------
ACTIONS_TITLE: Final = "Your move"
WAITING_TITLE: Final = "Waiting"
LOG_TITLE: Final = "What happened"


def take_label(dish: int, count: int) -> str:
    return f"take {dish_count(dish, count)}"


def take_what(dish: int) -> str:
    return f"take {dish_name(dish)}"


def feed_what(first: int, second: int) -> str:
    return f"feed {dish_name(first)} and {dish_name(second)}"


DRAW_LABEL: Final = "draw a card"
FEED_WHAT: Final = "feed a dragon"
PASS_WHAT: Final = "pass"
FEED_TABLE_LABEL: Final = "feed a table dragon…"
FEED_DRAWN_LABEL: Final = "feed the drawn dragon…"
PLACE_LABEL: Final = "place the dragon on the table"
PASS_LABEL: Final = "pass (nothing else is possible)"


def waiting_for(name: str) -> str:
    return f"{name} is thinking…"


def not_your_turn(name: str) -> str:
    return f"Wait: it is {name}'s turn."


def refused(action: str, reason: str) -> str:
    return f"You can't {action}: {reason}."


# --- dragon and feeding ------------------------------------------------------------------
DRAGON_DRAWN: Final = (
    f"You drew a dragon ({DRAGON_NAME})! Use it now, feeding it two of the king's dishes, "
    "or place it on the table, where anyone may feed it later (R7a)."
)
DRAGON_DRAWN_ONLY_PLACE: Final = (
    f"You drew a dragon ({DRAGON_NAME})! The king has fewer than 2 dishes, so it goes "
    "on the table (R7a)."
)
USE_DRAGON: Final = "use it: feed it two of the king's dishes"
FEED_FIRST: Final = "The dragon eats two of the king's dishes (R8). Pick the first:"


def feed_second(first: int) -> str:
    return f"The dragon eats {dish_name(first)} and… pick the second dish:"


def king_dish_option(dish: int, count: int) -> str:
    return f"{dish_name(dish)} (the king has {count})"


CANCEL_HINT: Final = "Esc: back"

# --- hint --------------------------------------------------------------------------------
HINT_TITLE: Final = "Hint: the bot's ranking of your moves"
HINT_THINKING: Final = "Thinking…"
HINT_HEADER: Final = f"{'move':<24}{'points':>10}{'win chance':>12}{'playouts':>10}"


def hint_line(action: str, points: float, win: float, visits: int) -> str:
    return f"{action[:24]:<24}{points:>10.1f}{win * 100:>11.1f}%{visits:>10}"


HINT_FOOTER: Final = "Enter plays the highlighted move · Esc closes"

# --- hand-over ---------------------------------------------------------------------------


def handover(name: str) -> str:
    return f"Pass the keyboard to {name}."


HANDOVER_DETAIL: Final = (
    "The screen is hidden so that nobody sees another player's drawn cards."
)


def handover_ready(name: str) -> str:
    return f"{name}: press Enter when you alone can see the screen."


# --- saving, quitting, speed -------------------------------------------------------------


def saved_to(path: str) -> str:
    return f"Game saved to {path} (resume with: kingsbreakfast play --resume {path})"


def save_failed(path: str, reason: str) -> str:
    return f"Could not save to {path}: {reason}"


def speed_now(seconds: float) -> str:
    return f"Bots pause {seconds:.1f} s per move."


QUIT_QUESTION: Final = "Quit the game? s: save and quit · q: quit without saving · Esc: stay"

# --- end of game -------------------------------------------------------------------------
SCORE_TITLE: Final = "Final scoring"
PLAY_AGAIN: Final = "n: play again · s: save the record · q: quit"
SCORE_EXPLAIN: Final = (
    "Each card scores the king's count of its dish; a player holding more of a dish than "
    "the king discards all of it (x) (R11). Most points wins; on equal points, fewer "
    "discarded cards (R12)."
)


def winner_line(names: list[str], tie_break: str) -> str:
    who = " and ".join(names)
    if tie_break == "none":
        return f"{who} wins."
    if tie_break == "discards":
        return f"{who} wins on equal points by discarding fewer cards (R12)."
    return f"{who} share the win: equal points and equal discards (R12)."


# --- replay ------------------------------------------------------------------------------


def replay_status(step: int, total: int) -> str:
    return f"Replay: action {step} of {total}"



# --- help --------------------------------------------------------------------------------
HELP_TEXT: Final = (
    "Keys\n"
    "  1-7        take all of a dish: 1 bread 2 cheese 3 ham 4 chicken 5 fruit 6 cake 7 wine\n"
    "  d          draw the top card of the deck (only you see it)\n"
    "  f          feed a dragon two of the king's dishes\n"
    "  p          place a dragon you just drew on the table\n"
    "  x          pass (only when nothing else is possible)\n"
    "  arrows     choose in the move list, Enter to play it (or click)\n"
    "  h          hint: the bot's ranking of your moves\n"
    "  s          save the game\n"
    "  + / -      bots move slower / faster\n"
    "  t          light or dark colours\n"
    "  q          quit\n"
    "\n"
    "The board: the king's plate and the table by dish; each hand's taken cards (everyone\n"
    "sees them) and, for your own hand, your drawn cards; for the others only how many\n"
    "drawn cards they hide. Press Esc to go back."
)

# --- plain mode --------------------------------------------------------------------------
PLAIN_PROMPT: Final = "Your move (key, or h hint, s save, l look, g grid, q quit): "
PLAIN_BAD_CHOICE: Final = "Please type one of the keys shown, or h, s, l, g, q."
PLAIN_PICK_DISH: Final = "Which dish? (number): "


def plain_handover(name: str) -> str:
    return f"Pass the keyboard to {name}, then press Enter."


PLAIN_CLEAR_LINES: Final = 60
"""Blank lines printed at a hand-over so the previous player's cards scroll out of sight."""

PLAIN_MOVES: Final = "Moves: "
PLAIN_BAD_DISH: Final = "Please type the number of one of the dishes shown (Enter: back)."
PLAIN_SAVE_BEFORE_QUIT: Final = "Save the game before quitting? (y/n) "
PLAIN_AGAIN: Final = "n: play again · s: save the record · q: quit: "
GOODBYE: Final = "Goodbye."
QUIT_UNSAVED: Final = "Game not saved. Goodbye."


# --- additions for the full-screen game ---------------------------------------------------


def provisional_short(points: int, discarded: int) -> str:
    extra = f", {discarded} out" if discarded else ""
    return f"now {points} pts{extra}"


def king_lacks(dish: int) -> str:
    return f"That does not make a pair the king holds ({dish_name(dish)}) (R8)."


POINTS_HEADER: Final = "points"
DISCARDED_HEADER: Final = "out"


def discarded_cell(held: int) -> str:
    """A dish a player held more of than the king: all of it discarded (R11)."""
    return f"{held} x"


def points_cell(held: int, king: int, points: int) -> str:
    return f"{held}×{king}={points}"

PLAIN_REPLAY_PROMPT: Final = "Enter: next · b: back · a number: go to that action · q: quit: "
PLAIN_REPLAY_HELP: Final = "Type Enter (next), b (back), an action number, or q (quit)."


def replay_out_of_range(steps: int) -> str:
    return f"The record has actions 0 to {steps}."


# --- the board in sentences (plain mode) -------------------------------------------------


def king_sentence(plate: str, eaten: int) -> str:
    extra = f" ({eaten} eaten by dragons)" if eaten else ""
    return f"King's plate: {plate}{extra}."


def table_sentence(table: str, dragons: int) -> str:
    extra = f"; {dragons_on_table(dragons)}" if dragons else ""
    return f"Table: {table}{extra}."


def hand_sentence(name: str, taken: str, drawn: str | None, hidden: int) -> str:
    if drawn is not None:
        return f"{name}: took {taken}; drew {drawn}."
    cards = "1 hidden card" if hidden == 1 else f"{hidden} hidden cards"
    return f"{name}: took {taken}; {cards}."

