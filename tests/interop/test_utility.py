"""What a finished game is worth to each seat: the rank utility follows the R12 places."""

from __future__ import annotations

import pytest

from kingsbreakfast.engine import score
from kingsbreakfast.interop.utility import utilities


def plate(**counts: int) -> list[int]:
    dishes = ["bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"]
    return [counts.get(dish, 0) for dish in dishes]


def test_rank_utility_breaks_equal_points_by_fewer_discards_r12() -> None:
    king = plate(cheese=4, ham=1)
    # 8 points and no discard, 8 points and 2 discards (ham beyond the king's one), 4 points
    scoring = score(king, [plate(cheese=2), plate(cheese=2, ham=2), plate(cheese=1)])
    assert scoring.points == [8, 8, 4] and scoring.discarded == [0, 2, 0]
    assert utilities(scoring, "rank") == [1.0, 0.0, -1.0]


def test_rank_utility_gives_seats_equal_on_points_and_discards_the_same_value_r12() -> None:
    king = plate(cheese=4, ham=2)
    hands = [plate(cheese=2), plate(ham=4), plate(cheese=2), plate(cheese=1)]
    scoring = score(king, hands)
    assert scoring.points == [8, 0, 8, 4] and scoring.discarded == [0, 4, 0, 0]
    values = utilities(scoring, "rank")
    # the two winners each beat two seats; the third beats one and loses to two
    assert values == pytest.approx([2 / 3, -1.0, 2 / 3, -1 / 3])
    assert sum(values) == pytest.approx(0.0)


def test_score_utility_is_the_points() -> None:
    scoring = score(plate(cheese=4), [plate(cheese=2), plate(cheese=1), plate()])
    assert utilities(scoring, "score") == [8.0, 4.0, 0.0]
