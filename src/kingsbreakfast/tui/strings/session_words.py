"""The terminal game's words around the table: the hand-over, saving and quitting, the end
of the game, the replay, the help, the plain game and the board in sentences (the table's own
words are in :mod:`.table_words`). Functions, looked up in the language of the moment.
"""

from __future__ import annotations

from typing import Final

from kingsbreakfast.i18n import _, ngettext, pgettext
from kingsbreakfast.i18n.commands import program
from kingsbreakfast.i18n.words import dish_count, dragon_count, join_words
from kingsbreakfast.i18n.words import dish_name as dish_name


# --- hand-over ---------------------------------------------------------------------------
def handover(name: str) -> str:
    return _("Pass the keyboard to {player}.").format(player=name)


def handover_detail() -> str:
    return _("The screen is hidden so that nobody sees another player's drawn cards.")


def you_drew(dish: int) -> str:
    return _("You drew {card}.").format(card=dish_count(dish, 1))


def you_drew_ready() -> str:
    return _("Enter hides it; then pass the keyboard on.")


def handover_ready(name: str) -> str:
    return _("{player}: press Enter when you alone can see the screen.").format(player=name)


# --- saving, quitting, speed -------------------------------------------------------------
def saved_to(path: str) -> str:
    return _("Game saved to {path} (resume with: {program} play --resume {path})").format(
        path=path, program=program()
    )


def autosaved_to(path: str) -> str:
    """The last line after leaving an unfinished game: it was saved, and how to go on."""
    return _("The game is saved in {path}. Resume it with: {program} play --resume").format(
        path=path, program=program()
    )


def autosave_failed(path: str, reason: str) -> str:
    return _("The game could not be saved in {path}: {reason}").format(path=path, reason=reason)


def saved_games_title() -> str:
    return _("Saved games, newest first:")


def saved_game_line(number: int, players: str, round_number: int, saved: str) -> str:
    return _("{number}: {players} · round {round} · saved {saved}").format(
        number=number, players=players, round=round_number, saved=saved
    )


def saved_game_last(moves: int, last: str) -> str:
    """The second line of a saved game in the list: how far it went, its last move."""
    if not moves:
        return _("no move yet")
    return ngettext("{count} move, the last: {last}", "{count} moves, the last: {last}",
                    moves).format(count=moves, last=last)


def game_in_use(path: str, pid: int) -> str:
    return _("This game is open in another window (process {pid}): finish or leave it "
             "there first. ({path})").format(pid=pid, path=path)


def saved_game_unreadable(number: int, name: str, reason: str) -> str:
    return _("{number}: {file} · cannot be resumed: {reason}").format(
        number=number, file=name, reason=reason)


def saved_game_broken(name: str, reason: str) -> str:
    return _("{file} cannot be resumed: {reason}. Delete it with d and its number.").format(
        file=name, reason=reason)


def saved_game_deleted(number: int) -> str:
    return _("Saved game {number} deleted.").format(number=number)


def delete_failed(path: str, reason: str) -> str:
    return _("Could not delete {path}: {reason}").format(path=path, reason=reason)


def no_such_saved_game(number: int, count: int) -> str:
    return ngettext(
        "there is no saved game {number}: there is {count} (see kingsbreakfast saves)",
        "there is no saved game {number}: there are {count} (see kingsbreakfast saves)",
        count,
    ).format(number=number, count=count)


def finished_games_kept(folder: str) -> str:
    return _(
        "Finished games are kept in {folder} for replay: kingsbreakfast replay FILE --step"
    ).format(folder=folder)


def finished_game_kept(path: str) -> str:
    """Under the final scoring: the game left the resume list, and where it is kept."""
    return _("The game is kept in {path}; replay it with: kingsbreakfast replay {path} "
             "--step").format(path=path)


def no_saved_games(folder: str) -> str:
    return _("There are no unfinished saved games in {folder}.").format(folder=folder)


def offer_saved_game(count: int) -> str:
    """``play --offer-saved`` (scripts/play.sh): the unfinished games come before a new one."""
    return ngettext(
        "Resume it? (Enter: yes, n: a new game, d1: delete it, q: quit): ",
        "Resume one? (1 to {count}, Enter: the newest, n: a new game, d and a number: "
        "delete that one, q: quit): ",
        count,
    ).format(count=count)


def not_kept() -> str:
    """Leaving a game before any human moved: it is not added to the saved games."""
    return _("No move was made yet, so the game is not kept among the saved games.")


def pick_saved_game(count: int) -> str:
    return ngettext(
        "Which game? (1, Enter: the newest, d1: delete it, q: none): ",
        "Which game? (1 to {count}, Enter: the newest, d and a number: delete that one, "
        "q: none): ",
        count,
    ).format(count=count)


def valid_answers(answers: str) -> str:
    """Plain mode's reply to an answer it does not know: what it does know."""
    return _("Please answer with one of: {answers}").format(answers=answers)


def save_failed(path: str, reason: str) -> str:
    return _("Could not save to {path}: {reason}").format(path=path, reason=reason)


def speed_now(seconds: float) -> str:
    return _("Bots pause {seconds} s per move.").format(seconds=f"{seconds:.1f}")


def quit_question() -> str:
    return _(
        "Quit the game? s: save to a file and quit · q: quit (the game stays in your saved "
        "games) · Esc: stay"
    )


def quit_untouched() -> str:
    """The quit question before any move of a human's: the new game would not be kept."""
    return _(
        "Quit the game? s: save to a file and quit · q: quit (no move yet: the game is not "
        "kept) · Esc: stay"
    )


# --- end of game -------------------------------------------------------------------------
def score_title() -> str:
    return _("Final scoring")


def play_again() -> str:
    return _("n: play again · s: save the record · q: quit")


def score_explain() -> str:
    return _(
        "Each card scores the king's count of its dish; a player holding more of a dish than "
        "the king discards all of it (x) (R11). Most points wins; on equal points, fewer "
        "discarded cards (R12)."
    )


def winner_line(names: list[str], tie_break: str) -> str:
    who = join_words(names)
    if tie_break == "none":
        return _("{winners} wins.").format(winners=who)
    if tie_break == "discards":
        return _("{winners} wins on equal points by discarding fewer cards (R12).").format(
            winners=who
        )
    return _("{winners} share the win: equal points and equal discards (R12).").format(
        winners=who
    )


# --- replay ------------------------------------------------------------------------------
def replay_status(step: int, total: int) -> str:
    return _("Replay: action {step} of {total}").format(step=step, total=total)


def replay_out_of_range(steps: int) -> str:
    return _("The record has actions 0 to {last}.").format(last=steps)


def plain_replay_prompt() -> str:
    return _("Enter: next · b: back · a number: go to that action · q: quit: ")


def plain_replay_help() -> str:
    return _("Type Enter (next), b (back), an action number, or q (quit).")


# --- help --------------------------------------------------------------------------------
def help_title() -> str:
    return _("Keys")


def help_keys() -> list[tuple[str, str]]:
    """The keys and what each does, one pair a line (the screen wraps each description
    within its own column)."""
    dishes = " ".join(f"{number + 1} {dish_name(number)}" for number in range(7))
    return [
        ("1-7", _("take all of a dish: {dishes}").format(dishes=dishes)),
        ("d", _("draw the top card of the deck (only you see it)")),
        ("f", _("feed a dragon two of the king's dishes")),
        ("p", _("place a dragon you just drew on the table")),
        ("x", _("pass (only when nothing else is possible)")),
        (_("arrows"), _("choose in the move list, Enter to play it (or click)")),
        ("h", _("hint: the bot's ranking of your moves")),
        ("s", _("save the game")),
        ("+ / -", _("bots move faster / slower")),
        ("t", _("light or dark colours")),
        ("L", _("switch to another language")),
        ("q", _("quit")),
    ]


def replay_help_keys() -> list[tuple[str, str]]:
    return [
        (_("→ or n"), _("the next action")),
        (_("← or b"), _("the action before")),
        (_("Page Down / Page Up"), _("ten actions on / back")),
        (_("Home / End"), _("the first deal / the end of the game")),
        ("t", _("light or dark colours")),
        ("q", _("quit")),
    ]


def help_board() -> str:
    return _(
        "The board: the king's plate and the table by dish; each hand's taken cards (everyone "
        "sees them) and, for your own hand, your drawn cards; for the others only how many "
        "drawn cards they hide."
    )


def help_close() -> str:
    return _("Esc or ?: back · arrows, Page Up/Down: scroll")


# --- plain mode --------------------------------------------------------------------------
PLAIN_CLEAR_LINES: Final = 60
"""Blank lines printed at a hand-over so the previous player's cards scroll out of sight."""


def plain_prompt() -> str:
    return _("Your move (key, or h hint, s save, l look, g grid, q quit): ")


def plain_pick_dish() -> str:
    return _("Which dish? (number): ")


def plain_handover(name: str) -> str:
    return _("Pass the keyboard to {player}, then press Enter.").format(player=name)


def plain_moves() -> str:
    return _("Moves: ")


def plain_bad_dish() -> str:
    return _("Please type the number of one of the dishes shown (Enter: back).")


def plain_save_before_quit() -> str:
    """Plain mode's question on quitting: the game is in the saved games whatever the
    answer, so the question is about a file of the player's own."""
    return _("Save the game to a file too before quitting? It stays in your saved games "
             "either way. (y/n) ")


def kept_without_file() -> str:
    """The last line after declining the file: no file was written, the game can go on."""
    return _("No file written. The game stays in your saved games; resume it with: "
             "{program} play --resume").format(program=program())


def plain_again() -> str:
    return _("n: play again · s: save the record · q: quit: ")


def goodbye() -> str:
    return _("Goodbye.")


def yes_letters() -> tuple[str, ...]:
    """What a yes/no answer may start with to mean yes, here and in the current language."""
    return ("y", pgettext("first letter of the word yes", "y").lower())


# --- additions for the full-screen game ---------------------------------------------------
def provisional_short(points: int, discarded: int) -> str:
    if discarded:
        return ngettext(
            "now {count} point, out: {discarded}", "now {count} points, out: {discarded}", points
        ).format(count=points, discarded=discarded)
    return ngettext("now {count} point", "now {count} points", points).format(count=points)


def king_lacks(dish: int) -> str:
    return _("That does not make a pair the king holds ({dish}) (R8).").format(
        dish=dish_name(dish)
    )


def points_header() -> str:
    return _("points")


def discarded_header() -> str:
    return _("out")


def discarded_cell(held: int) -> str:
    """A dish a player held more of than the king: all of it discarded (R11)."""
    return f"{held} x"


def points_cell(held: int, king: int, points: int) -> str:
    return f"{held}×{king}={points}"


# --- the board in sentences (plain mode) -------------------------------------------------
def king_sentence(plate: str, eaten: int) -> str:
    if eaten:
        return _("King's plate: {plate} ({eaten} eaten by dragons).").format(
            plate=plate, eaten=eaten
        )
    return _("King's plate: {plate}.").format(plate=plate)


def table_sentence(table: str, dragons: int) -> str:
    if dragons:
        return _("Table: {table}; {dragons}.").format(table=table, dragons=dragon_count(dragons))
    return _("Table: {table}.").format(table=table)


def hand_sentence(name: str, taken: str | None, drawn: str | None, hidden: int | None) -> str:
    """One hand in a whole sentence; ``taken`` None: took nothing; ``drawn`` None: drew
    nothing (the viewer's own hand) or hidden (``hidden`` cards, another's hand).

    Each case is its own sentence, so that a language can say "took nothing" its own way
    (a negation, a case ending) rather than gluing a word for "nothing" into a slot.
    """
    if hidden is None:  # the viewer's own hand
        if taken is None and drawn is None:
            return _("{player}: took nothing; drew nothing.").format(player=name)
        if drawn is None:
            return _("{player}: took {taken}; drew nothing.").format(player=name, taken=taken)
        if taken is None:
            return _("{player}: took nothing; drew {drawn}.").format(player=name, drawn=drawn)
        return _("{player}: took {taken}; drew {drawn}.").format(
            player=name, taken=taken, drawn=drawn
        )
    if taken is None:
        return ngettext(
            "{player}: took nothing; {count} hidden card.",
            "{player}: took nothing; {count} hidden cards.",
            hidden,
        ).format(player=name, count=hidden)
    return ngettext(
        "{player}: took {taken}; {count} hidden card.",
        "{player}: took {taken}; {count} hidden cards.",
        hidden,
    ).format(player=name, taken=taken, count=hidden)
