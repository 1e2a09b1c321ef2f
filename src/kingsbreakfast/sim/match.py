"""One game between bots, summed up in the facts that tournaments and analyses need."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from kingsbreakfast.bots import Bot
from kingsbreakfast.engine import (
    DRAW_ID,
    FIRST_FEED_ID,
    NUM_DISHES,
    PASS_ID,
    PLACE_DRAGON_ID,
    Rules,
    State,
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game says about its players and about the rules' balance."""

    points: tuple[int, ...]
    discarded: tuple[int, ...]
    win_share: tuple[float, ...]
    """1 for the only winner, 1/k for each of k who share the win (R12), else 0."""
    tie_break: str
    rounds: int
    king: tuple[int, ...]
    """The king's final plate by dish."""
    dragons_fed_from_table: int
    dragons_used_when_drawn: int
    dragons_placed: int
    draws: int
    forfeits: tuple[int, ...] = ()
    """Moves each seat's outside player forfeited to the fallback (bots/outside.py)."""


def play_game(
    bots: Sequence[Bot],
    deck_seed: str | int,
    bot_seeds: Sequence[str | int],
    rules: Rules | None = None,
    first_cook: int = 0,
) -> GameResult:
    """Play one game: seat i is ``bots[i]``, deals from ``deck_seed``, and each bot draws its
    random numbers from its own generator so that one bot's choices never shift another's."""
    n = len(bots)
    state = State.new(n, random.Random(deck_seed), first_cook, rules or Rules())
    rngs = [random.Random(seed) for seed in bot_seeds]
    fed_table = used_drawn = placed = draws = 0
    while True:
        seat = state.to_move
        if seat is None:
            break
        view = state.view(seat)
        pending = view.pending_dragon
        action = bots[seat].act(view, rngs[seat])
        state.play(action, seat)  # checked: a bot's illegal move is a bug to surface
        if action == DRAW_ID:
            draws += 1
        elif action == PLACE_DRAGON_ID:
            placed += 1
        elif FIRST_FEED_ID <= action < PASS_ID:
            if pending:
                used_drawn += 1
            else:
                fed_table += 1
    scoring = state.score()
    shares = [0.0] * n
    for seat in scoring.winners:
        shares[seat] = 1.0 / len(scoring.winners)
    return GameResult(
        points=tuple(scoring.points),
        discarded=tuple(scoring.discarded),
        win_share=tuple(shares),
        tie_break=scoring.tie_break,
        rounds=state.round,
        king=tuple(state.king[:NUM_DISHES]),
        dragons_fed_from_table=fed_table,
        dragons_used_when_drawn=used_drawn,
        dragons_placed=placed,
        draws=draws,
        forfeits=tuple(int(getattr(bot, "forfeits", 0)) for bot in bots),
    )
