"""A finished game reviewed for one seat: what each of its choices cost, by the master bot.

The review replays the record and stops at every decision of the seat. There it asks the
hints (:func:`.hint.rank_actions`) about the view that seat had at that moment — exactly
what the engine lets that seat know then: its own drawn cards, never another seat's, nor
the order of the deck — and compares the action the seat chose with the one the master bot
ranks first. So the review judges a choice by what the player could have known, never by
how the hidden cards turned out, and changing the other seats' hidden draws or the undealt
cards leaves a seat's review exactly as it was (``tests/bots/test_review.py``).

A decision with one legal action (a forced ``pass``, say) is no choice and is left out.

Why :data:`BIG_LOSS` is 0.05: a seat's fair share of the win is a third to a fifth (3 to 5
players), so a choice that gives up five points of win chance throws away a sixth to a
quarter of that share in one move. ``benchmarks/review_losses.py`` measures where the mark
falls (4,000 four-player games, two seeds, seat-rotated): it marks 10.4% of the hard bot's
choices and 29.9% of the random bot's, 2.9 times as many; at half the threshold the two
are 18.4% and 50.7% (2.8 times), at twice 4.6% and 10.1% (2.2 times). Of the three, 0.05
sets the two kinds of player furthest apart, and it leaves a good player about one marked
choice in ten (figures in ``docs/analysis.md``, *Reviewing a game*).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # the only TypedDict pydantic reads on Python 3.11 (the server's schema uses these)
    from typing_extensions import TypedDict

from kingsbreakfast.engine import Action, KingsBreakfastError, Record, View

from .hint import ActionEstimate, rank_actions

BIG_LOSS: Final = 0.05
"""Win chance given up (0-1) from which a choice is marked as a big loss."""
BIGGEST: Final = 3
"""How many of the costliest choices the summary names."""


class ReviewError(KingsBreakfastError, ValueError):
    """A review that cannot be made: the game is not over, or there is no such seat."""

    code = "review_not_over"


class ReviewedMoveDict(TypedDict):
    """One reviewed decision (actions as their short text, ``take ham``), as
    ``kingsbreakfast review --json`` prints it and the server's review route sends it."""

    move: int
    """The move's number in the game, from 1."""
    action_index: int
    round: int
    action: str
    """The seat's choice, as the record's short text (``take ham``)."""
    best: str
    """The master bot's first choice from the same view."""
    position: str
    """The seat's view at the decision as one line (``View.to_text``: docs/engine.md); it
    shows only what the seat could see."""
    choices: int
    expected_points: float
    best_points: float
    win_chance: float
    best_win_chance: float
    points_lost: float
    win_lost: float
    big_loss: bool


class SeatReviewDict(TypedDict):
    seat: int
    player: str
    moves: list[ReviewedMoveDict]
    decisions: int
    forced: int
    points_lost: float
    win_lost: float
    big_losses: int
    biggest: list[int]
    big_loss_threshold: float


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision of the seat: its choice beside the master bot's first choice."""

    action_index: int
    """Where the action stands in the record (0-based): the replay's step before it."""
    round: int
    chosen: Action
    best: Action
    position: str
    """The seat's view of the position, as one line (``View.to_text``): the deck by its size
    and the others' drawn cards by their count, so it shows nothing the seat could not see."""
    choices: int
    """How many legal actions the seat had."""
    expected_points: float
    """The final points (R11) the master bot expects after the chosen action."""
    best_points: float
    win_chance: float
    """The share of the win (0-1, R12) it expects after the chosen action."""
    best_win_chance: float
    points_lost: float
    """Points the best action expects beyond the chosen one (0 when the choice expects as
    many or more)."""
    win_lost: float
    """Win chance the choice gives up against the best action (0 for the best)."""

    @property
    def move(self) -> int:
        """The move's number in the game, counted from 1 as a person does."""
        return self.action_index + 1

    @property
    def big_loss(self) -> bool:
        return self.win_lost >= BIG_LOSS

    def to_dict(self) -> ReviewedMoveDict:
        return {
            "move": self.move,
            "action_index": self.action_index,
            "round": self.round,
            "action": str(self.chosen),
            "best": str(self.best),
            "position": self.position,
            "choices": self.choices,
            "expected_points": self.expected_points,
            "best_points": self.best_points,
            "win_chance": self.win_chance,
            "best_win_chance": self.best_win_chance,
            "points_lost": self.points_lost,
            "win_lost": self.win_lost,
            "big_loss": self.big_loss,
        }


@dataclass(frozen=True, slots=True)
class SeatReview:
    """Every decision of one seat in a finished game, and what they cost in all."""

    seat: int
    player: str
    moves: tuple[ReviewedMove, ...]
    forced: int
    """Turns with a single legal action: no choice, so not reviewed."""

    @property
    def points_lost(self) -> float:
        return round(sum(move.points_lost for move in self.moves), 6)

    @property
    def win_lost(self) -> float:
        return round(sum(move.win_lost for move in self.moves), 6)

    @property
    def big_losses(self) -> int:
        return sum(move.big_loss for move in self.moves)

    @property
    def biggest(self) -> tuple[ReviewedMove, ...]:
        """The costliest choices, most win chance lost first (points break ties, then the
        earlier move); a choice that lost nothing is never among them."""
        costly = [move for move in self.moves if move.win_lost > 0 or move.points_lost > 0]
        costly.sort(key=lambda m: (-m.win_lost, -m.points_lost, m.action_index))
        return tuple(costly[:BIGGEST])

    def to_dict(self) -> SeatReviewDict:
        return {
            "seat": self.seat,
            "player": self.player,
            "moves": [move.to_dict() for move in self.moves],
            "decisions": len(self.moves),
            "forced": self.forced,
            "points_lost": self.points_lost,
            "win_lost": self.win_lost,
            "big_losses": self.big_losses,
            "biggest": [move.move for move in self.biggest],
            "big_loss_threshold": BIG_LOSS,
        }


Ranker = Callable[[View], list[ActionEstimate]]


def review_seat(record: Record, seat: int, rank: Ranker = rank_actions) -> SeatReview:
    """The review of ``seat``'s decisions in the finished game of ``record``.

    ``record`` is a checked record (``read_record``); an unfinished game is refused
    (``review_not_over``), as is a seat the game does not have (``bad_review_seat``).
    ``rank`` is the ranking asked at each decision, given only that seat's view.
    """
    players = len(record.players)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ReviewError(
            f"there is no seat {seat!r} in this game: seats are 0 to {players - 1}",
            "bad_review_seat", seat=repr(seat), last=players - 1,
        )
    state = record.start()
    moves: list[ReviewedMove] = []
    forced = 0
    for index, action in enumerate(record.actions):
        if state.to_move == seat:
            view = state.view(seat)  # what the seat could see then, and nothing more
            if len(view.legal_actions()) > 1:
                moves.append(_judged(index, view, action, rank(view)))
            else:
                forced += 1
        state.apply(action)  # a checked record: every action is legal
    if not state.is_over:
        raise ReviewError(
            "the game in this record is not over: a review is made once it has ended",
            "review_not_over",
        )
    return SeatReview(seat, record.players[seat], tuple(moves), forced)


def _judged(index: int, view: View, chosen: Action, ranking: list[ActionEstimate]) -> ReviewedMove:
    best = ranking[0]
    mine = next(estimate for estimate in ranking if estimate.action == chosen)
    return ReviewedMove(
        action_index=index,
        round=view.round,
        chosen=chosen,
        best=best.action,
        position=view.to_text(),
        choices=len(ranking),
        expected_points=mine.expected_points,
        best_points=best.expected_points,
        win_chance=mine.win_chance,
        best_win_chance=best.win_chance,
        points_lost=round(max(0.0, best.expected_points - mine.expected_points), 6),
        win_lost=round(max(0.0, best.win_chance - mine.win_chance), 6),
    )


__all__ = [
    "BIGGEST",
    "BIG_LOSS",
    "ReviewError",
    "ReviewedMove",
    "ReviewedMoveDict",
    "SeatReview",
    "SeatReviewDict",
    "review_seat",
]
