"""Seat-rotated tournaments between bots, played in parallel processes or on Ray.

Games come in blocks of ``players``: a block deals the same deck ``players`` times with the
line-up rotated one seat further each time, so every bot plays every seat (and the cook's
position, R3) on the same cards. That cancels most of the luck of the deal and measures seat
advantage without bias. Every game's deck and every bot's random numbers are derived from
the tournament seed and the game's number alone, so the results do not depend on the
number of workers, the order they finish in, or the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context

from kingsbreakfast.engine import Rules

from .match import GameResult, play_game
from .specs import BotSpec

BACKENDS = ("local", "ray")

Progress = Callable[[int], None]
"""Called with the number of games just finished."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything that determines a tournament's results."""

    lineup: tuple[BotSpec, ...]
    """The bot of each seat in the first game of a block; later games rotate it."""
    games: int
    seed: int
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if not 3 <= len(self.lineup) <= 5:
            raise ValueError(f"a table has 3 to 5 players (R2), not {len(self.lineup)}")
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def labels(self) -> list[str]:
        """Distinct bot labels in line-up order."""
        return list(dict.fromkeys(spec.label for spec in self.lineup))


@dataclass(frozen=True, slots=True)
class PlannedGame:
    index: int
    block: int
    seats: tuple[int, ...]
    """seats[s] = index into the line-up of the bot at seat s."""
    deck_seed: str
    bot_seeds: tuple[str, ...]


def game_plan(config: TournamentConfig, index: int) -> PlannedGame:
    """Game ``index``: its deck (shared by its block), its rotated seats and its bot seeds."""
    n = config.players
    block, shift = divmod(index, n)
    seats = tuple((seat - shift) % n for seat in range(n))
    deck_seed = f"kingsbreakfast-tournament:{config.seed}:deck:{block}"
    bot_seeds = tuple(f"kingsbreakfast-tournament:{config.seed}:bot:{index}:{s}" for s in range(n))
    return PlannedGame(index, block, seats, deck_seed, bot_seeds)


def play_planned(config: TournamentConfig, index: int) -> GameResult:
    plan = game_plan(config, index)
    bots = [config.lineup[entry].build() for entry in plan.seats]
    return play_game(bots, plan.deck_seed, plan.bot_seeds, config.rules)


def play_chunk(config: TournamentConfig, start: int, stop: int) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` (the unit of work sent to a worker)."""
    return [play_planned(config, index) for index in range(start, stop)]


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(50, games // (workers * 8) or 1))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def run_tournament(
    config: TournamentConfig,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play the tournament and return the games in order (game 0 first)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose {' or '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    chunks = _chunks(config.games, workers)
    if backend == "ray":
        from .ray_backend import run_on_ray

        parts = run_on_ray(config, chunks, workers, address, progress)
    elif workers == 1:
        parts = []
        for start, stop in chunks:
            parts.append(play_chunk(config, start, stop))
            if progress is not None:
                progress(stop - start)
    else:
        parts = list(_run_processes(config, chunks, workers, progress))
    return [game for part in parts for game in part]


def _run_processes(
    config: TournamentConfig,
    chunks: Sequence[tuple[int, int]],
    workers: int,
    progress: Progress | None,
) -> Iterator[list[GameResult]]:
    # Workers start from a fresh server process, not a fork of this one: a fork copies the
    # locks of any threads this process runs (JAX's, a server's) and may deadlock on them.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("forkserver")) as pool:
        futures = {
            pool.submit(play_chunk, config, start, stop): stop - start for start, stop in chunks
        }
        for future in as_completed(futures):  # progress as chunks finish, in any order
            future.result()  # a worker's error stops the tournament here
            if progress is not None:
                progress(futures[future])
        for future in futures:  # the results in game order, whatever order they finished in
            yield future.result()
