"""Whether a running table is a tournament's: the one question the TV (:mod:`.tv`) asks of
tournaments, kept in a module of its own so that tournaments can answer it without the TV's
ordering changing shape.

Today a table's stored row (:class:`~.store.GameRecord`) says nothing of tournaments, so no
table is a tournament's; once tables are linked to tournaments, this reads that link from
the same row and the TV lists those tables first.
"""

from __future__ import annotations

from .store import GameRecord


def in_tournament(record: GameRecord) -> bool:
    """True when the table plays a round of a tournament (listed first on the TV)."""
    del record  # no tournament link is stored yet
    return False
