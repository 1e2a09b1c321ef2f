"""``View.to_dict`` is what a client is sent: pinned whole for a seeded game (a spectator, the
seat with a drawn dragon pending, another seat, and a seat after the end), so no field can
change or leak without a test saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kingsbreakfast.engine import read_record

GOLDEN = Path(__file__).parent.parent / "golden"
CASE = json.loads((GOLDEN / "views" / "08-views.json").read_text())


def seat_of(name: str) -> int | None:
    return None if name == "spectator" else int(name)


@pytest.mark.parametrize("name", sorted(CASE["views"]))
def test_a_view_in_play_is_sent_as_pinned(name: str) -> None:
    record = read_record(json.loads((GOLDEN / CASE["record"]).read_text())["record"])
    state = record.start()
    for action in record.actions[: CASE["after"]]:
        state.play(action)
    assert state.view(seat_of(name)).to_dict() == CASE["views"][name]


def test_the_pinned_views_show_what_they_are_for() -> None:
    """The fixture covers the cases that matter: a pending dragon with its two choices, a
    seat's own hidden draws shown only to it, and every hand shown after the end (R11)."""
    own, other, spectator = (CASE["views"][k] for k in ("0", "4", "spectator"))
    assert own["pending_dragon"] and own["to_move"] == 0
    assert own["legal"][0] == "place_dragon"  # R7a: place it, or feed it
    assert all(action.startswith("feed ") for action in own["legal"][1:])
    assert own["legal"] == other["legal"] == spectator["legal"]  # legality is public
    assert own["hands"][0]["hidden"] == 2 and "draws" in own["hands"][0]
    assert "draws" not in other["hands"][0] and "draws" in other["hands"][4]
    assert all("draws" not in hand for hand in spectator["hands"])
    final = CASE["final seat 1"]
    assert final["to_move"] is None and final["legal"] == []
    assert all("draws" in hand for hand in final["hands"])


def test_the_view_after_the_end_is_sent_as_pinned() -> None:
    state = read_record(json.loads((GOLDEN / CASE["record"]).read_text())["record"]).replay()
    assert state.view(1).to_dict() == CASE["final seat 1"]
