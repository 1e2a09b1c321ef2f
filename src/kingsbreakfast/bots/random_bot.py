"""The weakest opponent: any legal action, uniformly at random."""

from __future__ import annotations

import random

from kingsbreakfast.engine import Action, View


class RandomBot:
    """Picks uniformly among the legal actions; a baseline and a friendly first opponent."""

    name = "random"

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to choose")
        return legal[rng.randrange(len(legal))]
