"""The pure parts of tournaments: Swiss pairing, arena seating, scoring by R11/R12 and the
standings (docs/tournaments.md). Properties over many fields and histories."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from kingsbreakfast.server.tournaments.arena import arena_points, arena_tables
from kingsbreakfast.server.tournaments.results import game_results
from kingsbreakfast.server.tournaments.standings import Entry, standings
from kingsbreakfast.server.tournaments.swiss import meetings, pair_round, table_sizes


def _partitions(people: list[int], sizes: list[int]) -> list[list[list[int]]]:
    """Every way to seat ``people`` at tables of ``sizes`` (brute force, small fields)."""
    if not people:
        return [[]]
    first, rest = people[0], people[1:]
    found: list[list[list[int]]] = []
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for companions in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in companions]
            for tail in _partitions(remaining, left):
                found.append([[first, *companions], *tail])
    return found


history = st.dictionaries(
    st.tuples(st.integers(0, 9), st.integers(0, 9)).filter(lambda p: p[0] != p[1])
    .map(frozenset), st.integers(1, 2), max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(3, 5), history, st.randoms(use_true_random=False))
def test_every_entrant_sits_once_and_repeats_are_fewest(
    count: int, seats: int, met: dict[frozenset[int], int], rng: object
) -> None:
    standing = list(range(count))
    rng.shuffle(standing)  # type: ignore[attr-defined]
    tables = pair_round(standing, seats, met)
    seated = [e for table in tables for e in table]
    assert sorted(seated) == sorted(standing)  # everyone, and nobody at two tables
    assert all(1 <= len(table) <= seats for table in tables)
    assert sorted(map(len, tables), reverse=True) == table_sizes(count, seats)
    repeats = sum(meetings(met, t) for t in tables)
    fewest = min(sum(meetings(met, t) for t in p)
                 for p in _partitions(standing, table_sizes(count, seats)))
    assert repeats == fewest


def test_a_round_keeps_like_scores_together() -> None:
    tables = pair_round(list(range(12)), 4, {})
    assert tables == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_byes_go_to_the_lower_tables_and_are_few() -> None:
    assert table_sizes(7, 4) == [4, 3]
    assert table_sizes(6, 5) == [3, 3]
    assert table_sizes(11, 5) == [4, 4, 3]
    assert [len(t) for t in pair_round(list(range(7)), 4, {})] == [4, 3]


def test_three_rounds_of_nine_at_threes_never_repeat() -> None:
    met: dict[frozenset[int], int] = {}
    for _round in range(3):
        for table in pair_round(list(range(9)), 3, met):
            assert meetings(met, table) == 0
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1


def test_a_large_field_is_paired_quickly_and_whole() -> None:
    tables = pair_round(list(range(200)), 5, {})
    assert sorted(e for t in tables for e in t) == list(range(200))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=30, unique=True), st.integers(3, 5),
       st.dictionaries(st.integers(0, 30), st.frozensets(st.integers(0, 30), max_size=4)))
def test_arena_seats_only_the_free_and_each_once(
    free: list[int], seats: int, last: dict[int, frozenset[int]]
) -> None:
    tables = arena_tables(free, seats, last)
    seated = [e for t in tables for e in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(free)
    assert all(len(t) == seats for t in tables)
    assert len(free) - len(seated) < seats  # a table as soon as enough are free
    if tables:
        assert tables[0][0] == free[0]  # the longest waiting first


def test_arena_prefers_new_opponents() -> None:
    assert arena_tables([1, 2, 3, 4, 5], 3, {1: frozenset({2, 3})}) == [[1, 4, 5]]


def test_r12_shared_win_and_pairwise_points() -> None:
    # seats 0 and 1 level on points and discards: they share the win (R12)
    results = game_results([10, 11, None, 12], [20, 20, 20, 5], [1, 1, 3, 0])
    assert [r.place for r in results] == [1, 1, 3, 4]
    assert [r.win for r in results] == [Fraction(1, 2), Fraction(1, 2), 0, 0]
    assert [r.score for r in results] == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    # equal points, fewer discards wins alone (R12)
    alone = game_results([1, 2, 3], [9, 9, 4], [0, 2, 0])
    assert [r.win for r in alone] == [1, 0, 0]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), min_size=3, max_size=5))
def test_a_game_hands_out_all_its_pairwise_points(seats: list[tuple[int, int]]) -> None:
    results = game_results(list(range(len(seats))), [p for p, _ in seats],
                           [d for _, d in seats])
    n = len(seats)
    assert sum(r.score for r in results) == Fraction(n * (n - 1), 2)
    assert sum(r.win for r in results) == 1


def test_swiss_tie_breaks_in_their_order() -> None:
    entries = [Entry(0, "Ann"), Entry(1, "Bea"), Entry(2, "Cy", bot=True), Entry(3, "Dan")]
    games = [
        game_results([0, 1, 2], [30, 10, 5], [0, 0, 0]),
        game_results([3, 1, None], [30, 20, 5], [0, 0, 0]),
    ]
    lines = standings("swiss", entries, games)
    # Ann and Dan: 2 points and a win each; Ann's opponents (Bea 2, Cy 0) = Dan's (Bea 2)
    # on Buchholz, and they scored 30 each: level, ranked by entry
    assert [line.entry.name for line in lines] == ["Ann", "Dan", "Bea", "Cy"]
    assert [line.rank for line in lines] == [1, 1, 3, 4]
    assert lines[0].buchholz == Fraction(2)


def test_arena_streaks_count_double() -> None:
    win = game_results([0, 1, 2], [30, 10, 5], [0, 0, 0])[0]
    loss = game_results([1, 0, 2], [30, 10, 5], [0, 0, 0])[1]
    points, longest = arena_points([win, win, win, loss, win])
    assert points == 2 + 2 + 4 + 2 * 1 + 2
    assert longest == 3
