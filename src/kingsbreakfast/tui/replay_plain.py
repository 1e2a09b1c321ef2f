"""Stepping through a record line by line (``replay FILE --step`` with ``--plain``)."""

from __future__ import annotations

from typing import TextIO

from kingsbreakfast.engine import Record
from kingsbreakfast.narrate import score_lines

from . import strings
from .board import board_sentences
from .replay_model import Replay


class PlainReplay:
    """Enter or n: next action · b: back · a number: go to that action · q: quit."""

    def __init__(self, record: Record, infile: TextIO, outfile: TextIO) -> None:
        self.replay = Replay(record)
        self.infile = infile
        self.outfile = outfile
        self.step = 0

    def say(self, line: str = "") -> None:
        self.outfile.write(line + "\n")
        self.outfile.flush()

    def run(self) -> None:
        self._show()
        while True:
            self.outfile.write(strings.plain_replay_prompt())
            self.outfile.flush()
            line = self.infile.readline()
            if not line:
                self.say()
                return
            answer = line.strip().lower()
            if answer in ("q", "quit"):
                return
            if answer in ("", "n", "next"):
                target = self.step + 1
            elif answer in ("b", "back", "p"):
                target = self.step - 1
            elif answer.isdigit():
                target = int(answer)
            else:
                self.say(strings.plain_replay_help())
                continue
            if not 0 <= target <= self.replay.steps:
                self.say(strings.replay_out_of_range(self.replay.steps))
                continue
            self.step = target
            self._show()

    def _show(self) -> None:
        replay, step = self.replay, self.step
        self.say()
        self.say(strings.replay_status(step, replay.steps))
        for line in replay.lines(step):
            self.say(line)
        view = replay.view(step)
        for line in board_sentences(view, replay.names, replay.hands(step)):
            self.say(line)
        if step == replay.steps and view.finished:
            scoring = view.score()
            if scoring is not None:
                for line in score_lines(scoring, view.king, replay.names):
                    self.say(line)
