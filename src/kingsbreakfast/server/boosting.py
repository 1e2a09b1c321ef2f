"""Boosting: accounts that feed one account rated results, found by the shape of their games.

A booster needs opponents who lose on purpose, and one person can only make so many
accounts from so many addresses. So the rule looks, each time a game with two or more
accounts is settled, at what each account of it met within :data:`WINDOW`, counting the
current game too (docs/leaderboard.md has the reasoning):

- **early endings from one source**: :data:`EARLY_GAMES` or more of the account's games in
  which another account left early (before :data:`~.rating_rules.EARLY_MOVES` of its own moves),
  where those leavers are one account or sat down from one address. Strangers who quit do
  not share an address; puppets made from a few addresses do;
- **always the same opponents**: :data:`RING_GAMES` or more games in which every other
  account came from at most :data:`RING_SOURCES` addresses (an account whose address is not
  known counts as a source of its own): a ring playing only among itself.

A pattern flags the account and the accounts that made it for review (they leave the
leaderboard, and their games are no longer rated) and unrates the games that showed it. A
flag is a question for a person, not a verdict: the operator clears it by deleting the
account's row of ``boosting_flags``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Final

from .rating_store import Meeting

WINDOW: Final = timedelta(days=7)
EARLY_GAMES: Final = 3
RING_GAMES: Final = 10
RING_SOURCES: Final = 2


@dataclass(frozen=True, slots=True)
class Pattern:
    """A boosting pattern found around one account."""

    reason: str
    """``early_endings`` or ``same_opponents``."""
    accounts: frozenset[int]
    """The account and the accounts that made the pattern with it."""
    games: frozenset[str] = field(default_factory=frozenset)


def _source(account_id: int, address: str) -> str:
    return f"address:{address}" if address else f"account:{account_id}"


def early_endings(account_id: int, endings: list[Meeting]) -> Pattern | None:
    """:data:`EARLY_GAMES` early endings that came from one account or one address."""
    by_source: dict[str, list[Meeting]] = defaultdict(list)
    for meeting in endings:
        _game, leaver, address = meeting
        by_source[f"account:{leaver}"].append(meeting)
        if address:
            by_source[f"address:{address}"].append(meeting)
    for source in sorted(by_source):
        found = by_source[source]
        if len({game for game, _, _ in found}) >= EARLY_GAMES:
            return Pattern(
                "early_endings", frozenset({account_id} | {a for _, a, _ in found}),
                frozenset(game for game, _, _ in found),
            )
    return None


def same_opponents(account_id: int, meetings: list[Meeting]) -> Pattern | None:
    """:data:`RING_GAMES` games against accounts from at most :data:`RING_SOURCES`
    addresses."""
    games = {game for game, _, _ in meetings}
    sources = {_source(other, address) for _, other, address in meetings}
    if len(games) >= RING_GAMES and len(sources) <= RING_SOURCES:
        return Pattern(
            "same_opponents", frozenset({account_id} | {a for _, a, _ in meetings}),
            frozenset(games),
        )
    return None


def patterns(
    account_id: int, endings: list[Meeting], meetings: list[Meeting]
) -> list[Pattern]:
    """Every pattern around one account (its early endings and all its meetings in the
    window, the current game's included)."""
    found = [early_endings(account_id, endings), same_opponents(account_id, meetings)]
    return [p for p in found if p is not None]
