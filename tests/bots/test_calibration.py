"""The hint's correction of the network's numbers (bots/calibration.py): increasing in the
network's numbers stage by stage (so a hint's order within its stage and its twins survive),
every position in one stage (R4, R10), and the numbers within their ranges."""

from __future__ import annotations

import random

from kingsbreakfast.bots import calibration
from kingsbreakfast.engine import State


def test_the_shipped_maps_increase_and_stay_in_range() -> None:
    for stage in range(len(calibration.STAGES)):
        assert calibration.POINTS_LINES[stage][1] > 0 and calibration.WIN_CURVES[stage][1] > 0
        raws = [i / 100 for i in range(101)]
        wins = [calibration.win_chance(stage, raw) for raw in raws]
        assert all(0.0 < w < 1.0 for w in wins)
        assert wins == sorted(wins)
        points = [calibration.points(stage, p) for p in range(0, 160, 5)]
        assert points == sorted(points) and min(points) >= 0.0


def test_stages_cover_every_position_and_follow_the_deck() -> None:
    rng = random.Random(3)
    state = State.new(4, rng)
    seen = []
    while not state.is_over:
        view = state.view(state.to_move)
        stage = calibration.stage_of(view)
        low, high = calibration.STAGES[stage]
        assert low <= calibration.rounds_to_come(view) <= high
        seen.append(stage)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert seen == sorted(seen, reverse=True)  # the deck only shrinks (R4, R7)
    assert seen[-1] == 0 and seen[0] == len(calibration.STAGES) - 1
