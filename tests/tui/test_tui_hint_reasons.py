"""The hint's reasons are read under their move, which names its dishes: no reason names a
dish again ("take ham / you'd hold more ham than the king" read twice), in any language."""

from __future__ import annotations

import pytest

from kingsbreakfast.bots.reasons import KEYS
from kingsbreakfast.engine import DISHES
from kingsbreakfast.i18n import LANGUAGES, language
from kingsbreakfast.tui import strings


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_reason_names_a_dish(code: str) -> None:
    with language(code):
        names = [strings.dish_name(dish) for dish in range(len(DISHES))]
        for dish in DISHES:
            params: dict[str, str | int] = {"dish": dish, "a": dish, "b": DISHES[0], "points": 3}
            for key in KEYS:
                words = strings.hint_reason(key, params)
                assert words and words != key, (code, key)
                assert not [name for name in names if name.lower() in words.lower()], (
                    code, key, words)
            for points in (1, 2, 5):
                assert str(points) in strings.hint_reason("scores", {"points": points})
