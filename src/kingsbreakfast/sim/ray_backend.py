"""The same tournament on a Ray cluster (optional extra ``ray``).

Ray only carries the chunks of game numbers and brings back their results; each game is
still built from the tournament seed and its number, so the results equal the local
backend's for the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .match import GameResult
from .tournament import Progress, TournamentConfig, play_chunk


def run_on_ray(
    config: TournamentConfig,
    chunks: Sequence[tuple[int, int]],
    workers: int,
    address: str | None,
    progress: Progress | None,
) -> list[list[GameResult]]:
    """Play ``chunks`` as Ray tasks; ``ray.init()`` locally unless ``address`` is given."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "the ray backend needs Ray: pip install 'kingsbreakfast[ray]'"
        ) from None
    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            kwargs["num_cpus"] = workers
        else:
            kwargs["address"] = address
        ray.init(**kwargs)
        started_here = True
    try:
        task = ray.remote(play_chunk)
        shared = ray.put(config)
        refs = [task.remote(shared, start, stop) for start, stop in chunks]
        index = {ref: i for i, ref in enumerate(refs)}
        pending = list(refs)
        results: list[list[GameResult] | None] = [None] * len(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = index[ref]
                results[i] = ray.get(ref)
                if progress is not None:
                    start, stop = chunks[i]
                    progress(stop - start)
        return [part for part in results if part is not None]
    finally:
        if started_here:
            ray.shutdown()
