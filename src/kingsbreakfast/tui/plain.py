"""The game line by line (``--plain``): for dumb terminals, pipes and screen readers.

Nothing is redrawn: every line is printed once, in reading order, and every question is a
prompt on its own line that takes a key (the same keys as the full-screen game: 1-7, d, f,
p, x) or the move in words ("take cheese"). Needs no Textual.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from kingsbreakfast.engine import (
    DISHES,
    Action,
    ActionFormatError,
    IllegalActionError,
    KingsBreakfastError,
    View,
    score_hand,
)
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.narrate import score_lines

from . import strings
from .board import (
    DEFAULT_WIDTH,
    board_notes,
    board_rows,
    board_sentences,
    board_text,
)
from .fit import wrap_cells
from .hint_table import hint_lines
from .moves import (
    FEED,
    Move,
    first_dishes,
    move_for_key,
    moves,
    refusal,
    second_dishes,
)
from .opponents import rank_moves
from .saving import Autosaver, default_save_path, finished_dir, write_record
from .session import Game, Watcher

AGAIN, QUIT, INTERRUPTED, HUNG_UP = "again", "quit", "interrupted", "hung up"
"""How a plain game ends: another game wanted, left, left by Ctrl-C (exit status 130), or
its terminal closed (exit status 129)."""


class _EndOfInput(Exception):
    """Standard input closed: the game is saved and the player told how to resume."""


_HUNG_UP = [False]
"""Set by the SIGHUP handler: the terminal is gone (what the game reads or writes next
fails with EIO or reads nothing, which ends it)."""


def hang_up_on_sighup() -> None:
    """Make a closed terminal end the plain game quietly (the main thread only). The
    handler only takes note: the read or write the game is in, or its next, fails with
    EIO or meets the end of input, which ends the game where it stands; the game is in its
    autosave as of its last whole action. Under nohup (SIGHUP ignored) the EIO alone does."""

    def hung_up(signum: int, frame: object) -> None:
        _HUNG_UP[0] = True

    with contextlib.suppress(AttributeError, ValueError):  # no SIGHUP, or not main thread
        if signal.getsignal(signal.SIGHUP) != signal.SIG_IGN:
            signal.signal(signal.SIGHUP, hung_up)


def forget_the_terminal() -> None:
    """Point standard output (and standard error, where it is the same terminal) at the
    null device once the terminal has closed. Text still in Python's buffers would
    otherwise be flushed into the dead terminal at exit, fail with EIO, and turn the exit
    status into 120 instead of the hang-up's 129 (as Debian's Python 3.11 does)."""
    try:
        same = os.path.sameopenfile(1, 2)
    except OSError:  # standard error closed already: standard output is still redirected
        same = False
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        if same:
            os.dup2(null, 2)
        os.close(null)


CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"
"""Go home, erase the screen, then erase the scrollback (xterm, VT, tmux, Linux). In this
order: a terminal that keeps a cleared screen in its scrollback (tmux, xterm, VTE) has
pushed the screen there by the time the scrollback is erased."""


class PlainGame:
    """Runs one game through text streams (stdin/stdout by default)."""

    def __init__(
        self,
        game: Game,
        infile: TextIO,
        outfile: TextIO,
        save_path: Path | None = None,
        speed: float = 0.0,
        hint_seconds: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        autosaver: Autosaver | None = None,
    ) -> None:
        self.game = game
        self.watcher = Watcher(game)
        self.infile = infile
        self.outfile = outfile
        self.save_path = save_path
        self.speed = speed
        self.hint_seconds = hint_seconds
        self._sleep = sleep
        self._printed = 0
        self._saved = False
        self._declined_file = False
        """The player answered no to a file of their own on quitting."""
        self.autosaver = autosaver or Autosaver()
        self._hint_rng = random.Random(game.rng.random())

    # -- input and output ----------------------------------------------------------------
    def say(self, line: str = "") -> None:
        self.outfile.write(line + "\n")
        self.outfile.flush()

    def ask(self, prompt: str) -> str:
        self.outfile.write(prompt)
        self.outfile.flush()
        line = self.infile.readline()
        if not line:
            self.say()
            raise _EndOfInput
        return line.strip()

    def _clear(self) -> None:
        """Hide what the previous player saw: on a terminal the screen and its scrollback
        are wiped (what scrolled off is gone too); elsewhere blank lines push it away."""
        isatty = getattr(self.outfile, "isatty", None)
        if callable(isatty) and isatty():
            self.outfile.write(CLEAR_ALL)
            self.outfile.flush()
        else:
            self.say("\n" * strings.PLAIN_CLEAR_LINES)

    # -- the game ------------------------------------------------------------------------
    def run(self) -> str:
        """Play to the end; returns ``again`` when the players want another game."""
        try:
            outcome = self._run()
        except OSError as error:  # the terminal answers EIO once it is closed
            if error.errno != errno.EIO:
                raise
        else:
            if not _HUNG_UP[0]:
                return outcome
        self._hung_up()
        return HUNG_UP

    def _hung_up(self) -> None:
        """The terminal is gone: nothing can be said. The autosave holds the game as of its
        last whole action (a save cut short leaves the file as it was); a new game no human
        has moved in is not kept."""
        if not self.game.is_over and not self.autosaver.worth_keeping(self.game):
            self.autosaver.discard()

    def _run(self) -> str:
        self.say(strings.title() + " · " + ", ".join(self.game.labels))
        self.autosaver.save(self.game)
        try:
            while not self.game.is_over:
                self._print_log()
                if self.game.human_to_move():
                    if not self._human_turn():
                        self._farewell()
                        return QUIT
                else:
                    self._bot_turn()
            self._print_log()
            return self._final()
        except _EndOfInput:
            self._farewell()
            return QUIT
        except KeyboardInterrupt:
            self.say()
            self._farewell()
            return INTERRUPTED

    def _farewell(self) -> None:
        """Leaving an unfinished game: it is saved (after every action), say where."""
        if self.game.is_over:
            return
        if not self.autosaver.worth_keeping(self.game):  # no human has moved in it
            self.autosaver.discard()
            if not self._saved:
                self.say(strings.not_kept())
            return
        self.autosaver.save(self.game)
        if self._saved:  # a save of the player's own has just said where it went
            return
        if self._declined_file and self.autosaver.written and self.autosaver.error is None:
            self.say(strings.kept_without_file())  # not "saved in", just after "no"
        else:
            self.say(self.autosaver.farewell())

    def _print_log(self) -> None:
        viewer = self.watcher.seat
        for entry in self.game.log[self._printed :]:
            for line in entry.lines_for(viewer):
                self.say(line)
        self._printed = len(self.game.log)

    def _bot_turn(self) -> None:
        if self.speed:
            self._sleep(self.speed)
        self.game.play(self.game.bot_choice())
        self._saved = False
        self.autosaver.save(self.game)
        self.watcher.after_move()

    def _human_turn(self) -> bool:
        """One human decision; False when the player quits."""
        seat = self.watcher.handover_to()
        if seat is not None:
            self._clear()
            self.ask(strings.plain_handover(self.game.names[seat]) + " ")
            self._clear()  # the prompt that named the next player goes too
            self.watcher.take_over(seat)
        self._look()
        while True:
            answer = self.ask(strings.plain_prompt()).lower()
            outcome = self._answer(answer)
            if outcome is None:
                continue
            if outcome == QUIT:
                return False
            self._print_log()  # the mover reads the outcome in their own words first
            self.watcher.after_move()
            return True

    def _look(self) -> None:
        view = self.game.view(self.watcher.seat)
        to_move = view.to_move
        assert to_move is not None
        self.say()
        self.say(
            strings.status_line(
                view.round, self.game.names[view.cook], view.deck_size,
                self.game.names[to_move], _viewer_name(self.game, self.watcher.seat),
            )
        )
        for line in board_sentences(view, self.game.names):
            self.say(line)
        hand = view.my_hand
        if hand is not None and hand.cards is not None:
            points = score_hand(view.king, hand.cards)
            self.say(strings.provisional(*points))
            over = [dish for dish, held in enumerate(hand.cards) if held > view.king[dish]]
            if over:
                self.say(strings.over_sentence(over))
        if view.last_round:
            self.say(strings.last_round())
        if view.pending_dragon:
            only_place = len(moves(view)) == 1
            self.say(strings.dragon_drawn_only_place() if only_place else strings.dragon_drawn())
        self.say(strings.plain_moves() + "; ".join(f"{m.key}: {m.label}" for m in moves(view)))

    def _answer(self, answer: str) -> str | None:
        """Act on one typed answer: ``played``, ``quit``, or None to ask again."""
        view = self.game.view(self.watcher.seat)
        if answer in ("q", "quit"):
            return QUIT if self._confirm_quit() else None
        if answer in ("s", "save"):
            self._save()
            return None
        if answer in ("l", "look", ""):
            self._look()
            return None
        if answer in ("g", "grid"):
            self._grid(view)
            return None
        if answer in ("h", "hint"):
            self._hint()
            return None
        if answer in ("?", "help"):
            self._help()
            return None
        found = move_for_key(view, answer)
        action: Action | None = None
        if isinstance(found, Move):
            action = self._pick_feed() if found.action == FEED else _as_action(found.action)
            if action is None:
                return None
        elif isinstance(found, str):
            self.say(found)
            return None
        else:
            try:
                action = Action.parse(answer)
            except ActionFormatError:
                keys = [move.key for move in moves(view)]
                self.say(strings.valid_answers(", ".join([*keys, "h", "s", "l", "g", "?", "q"])))
                return None
            reason = refusal(view, action)
            if reason is not None:
                self.say(reason)
                return None
        try:
            self.game.play(action)
        except IllegalActionError as error:  # pragma: no cover - the view said it was legal
            self.say(explain(error))
            return None
        self._saved = False
        self.autosaver.save(self.game)
        return "played"

    def _grid(self, view: View) -> None:
        """The board as a grid fitted to the terminal, with its notes."""
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
        rows = board_rows(view, self.game.names)
        for line in [*board_text(rows, width), *board_notes(rows, view, width)]:
            self.say(line)

    def _pick_feed(self) -> Action | None:
        view = self.game.view(self.watcher.seat)
        first = self._pick_dish(strings.feed_first(), first_dishes(view), view.king)
        if first is None:
            return None
        second = self._pick_dish(strings.feed_second(first), second_dishes(view, first), view.king)
        if second is None:
            return None
        return Action.feed(first, second)

    def _pick_dish(self, question: str, dishes: list[int], king: tuple[int, ...]) -> int | None:
        self.say(question)
        for dish in dishes:
            self.say(f"  {dish + 1}: {strings.king_dish_option(dish, king[dish])}")
        while True:
            answer = self.ask(strings.plain_pick_dish()).lower()
            if answer in ("", "b", "back", "esc"):
                return None
            if answer.isdigit() and int(answer) - 1 in dishes:
                return int(answer) - 1
            if answer in DISHES and DISHES.index(answer) in dishes:
                return DISHES.index(answer)
            self.say(strings.plain_bad_dish())

    def _hint(self) -> None:
        self.say(strings.hint_thinking())
        view = self.game.view(self.watcher.seat)
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
        try:
            ranking = rank_moves(view, self._hint_rng, seconds=self.hint_seconds)
        except KingsBreakfastError as error:  # a core install: the hint's extra is missing
            self.say(explain(error))
            return
        for line in hint_lines(ranking, width - 1):
            self.say(line)
        self.say(strings.hint_explained() + " " + strings.hint_order())

    def _help(self) -> None:
        """The keys, one a line, then what the board shows (wrapped to the terminal)."""
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns - 1
        self.say(strings.help_title())
        for key, meaning in strings.help_keys():
            lines = wrap_cells(meaning, max(width - 14, 20))
            self.say(f"  {key:<10}  {lines[0]}")
            for more in lines[1:]:
                self.say(" " * 14 + more)
        self.say()
        for line in wrap_cells(strings.help_board(), width):
            self.say(line)

    def _save(self) -> None:
        path = self.save_path or default_save_path()
        try:
            write_record(self.game, path)
        except OSError as error:
            self.say(strings.save_failed(str(path), error.strerror or str(error)))
            return
        self._saved = True
        self.say(strings.saved_to(str(path)))

    def _confirm_quit(self) -> bool:
        if self._saved or not self.autosaver.worth_keeping(self.game):  # no question
            self.say(strings.goodbye())
            return True
        answer = self.ask(strings.plain_save_before_quit()).lower()
        if answer.startswith(strings.yes_letters()):
            self._save()
        else:
            self._declined_file = True
        self.say(strings.goodbye())
        return True

    def _final(self) -> str:
        view = self.game.view(None)
        scoring = view.score()
        assert scoring is not None  # every hand is shown once the game is over (R11)
        self.say()
        self._grid(view)
        self.say()
        for line in score_lines(scoring, view.king, self.game.names):
            self.say(line)
        saver = self.autosaver
        if saver.written and saver.path.parent == finished_dir():
            self.say(strings.finished_game_kept(str(saver.path)))
        while True:
            answer = self.ask(strings.plain_again()).lower()
            if answer in ("n", "new", "y", "yes"):
                return AGAIN
            if answer in ("s", "save"):
                self._save()
                continue
            if answer in ("q", "quit", "no"):
                return QUIT
            self.say(strings.valid_answers("n, s, q"))


def _as_action(action: Action | str) -> Action:
    assert isinstance(action, Action)
    return action


def _viewer_name(game: Game, seat: int | None) -> str | None:
    return None if seat is None else game.names[seat]
