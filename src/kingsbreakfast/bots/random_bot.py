"""The weakest opponent: any legal action, uniformly at random."""

from __future__ import annotations

import random

from kingsbreakfast.engine import Action, View

from .base import legal_choices


class RandomBot:
    """Picks uniformly among the legal actions; a baseline and a friendly first opponent."""

    name = "random"
    description = (
        "Random picks any legal action with equal chance. It takes dishes the king will never "
        "match and feeds the dragon for no reason, so it is a baseline for measuring the other "
        "bots and a gentle first opponent for a child learning the rules."
    )

    def act(self, view: View, rng: random.Random) -> Action:
        legal = legal_choices(view)
        return legal[rng.randrange(len(legal))]
