"""Final scoring (R11) and the winner (R12), with the per-dish breakdown players ask for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DISHES, NUM_DISHES


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


@dataclass(frozen=True, slots=True)
class PlayerScore:
    seat: int
    points: int
    discarded: int
    dishes: tuple[DishScore, ...]


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


def pick_winners(points: Sequence[int], discarded: Sequence[int]) -> tuple[tuple[int, ...], str]:
    """R12: most points; on equal points fewest discarded cards; still equal: shared."""
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    if len(leaders) == 1:
        return tuple(leaders), "none"
    fewest = min(discarded[seat] for seat in leaders)
    winners = tuple(seat for seat in leaders if discarded[seat] == fewest)
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
