"""OpenSkill (Plackett-Luce) ratings of the bots from a tournament's games, in game order.

A bot that holds several seats of one game (``hard,medium*3``) is rated through one copy per
seat, and its rating then moves by the sum of the copies' changes: its seats compete with each
other too, and those results cancel out. The order of the games is fixed by the tournament,
so the ratings are as reproducible as the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingsbreakfast.engine import places

from .match import GameResult
from .tournament import TournamentConfig, game_plan


@dataclass(frozen=True, slots=True)
class Rating:
    label: str
    mu: float
    sigma: float
    ordinal: float
    """mu - 3 sigma: a conservative skill estimate, the usual leaderboard figure."""


def rate(config: TournamentConfig, games: Sequence[GameResult]) -> list[Rating]:
    """Ratings in line-up order (needs the ``sim`` extra: openskill)."""
    return rate_many([(config, games)], config.labels)


def rate_many(
    played: Sequence[tuple[TournamentConfig, Sequence[GameResult]]], labels: Sequence[str]
) -> list[Rating]:
    """Ratings of ``labels`` over several tournaments' games, taken in the order given (a
    leaderboard's tables one after another)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RuntimeError("ratings need OpenSkill: pip install 'kingsbreakfast[sim]'") from None
    model = PlackettLuce()
    mu = {label: model.mu for label in labels}
    sigma = {label: model.sigma for label in labels}
    for config, games in played:
        for index, game in enumerate(games):
            plan = game_plan(config, index)
            seat_labels = [config.lineup[entry].label for entry in plan.seats]
            teams = [[model.rating(mu=mu[lab], sigma=sigma[lab])] for lab in seat_labels]
            ranks = [float(place) for place in places(game.points, game.discarded)]  # R12
            new = model.rate(teams, ranks=ranks)
            delta_mu: dict[str, float] = {}
            new_sigma: dict[str, float] = {}
            for seat, label in enumerate(seat_labels):
                player = new[seat][0]
                delta_mu[label] = delta_mu.get(label, 0.0) + player.mu - mu[label]
                new_sigma[label] = min(new_sigma.get(label, sigma[label]), player.sigma)
            for label, change in delta_mu.items():
                mu[label] += change
                sigma[label] = new_sigma[label]
    return [
        Rating(label, mu[label], sigma[label], mu[label] - 3 * sigma[label]) for label in labels
    ]
