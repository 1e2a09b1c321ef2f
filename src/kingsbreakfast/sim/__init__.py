"""Simulations: matches, tournaments, statistics, batch simulation.

Tournaments (:mod:`.tournament`) play seat-rotated games between bots in parallel, locally or
on Ray; :mod:`.stats` and :mod:`.ratings` turn the games into win shares with confidence
intervals, score distributions, seat advantage and OpenSkill ratings; :mod:`.analyze` answers
the balance questions of ``docs/analysis.md``. Heavy packages (matplotlib, ray, openskill) are
imported only by the functions that need them.
"""

from .match import GameResult, play_game
from .specs import BotSpec, parse_lineup, parse_spec
from .tournament import TournamentConfig, game_plan, run_tournament

__all__ = [
    "BotSpec",
    "GameResult",
    "TournamentConfig",
    "game_plan",
    "parse_lineup",
    "parse_spec",
    "play_game",
    "run_tournament",
]
