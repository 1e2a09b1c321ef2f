"""The registration limits (server/limits.py): new accounts per client address, per hour and
per day, each bound held on its own, so one machine cannot make a crowd of puppets to rate
itself up (docs/accounts.md)."""

from __future__ import annotations

import pytest

from kingsbreakfast.server.limits import DAY, HOUR, Refused, Registrations, ServerLimits

ADDRESS = "198.51.100.9"


def test_the_day_bound_holds_when_no_hour_is_full() -> None:
    """One account every two hours never fills an hour, yet the day's bound is reached and
    refused until the first of the day's accounts is a day old."""
    now = [0.0]
    limit = Registrations(per_hour=3, per_day=5, clock=lambda: now[0])
    for _ in range(5):
        limit.check(ADDRESS)
        limit.add(ADDRESS)
        now[0] += 2 * HOUR
    with pytest.raises(Refused) as refused:
        limit.check(ADDRESS)
    assert refused.value.code == "too_many_registrations"
    assert refused.value.params["per_day"] == 5
    # the first account was made at 0: it leaves the window a day later
    assert refused.value.params["retry_after"] == int(DAY - now[0]) + 1
    limit.check("203.0.113.9")  # another address is not held back
    now[0] = DAY + 1.0
    limit.check(ADDRESS)


def test_the_hour_bound_holds_on_its_own() -> None:
    now = [0.0]
    limit = Registrations(per_hour=2, per_day=10, clock=lambda: now[0])
    for _ in range(2):
        limit.check(ADDRESS)
        limit.add(ADDRESS)
        now[0] += 60.0
    with pytest.raises(Refused) as refused:
        limit.check(ADDRESS)
    assert refused.value.code == "too_many_registrations"
    now[0] = HOUR + 1.0
    limit.check(ADDRESS)


def test_the_server_holds_a_day_bound_by_default() -> None:
    limits = ServerLimits()
    assert 0 < limits.registrations_per_hour <= limits.registrations_per_day
