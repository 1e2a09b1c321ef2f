"""R11 (scoring) and R12 (winner and tie-break), checked by hand."""

from __future__ import annotations

from kingsbreakfast.engine import score, score_hand
from kingsbreakfast.engine.cards import BREAD, CHEESE, HAM
from kingsbreakfast.engine.scoring import pick_winners


def plate(**counts: int) -> list[int]:
    dishes = ["bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"]
    return [counts.get(dish, 0) for dish in dishes]


def test_r11_each_card_scores_the_kings_count_of_its_dish() -> None:
    king = plate(cheese=4)
    assert score_hand(king, plate(cheese=3)) == (12, 0)  # the rulebook's example: 3 × 4


def test_r11_more_than_the_king_discards_the_whole_dish() -> None:
    king = plate(cheese=4)
    assert score_hand(king, plate(cheese=5)) == (0, 5)


def test_r11_as_many_as_the_king_still_scores() -> None:
    assert score_hand(plate(ham=2), plate(ham=2)) == (4, 0)


def test_r11_a_dish_the_king_lacks_scores_nothing_and_is_discarded() -> None:
    assert score_hand(plate(cheese=4), plate(ham=2)) == (0, 2)


def test_r11_breakdown_per_dish() -> None:
    king = plate(bread=3, cheese=4, ham=1)
    result = score(king, [plate(bread=2, cheese=5, ham=1), plate(), plate(bread=3)])
    first = result.players[0]
    assert first.points == 2 * 3 + 1 * 1
    assert first.discarded == 5
    assert first.dishes[BREAD].points == 6
    assert first.dishes[CHEESE].discarded == 5 and first.dishes[CHEESE].points == 0
    assert first.dishes[HAM].points == 1
    assert first.dishes[CHEESE].dish_id == "cheese"
    assert result.points == [7, 0, 9]
    assert result.winners == (2,) and result.tie_break == "none"


def test_r12_equal_points_fewer_discards_wins() -> None:
    winners, how = pick_winners([20, 20, 5], [3, 1, 0])
    assert winners == (1,) and how == "discards"


def test_r12_equal_points_and_discards_share_the_win() -> None:
    winners, how = pick_winners([20, 20, 20, 5], [1, 3, 1, 0])
    assert winners == (0, 2) and how == "shared"


def test_r12_discards_matter_only_among_the_leaders() -> None:
    winners, how = pick_winners([30, 20, 20], [9, 0, 0])
    assert winners == (0,) and how == "none"
