"""The vectorized games' driver: many games held in rows of the rules, stepped together.

A learner chooses one action per game per call, so each game's state lives in its row of a
:class:`~.games.Games` record between calls. :func:`step_games` plays the caller's
action with :func:`~.rules.step`, lets the built-in seats move in the game loop of
:mod:`.policies`, scores a finished game (R11, the R12 rank utility) and deals it
again; the mover's observation is the view tensor of :mod:`kingsbreakfast.tensor`, written
by its one writer compiled in :func:`~.rules.observe`, and the legal mask comes
from :func:`~.rules.legal`. ``tests/sim/test_vector_differential.py`` compares the
observations, masks, rewards and whole trajectories with the engine.
"""

from __future__ import annotations

from typing import Any

from kingsbreakfast.engine import NUM_ACTIONS

from .games import OVER, TO_MOVE, Games, game_stream, uncounted
from .policies import CALLER, play
from .rules import deal, legal, observe, rank, score, step

CHUNK = 32
"""Games stepped before their observations are written, in one call: a call hands the whole
record over (per game it would cost a third of a step), and a chunk's rows are still in the
cache when they are read again."""


@uncounted
def _write(games: Games, start: int, stop: int, obs: Any, mask: Any, known: Any) -> None:
    """The observation and legal-action mask of the movers of games ``start`` to ``stop``;
    ``known[g]`` keeps game ``g``'s mask as bits, the kernel's own copy (the caller may
    write into ``mask``)."""
    for g in range(start, stop):
        seat = games.state[g, TO_MOVE]
        if seat == OVER:
            mask[g, :] = False
            known[g] = 0
            continue
        observe(games, g, seat, obs[g])
        bits = legal(games, g)
        known[g] = bits
        for a in range(NUM_ACTIONS):
            mask[g, a] = (bits >> a) & 1


@uncounted
def reset_games(
    games: Games,
    seats: Any,
    seed: Any,
    first_cook: int,
    legal_room: Any,
    greedy_room: Any,
    counter_room: Any,
    no_record: Any,
    obs: Any,
    mask: Any,
    known: Any,
) -> None:
    """Deal every game anew; game ``g`` of a seed is always the same game. Built-in seats
    play until a caller's seat is to move; its observation and mask are written."""
    for g in range(games.deck.shape[0]):
        games.rng[g] = game_stream(seed, g)
        deal(games, g, g, first_cook)
        play(games, g, seats, legal_room, greedy_room, counter_room, False, no_record,
             no_record)
    _write(games, 0, games.deck.shape[0], obs, mask, known)


@uncounted
def step_games(
    games: Games,
    seats: Any,
    actions: Any,
    autoreset: bool,
    first_cook: int,
    legal_room: Any,
    greedy_room: Any,
    counter_room: Any,
    no_record: Any,
    obs: Any,
    mask: Any,
    known: Any,
    rewards: Any,
    done: Any,
    illegal: Any,
    points: Any,
    discarded: Any,
) -> None:
    """One action for every game's mover (a caller's seat); then the built-in seats, until a
    caller's seat is to move again or the game ends.

    An action that is not legal is replaced by the lowest legal id and flagged in
    ``illegal``. At a game's end ``rewards[g]`` holds every seat's rank utility and
    ``points``/``discarded`` its R11 result; with ``autoreset`` the game is dealt again at
    once (the shuffle goes on from the game's own stream; with given decks,
    ``games.decks`` row ``g`` is dealt again) and the returned observation is the new
    game's.
    """
    n = games.n
    rows = games.deck.shape[0]
    for g in range(rows):
        if g % CHUNK == 0 and g > 0:
            _write(games, g - CHUNK, g, obs, mask, known)
        done[g] = False
        illegal[g] = False
        for seat in range(n):
            rewards[g, seat] = 0.0
        if games.state[g, TO_MOVE] == OVER:  # over and not reset: nothing to do
            done[g] = True
            continue
        action = actions[g]
        # the legal set was worked out for this mover when its observation was written
        bits = known[g]
        if action < 0 or action >= NUM_ACTIONS or not (bits >> action) & 1:
            illegal[g] = True
            action = 0
            while not (bits >> action) & 1:
                action += 1
        over = step(games, g, action)
        if not over and seats[games.state[g, TO_MOVE]] != CALLER:  # built-in seats move
            over = play(games, g, seats, legal_room, greedy_room, counter_room, False,
                        no_record, no_record)
        if over:
            done[g] = True
            score(games, g, points[g], discarded[g])
            for seat in range(n):
                rewards[g, seat] = rank(points[g], discarded[g], n, seat)
            if autoreset:
                deal(games, g, g, first_cook)
                play(games, g, seats, legal_room, greedy_room, counter_room, False,
                     no_record, no_record)
    _write(games, rows - 1 - (rows - 1) % CHUNK, rows, obs, mask, known)
