"""The levels' numbers that a bot and its compiled port both read.

They live here, below the bots, so that the port (:mod:`.policies`) reads the very number the
bot plays with, without importing the bots; this module imports nothing, so the registry of
bots reads it without loading the compiler.
"""

from __future__ import annotations

from typing import Final

MEDIUM_MISTAKES: Final = 0.25
"""Share of medium's moves played at random: a step below hard, which is the same card
counter without slips."""
