"""The legality tables (rules.py) against the rules read plainly, for every kind of moment:
R5a/R5b (empty table, empty deck, the pass), R6 (takes), R7 (draw), R7a (a drawn dragon),
R8 (feeds and the dragon minimum). The tables are built once and joined lists are cached;
the cache is emptied first so that every list is built here, not remembered."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from kingsbreakfast.engine import (
    ALL_ACTIONS,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    NUM_DISHES,
    PASS_ID,
    PLACE_DRAGON_ID,
    Rules,
)
from kingsbreakfast.engine import rules as rules_module
from kingsbreakfast.engine.rules import legal_actions

ALL_RULES = [Rules(e, d) for e in ("draw_or_feed", "must_draw") for d in (1, 2)]


def plainly(
    table: list[int], dragons: int, king: list[int], deck: int, pending: bool, rules: Rules
) -> list[int]:
    """The legal action ids, straight from docs/rules.md."""
    feeds = [
        FIRST_FEED_ID + index
        for index, (a, b) in enumerate(FEED_PAIRS)
        if (king[a] >= 2 if a == b else king[a] >= 1 and king[b] >= 1)
    ]
    if pending:  # R7a: feed the drawn dragon or place it
        return sorted([PLACE_DRAGON_ID, *feeds])
    legal = [dish for dish in range(NUM_DISHES) if table[dish]]  # R6
    if deck:
        legal.append(DRAW_ID)  # R7
    table_empty = not any(table)
    if dragons >= rules.dragon_min_on_table and not (
        table_empty and deck and rules.empty_table == "must_draw"
    ):
        legal += feeds  # R8, R5a
    return sorted(legal) or [PASS_ID]  # R5b


counts = st.lists(st.integers(0, 3), min_size=NUM_DISHES, max_size=NUM_DISHES)


@settings(max_examples=examples(600), deadline=None)
@given(
    table=counts, dragons=st.integers(0, 5), king=counts, deck=st.integers(0, 3),
    pending=st.booleans(), rules=st.sampled_from(ALL_RULES),
)
def test_the_tables_say_what_the_rules_say(
    table: list[int], dragons: int, king: list[int], deck: int, pending: bool, rules: Rules
) -> None:
    rules_module._JOINED.clear()
    got = legal_actions(table, dragons, king, deck, pending, rules)
    assert [int(action) for action in got] == plainly(table, dragons, king, deck, pending, rules)
    again = legal_actions(table, dragons, king, deck, pending, rules)  # from the cache now
    assert again == got


def test_every_corner_of_the_tables_agrees_with_the_rules() -> None:
    """The corners exhaustively: an empty or a one-dish table, a deck or none, 0 to 2 table
    dragons, a pending dragon or not, a king with nothing, one dish, a pair or a double."""
    kings = [[0] * 7, [1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0, 0]]
    tables = [[0] * 7, [0, 0, 1, 0, 0, 0, 0]]
    rules_module._JOINED.clear()
    seen = set()
    for table, dragons, king, deck, pending, rules in itertools.product(
        tables, range(3), kings, (0, 4), (False, True), ALL_RULES
    ):
        got = [int(a) for a in legal_actions(table, dragons, king, deck, pending, rules)]
        assert got == plainly(table, dragons, king, deck, pending, rules), (
            table, dragons, king, deck, pending, rules
        )
        seen.add(tuple(got))
    assert len(seen) > 12
    assert all(ALL_ACTIONS[i] == i for i in range(38))
