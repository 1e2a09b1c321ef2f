"""Helpers of the tournament tests: an independent recount of a tournament's standings from
its tables alone (R11 points and discards → R12 places → pairwise points), and checks of the
seating (nobody at two tables at once, everyone seated each Swiss round)."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from typing import Any


def recount(shown: dict[str, Any]) -> dict[int, Fraction]:
    """Each entrant's Swiss points, recounted here without the server's modules: for every
    pair at a finished table, more points wins, then fewer discards (R12), else a half each."""
    points: dict[int, Fraction] = {e["number"]: Fraction(0) for e in shown["entrants"]}
    for game in shown["games"]:
        if game["points"] is None:
            continue
        seats = game["seats"]
        order = [(p, -d) for p, d in zip(game["points"], game["discarded"], strict=True)]
        for a, b in combinations(range(len(seats)), 2):
            for me, other in ((a, b), (b, a)):
                if seats[me] is None:
                    continue
                if order[me] > order[other]:
                    points[seats[me]["entrant"]] += 1
                elif order[me] == order[other]:
                    points[seats[me]["entrant"]] += Fraction(1, 2)
    return points


def check_seating(shown: dict[str, Any]) -> None:
    """No entrant twice at one round's tables, every entrant at every Swiss round (an
    arena's tables are checked by time instead)."""
    if shown["kind"] != "swiss":
        return
    everyone = {e["number"] for e in shown["entrants"]}
    rounds: dict[int, list[int]] = {}
    for game in shown["games"]:
        rounds.setdefault(game["round"], []).extend(
            s["entrant"] for s in game["seats"] if s is not None)
    for seated in rounds.values():
        assert len(seated) == len(set(seated))
        assert set(seated) == everyone


def wait_for(check: Callable[[], Any], what: str, seconds: float = 60.0) -> Any:
    """Poll a REST answer until ``check`` finds what it wants (bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)  # polling another thread's (or process's) work, bounded
    raise AssertionError(f"timed out waiting for {what}")
