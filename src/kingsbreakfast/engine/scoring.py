"""Final scoring (R11) and the winner (R12), with the per-dish breakdown players ask for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from .cards import DISHES, NUM_DISHES


class DishScoreDict(TypedDict):
    """One dish of one player's scoring in JSON; ``dish`` is the dish's id."""

    dish: str
    king: int
    held: int
    points: int
    discarded: int


class PlayerScoreDict(TypedDict):
    seat: int
    points: int
    discarded: int
    dishes: list[DishScoreDict]


class ScoringDict(TypedDict):
    """A final scoring in JSON: what the command line, the server and the records show.

    ``scores``, ``discarded`` and ``winners`` are the summary a record's outcome prints (one
    number per seat); ``players`` holds the per-dish breakdown a score sheet draws.
    """

    scores: list[int]
    discarded: list[int]
    winners: list[int]
    tie_break: str
    players: list[PlayerScoreDict]


@dataclass(frozen=True, slots=True)
class DishScore:
    """One player's result for one dish: ``held`` cards × ``king`` cards, or discarded."""

    dish: int
    king: int
    held: int
    points: int
    discarded: int

    @property
    def dish_id(self) -> str:
        return DISHES[self.dish]

    def to_dict(self) -> DishScoreDict:
        return {
            "dish": self.dish_id,
            "king": self.king,
            "held": self.held,
            "points": self.points,
            "discarded": self.discarded,
        }


@dataclass(frozen=True, slots=True)
class PlayerScore:
    seat: int
    points: int
    discarded: int
    dishes: tuple[DishScore, ...]

    def to_dict(self) -> PlayerScoreDict:
        return {
            "seat": self.seat,
            "points": self.points,
            "discarded": self.discarded,
            "dishes": [dish.to_dict() for dish in self.dishes],
        }


@dataclass(frozen=True, slots=True)
class Scoring:
    """Everyone's score and the winners; ``tie_break`` says how the winners were found."""

    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    tie_break: str
    """``none`` (one player had the most points), ``discards`` (R12: fewest cards discarded
    among those with the most points) or ``shared`` (still equal: the win is shared)."""

    @property
    def points(self) -> list[int]:
        return [player.points for player in self.players]

    @property
    def discarded(self) -> list[int]:
        return [player.discarded for player in self.players]

    @property
    def places(self) -> list[int]:
        """Each seat's finishing place by R12 (see :func:`places`)."""
        return places(self.points, self.discarded)

    def to_dict(self) -> ScoringDict:
        """The one JSON form of a scoring, so that every program that shows it agrees."""
        return {
            "scores": self.points,
            "discarded": self.discarded,
            "winners": list(self.winners),
            "tie_break": self.tie_break,
            "players": [player.to_dict() for player in self.players],
        }


def score_hand(king: Sequence[int], hand: Sequence[int]) -> tuple[int, int]:
    """Points and discarded cards of one hand against the king's plate (R11).

    Cheap enough for bots that evaluate "if the game ended now" at every node.
    """
    points = discarded = 0
    for dish in range(NUM_DISHES):
        held = hand[dish]
        if held:
            king_count = king[dish]
            if held > king_count:
                discarded += held
            else:
                points += held * king_count
    return points, discarded


def dish_score(dish: int, king_count: int, held: int) -> DishScore:
    if held > king_count:  # R11: more than the king (or any when the king has none)
        return DishScore(dish, king_count, held, 0, held)
    return DishScore(dish, king_count, held, held * king_count, 0)


def standings(points: Sequence[int], discarded: Sequence[int]) -> list[tuple[int, int]]:
    """The R12 order as one comparable value per seat: the greater value ranks higher.

    More points rank higher; on equal points fewer discarded cards (R11) rank higher; equal
    values share a place. :func:`places` and :func:`pick_winners` both read only this.
    """
    return list(zip(points, [-d for d in discarded], strict=True))


def places(points: Sequence[int], discarded: Sequence[int]) -> list[int]:
    """Each seat's finishing place by R12, 1 for the winners: the ranking of the whole table.

    Seats that share a place skip the places after them (1, 1, 3): a seat's place is one
    more than the number of seats that beat it. Bots, ratings and learning code rank
    finished games with this, so that none of them can drift from the rules.
    """
    values = standings(points, discarded)
    best_first = sorted(values, reverse=True)
    return [best_first.index(value) + 1 for value in values]


def pick_winners(points: Sequence[int], discarded: Sequence[int]) -> tuple[tuple[int, ...], str]:
    """The seats in first place by R12, and what decided it: ``none`` when one seat had the
    most points, ``discards`` when fewer discards broke a tie on points, ``shared`` when the
    leaders are equal on both.

    The search asks this at the end of every simulation it plays to the end of the game, so
    the usual case, one seat with the most points, is settled before any standings are built:
    points come first in the R12 order, so that seat is first whatever the discards.
    """
    best = max(points)
    if points.count(best) == 1:
        return (points.index(best),), "none"
    values = standings(points, discarded)
    first = max(values)
    winners = tuple([seat for seat, value in enumerate(values) if value == first])
    return winners, "discards" if len(winners) == 1 else "shared"


def score(king: Sequence[int], hands: Sequence[Sequence[int]]) -> Scoring:
    """Score every hand (R11) and find the winners (R12)."""
    players = []
    for seat, hand in enumerate(hands):
        dishes = tuple(dish_score(d, king[d], hand[d]) for d in range(NUM_DISHES))
        players.append(
            PlayerScore(
                seat,
                sum(ds.points for ds in dishes),
                sum(ds.discarded for ds in dishes),
                dishes,
            )
        )
    winners, tie_break = pick_winners(
        [p.points for p in players], [p.discarded for p in players]
    )
    return Scoring(tuple(players), winners, tie_break)
