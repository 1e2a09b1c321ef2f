"""R11 (scoring) and R12 (winner and tie-break), checked by hand."""

from __future__ import annotations

import json

from kingsbreakfast.engine import places, score, score_hand
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


def test_r12_places_rank_by_points_then_fewer_discards() -> None:
    assert places([10, 30, 20], [0, 0, 0]) == [3, 1, 2]
    assert places([20, 20, 5], [3, 1, 0]) == [2, 1, 3]  # equal points: fewer discards first


def test_r12_seats_equal_on_points_and_discards_share_a_place() -> None:
    # two share first, the next seat is third; two share third further down
    assert places([20, 20, 9, 5, 5], [1, 1, 4, 2, 2]) == [1, 1, 3, 4, 4]
    assert places([7, 7, 7], [0, 0, 0]) == [1, 1, 1]


def test_r12_discards_never_lift_a_seat_above_one_with_more_points() -> None:
    assert places([30, 29], [15, 0]) == [1, 2]


def test_r12_the_winners_are_exactly_the_first_place() -> None:
    for points, discarded in [([20, 20, 20, 5], [1, 3, 1, 0]), ([3, 9, 9], [0, 2, 1])]:
        winners, _ = pick_winners(points, discarded)
        assert winners == tuple(s for s, p in enumerate(places(points, discarded)) if p == 1)


def test_r12_scoring_knows_every_seats_place() -> None:
    king = plate(cheese=4, ham=2)
    result = score(king, [plate(cheese=2), plate(cheese=1, ham=2), plate(ham=3)])
    assert result.points == [8, 8, 0] and result.discarded == [0, 0, 3]
    assert result.places == [1, 1, 3]
    assert result.winners == (0, 1) and result.tie_break == "shared"


def test_scoring_to_dict_has_the_summary_and_the_breakdown() -> None:
    king = plate(bread=3, cheese=4)
    result = score(king, [plate(bread=2, cheese=5), plate(bread=3), plate(cheese=1)])
    data = result.to_dict()
    assert list(data) == ["scores", "discarded", "winners", "tie_break", "players"]
    assert data["scores"] == [6, 9, 4]
    assert data["discarded"] == [5, 0, 0]
    assert data["winners"] == [1] and data["tie_break"] == "none"
    first = data["players"][0]
    assert list(first) == ["seat", "points", "discarded", "dishes"]
    assert (first["seat"], first["points"], first["discarded"]) == (0, 6, 5)
    assert [d["dish"] for d in first["dishes"]] == [
        "bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"
    ]
    bread, cheese = first["dishes"][:2]
    assert bread == {"dish": "bread", "king": 3, "held": 2, "points": 6, "discarded": 0}
    assert cheese == {"dish": "cheese", "king": 4, "held": 5, "points": 0, "discarded": 5}
    assert json.loads(json.dumps(data)) == data  # plain JSON: lists, not tuples
