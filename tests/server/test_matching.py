"""Play now's choice of a waiting group (server/matching.py): the same size and speed only,
never one's own group or one with a muted player, accounts with their equals in rating when
such a group waits, else the group waiting longest."""

from __future__ import annotations

from kingsbreakfast.server.matching import RATING_BAND, Member, Pool


def member(seat: int, name: str, account: int | None = None, rating: float | None = None,
           avoids: frozenset[str] = frozenset()) -> Member:
    return Member(seat, f"token-{name}", name, account, rating, avoids)


def test_only_the_same_size_and_speed_and_a_free_seat() -> None:
    pool = Pool()
    small = pool.open("t3", 3, "live")
    pool.open("t4", 4, "turn")
    assert pool.choose(3, "live", "Ann", None, None, frozenset()) is small
    assert pool.choose(3, "turn", "Ann", None, None, frozenset()) is None
    assert pool.choose(5, "live", "Ann", None, None, frozenset()) is None
    small.members = [member(0, "A"), member(1, "B"), member(2, "C")]
    assert pool.choose(3, "live", "Ann", None, None, frozenset()) is None  # full


def test_never_ones_own_group_nor_a_muted_player() -> None:
    pool = Pool()
    group = pool.open("t", 4, "live")
    group.members = [member(0, "Ann", account=7, avoids=frozenset({"dora"}))]
    assert pool.choose(4, "live", "Ann", 7, None, frozenset()) is None  # the same account
    assert pool.choose(4, "live", "Dora", None, None, frozenset()) is None  # Ann muted Dora
    assert pool.choose(4, "live", "Cleo", None, None, frozenset({"ann"})) is None  # Cleo muted Ann
    assert pool.choose(4, "live", "Cleo", None, None, frozenset()) is group


def test_accounts_meet_their_equals_when_enough_wait() -> None:
    pool = Pool()
    strong = pool.open("strong", 3, "live")
    strong.members = [member(0, "S", account=1, rating=30.0)]
    weak = pool.open("weak", 3, "live")
    weak.members = [member(0, "W", account=2, rating=2.0)]
    weak.deadline = strong.deadline - 1  # the weak group has waited longer
    assert pool.choose(3, "live", "X", 3, 29.0, frozenset()) is strong
    assert pool.choose(3, "live", "Y", 4, 3.0, frozenset()) is weak
    # nobody near one's rating: the group that has waited longest, rather than no game
    assert pool.choose(3, "live", "Z", 5, 30.0 + 10 * RATING_BAND, frozenset()) is weak
    # a guest has no rating: the group that has waited longest
    assert pool.choose(3, "live", "G", None, None, frozenset()) is weak


def test_strangers_with_one_name_share_a_group() -> None:
    """Two strangers who chose the same name are matched (the table tells them apart,
    ``Alex (2)``), where a refusal used to keep them from ever meeting."""
    pool = Pool()
    group = pool.open("t", 4, "live")
    group.members = [member(0, "Ann")]
    assert pool.choose(4, "live", "ANN", None, None, frozenset()) is group
    assert pool.choose(4, "live", "Anna", None, None, frozenset()) is group
