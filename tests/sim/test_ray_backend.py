"""The Ray backend gives the local backend's results for the same seed."""

from __future__ import annotations

import pytest

from kingsbreakfast.sim import TournamentConfig, parse_lineup, run_tournament


def test_ray_and_local_backends_agree() -> None:
    pytest.importorskip("ray")
    config = TournamentConfig(parse_lineup("heuristic,greedy,random", 3), 9, 5)
    local = run_tournament(config, workers=1, backend="local")
    seen: list[int] = []
    on_ray = run_tournament(config, workers=1, backend="ray", progress=seen.append)
    assert on_ray == local
    assert sum(seen) == 9


def test_unknown_backend_is_refused() -> None:
    config = TournamentConfig(parse_lineup("random*3", 3), 3, 1)
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        run_tournament(config, backend="spark")
