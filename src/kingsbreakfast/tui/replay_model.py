"""A record laid out step by step, for stepping forwards and backwards.

Step 0 is the deal of round 1; step k is the moment after the k-th action. A finished game
is shown with every hand open, drawn cards included (docs/rules.md: software may show the whole
record once the game is over); an unfinished record is shown as a spectator sees it, so a
game saved mid-way gives nothing hidden away.
"""

from __future__ import annotations

from kingsbreakfast.engine import HandView, Record, State, View
from kingsbreakfast.narrate import narrate, round_opening


class Replay:
    """Every state of a record, with its narration."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.names = list(record.players)
        state = record.start()
        self._states: list[State] = [state.clone()]
        for action in record.actions:
            state.play(action)
            self._states.append(state.clone())
        self.reveal = state.is_over
        self._lines: list[list[str]] = [[round_opening(self._states[0].view(None), self.names)]]
        for step, action in enumerate(record.actions):
            before, after = self._states[step], self._states[step + 1]
            mover = before.to_move if self.reveal else None
            self._lines.append(narrate(before.view(mover), action, after.view(mover), self.names))

    @property
    def steps(self) -> int:
        """The number of actions: steps run from 0 to this."""
        return len(self.record.actions)

    def view(self, step: int) -> View:
        return self._states[step].view(None)

    def hands(self, step: int) -> list[HandView] | None:
        """Every hand, drawn cards included, when the record is of a finished game."""
        if not self.reveal:
            return None
        state = self._states[step]
        return [state.view(seat).hands[seat] for seat in range(state.num_players)]

    def lines(self, step: int) -> list[str]:
        """The sentences of action ``step`` (step 0: the opening deal)."""
        return self._lines[step]

    def log(self, step: int) -> list[str]:
        """Everything told up to and including ``step``."""
        return [line for lines in self._lines[: step + 1] for line in lines]
