"""The game's last turns played out: the hint's numbers where the end is in sight.

When at most one turn of the game is left after the mover's (the last round, R4, R10: the
deck cannot set another table; and at most one seat still to play after the mover), all that
is left is that seat's choice and the cards the mover cannot see. The network's
estimates are weak there, where a learner checks them most: one move before the end of
``examples/game-4p`` it gives seat 1 a few percent of the win for taking a dish it would then
hold more of than the king, when no sensible play by seat 2 lets seat 1 win whatever seat 2
holds, and taking ham scores thirty points more. A few hundred short playouts cost little
there, so the hint plays them instead of guessing:

* :data:`WORLDS` worlds (fewer where many actions are open: :func:`worlds_for`) are dealt
  from the view (the engine's :class:`WorldSampler`: every public count kept, the unseen
  cards and the deck's order dealt at random), from a fixed seed, so the numbers depend on
  the view alone;
* each legal action is played in every world, all of them in the same worlds, so the luck
  of the deal falls on the actions alike;
* master bots finish the game (a drawn dragon's feeding too, R7a, R8);
* an action's numbers are the mover's mean final points (R11) and mean share of the win
  (R12, a shared win in part).

Earlier in the last round the rest of the game is longer (up to four turns of others at five
players, each with up to some thirty ways to feed a drawn dragon) and a hint would take
seconds; the calibrated network (:mod:`.calibration`) answers there. Only the view is read:
a world's hidden cards are dealt from what the view does not show, so a hint from another
seat's view deals the mover's draws too.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Final

from kingsbreakfast.engine import NUM_DISHES, Action, HandView, State, View, WorldSampler

from .master import MasterBot, view_rows

WORLDS: Final = 32
"""Worlds per hint: with common worlds, enough to order actions whose shares differ by a few
points."""
PLAYOUTS: Final = 256
"""At most this many playouts a hint (actions times worlds), but never fewer than
:data:`FEWEST_WORLDS` worlds: a drawn dragon can offer some thirty ways to feed it (R7a,
R8), and a hint should still come within a second."""
FEWEST_WORLDS: Final = 8
SEED: Final = 27
"""The worlds' seed: fixed, so a hint depends on the view alone."""


def is_played_out(view: View) -> bool:
    """The game ends with this round (R4, R10: the deck cannot set another table) and at most
    one seat takes its turn after the mover's."""
    return view.last_round and view.turns_left <= 2


def dish_order(view: View) -> list[int]:
    """The dishes ordered by what the view shows of each (table, king, removed, every
    hand), the dishes' ids only between dishes it shows alike."""

    def shown(dish: int) -> tuple[int, ...]:
        return (
            view.table[dish], view.king[dish], view.removed_dishes[dish],
            *(hand.takes[dish] for hand in view.hands),
            *(-1 if hand.draws is None else hand.draws[dish] for hand in view.hands),
        )

    return sorted(range(NUM_DISHES), key=shown)


def worlds_for(actions: int) -> int:
    """Worlds dealt for a hint that plays ``actions`` actions (twins once)."""
    return max(FEWEST_WORLDS, min(WORLDS, PLAYOUTS // max(1, actions)))


def played_out(view: View) -> list[tuple[float, float]]:
    """(mean share of the win, mean final points) of the player to move for each legal
    action, in the legal order.

    The playouts run on the view with its dishes renamed by :func:`dish_order` (and no
    history, which no rule reads): a game and the same game with its dishes renamed (R1)
    become one and the same problem, so their numbers agree action for action, where the
    dishes' ids would otherwise decide which card a world deals where and which of two equal
    choices a bot takes. Twins (actions with the same network row, :mod:`.features`) are
    played once and share their numbers, so identical choices get identical numbers. A world
    dealt again (few cards are unseen late in the game) is played once and counted each time.
    """
    mover = view.to_move
    if mover is None or mover < 0:
        raise ValueError("the game is over: there is no action to play out")
    if not is_played_out(view):
        raise ValueError("only the last turns of the game are played out (R4, R10)")
    rename = [0] * NUM_DISHES
    for place, dish in enumerate(dish_order(view)):
        rename[dish] = place
    plain = _renamed_view(view, rename)
    legal, rows = view_rows(plain)
    first: dict[bytes, int] = {}
    twin_of = [first.setdefault(rows[i].tobytes(), i) for i in range(len(legal))]
    played = sorted(set(twin_of))
    bot = MasterBot()
    sampler = WorldSampler(plain)
    rng = random.Random(SEED)
    seen: dict[tuple[tuple[int, ...], ...], list[tuple[float, int]]] = {}
    totals = dict.fromkeys(played, (0.0, 0.0))
    worlds = worlds_for(len(played))
    for _ in range(worlds):
        world = sampler.sample(rng)
        key = (*(world.draws(seat) for seat in range(view.num_players)),
               world.remaining_deck)
        if key not in seen:
            seen[key] = [_outcome(world, legal[index], mover, bot, rng) for index in played]
        for index, (share, points) in zip(played, seen[key], strict=True):
            win, total = totals[index]
            totals[index] = (win + share, total + points)
    numbers = {legal[i]: (totals[t][0] / worlds, totals[t][1] / worlds)
               for i, t in enumerate(twin_of)}
    return [numbers[_renamed_action(action, rename)] for action in view.legal_actions()]


def _renamed_action(action: Action, rename: list[int]) -> Action:
    if action.dish is not None:
        return Action.take(rename[action.dish])
    if action.dishes is not None:
        first, second = action.dishes
        return Action.feed(rename[first], rename[second])
    return action


def _renamed_view(view: View, rename: list[int]) -> View:
    """``view`` with dish ``d`` called ``rename[d]`` and its history left out."""

    def counts(by_dish: tuple[int, ...]) -> tuple[int, ...]:
        out = [0] * NUM_DISHES
        for dish, count in enumerate(by_dish):
            out[rename[dish]] = count
        return tuple(out)

    hands = tuple(
        HandView(counts(hand.takes), hand.hidden,
                 None if hand.draws is None else counts(hand.draws))
        for hand in view.hands
    )
    return dataclasses.replace(
        view, table=counts(view.table), king=counts(view.king),
        removed_dishes=counts(view.removed_dishes), hands=hands, history=(),
    )


def _outcome(
    world: State, action: Action, mover: int, bot: MasterBot, rng: random.Random
) -> tuple[float, int]:
    """The mover's share of the win and final points after ``action`` in ``world``."""
    state = world.clone()
    state.apply(action)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bot.act(state.view(seat), rng))
    scoring = state.score()
    share = 1.0 / len(scoring.winners) if mover in scoring.winners else 0.0
    return share, scoring.points[mover]


__all__ = [
    "FEWEST_WORLDS", "PLAYOUTS", "SEED", "WORLDS", "dish_order", "is_played_out", "played_out",
    "worlds_for",
]
