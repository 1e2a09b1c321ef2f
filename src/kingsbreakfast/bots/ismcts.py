"""Information-set Monte Carlo tree search (single-observer ISMCTS).

The bot never sees hidden cards, so it cannot search the real game tree. Each simulation
deals a concrete world consistent with its view (``WorldSampler``: the deck and the other
players' drawn cards at random), walks down one shared tree whose edges are actions (the
information the viewer would see), expands one new action, values the position it reaches
and backs the values up the path. Because different worlds allow
different actions below a draw (a drawn dragon, an empty deck), each edge also counts how often
it was *available*, and selection uses that count in the UCB bonus instead of the parent's
visits (Cowling, Powley & Whitehouse 2012).

A simulation is: one determinization, one descent with one expansion, a valuation and one
backup. By default (``rollout_rounds=0``) the new position is valued at once by the card
counter's estimate of every seat's final points (:mod:`.evaluation`); ``rollout_rounds=k``
first plays k rounds uniformly at random, and ``None`` plays to the end and scores exactly.
Playing on to the end proved weaker than the estimate (docs/analysis.md). Rewards are per seat, so
every node is chosen by the player who moves there.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from kingsbreakfast.engine import (
    Action,
    State,
    View,
    WorldSampler,
    pick_winners,
    score_hand,
)

from .base import legal_choices
from .evaluation import expected_points, soft_wins
from .heuristic import evaluate

PRIOR_POINTS = 4.0
"""A root action the heuristic values this many points below its best gets 1/e of the bias."""

DESCRIPTION = (
    "ISMCTS searches. Before each move it runs many simulations (2,000 unless told otherwise, "
    "or as many as fit its seconds). Each one deals the cards it cannot see at random in a way "
    "that agrees with everything it has seen, walks down a search tree shared by all these "
    "deals, tries one new action, and then stops: it does not play the game out but values "
    "the position it reached by the card counter's estimate of every player's final points, "
    "counting the chance of winning three times as much as the points. Actions that led to "
    "good positions are tried more often, and in the end it plays the action it tried most. "
    "Every player in the tree plays for their own win, so it expects sensible play from the "
    "others, and more simulations make it stronger, though less and less so."
)

WIN_WEIGHT = 0.75
"""Reward = 0.75 * win share + 0.25 * points / best points: the win is what counts (R12), the
score part separates lost games that were close from lost games that were not."""


@dataclass(slots=True)
class SearchResult:
    """One root action's statistics after a search: what orders the actions."""

    action: Action
    visits: int
    mean_reward: float
    """Mean reward of the player to move."""


class _Edge:
    """An action out of a node, with the statistics of the player who chose it."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[int, _Edge] = {}


def _rewards(state: State, n: int) -> list[float]:
    """Per seat: the search reward of a finished game, from its points and win share (R11,
    R12)."""
    king = state.king
    points = []
    discards = []
    for seat in range(n):
        p, d = score_hand(king, state.hand(seat))
        points.append(p)
        discards.append(d)
    leaders, _ = pick_winners(points, discards)
    share = 1.0 / len(leaders)
    wins = [0.0] * n
    for s in leaders:
        wins[s] = share
    best = points[leaders[0]]
    scale = (1.0 - WIN_WEIGHT) / best if best > 0 else 0.0
    return [WIN_WEIGHT * wins[s] + scale * points[s] for s in range(n)]


def _estimated_rewards(state: State) -> list[float]:
    """Rewards of a game stopped early: expected points and a soft win chance."""
    points = expected_points(state)
    wins = soft_wins(points)
    best = max(points)
    scale = (1.0 - WIN_WEIGHT) / best if best > 0 else 0.0
    return [WIN_WEIGHT * w + scale * p for w, p in zip(wins, points, strict=True)]


class IsmctsBot:
    """ISMCTS over determinized worlds with a simulation or time budget."""

    name = "ismcts"
    description = DESCRIPTION

    def __init__(
        self,
        simulations: int | None = 2000,
        seconds: float | None = None,
        exploration: float = 0.2,
        rollout_rounds: int | None = 0,
        prior_weight: float = 0.0,
        world_reuse: int = 1,
        name: str | None = None,
    ) -> None:
        if simulations is None and seconds is None:
            raise ValueError("give ismcts a budget: simulations, seconds or both")
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        if world_reuse < 1:
            raise ValueError(f"world_reuse must be at least 1, not {world_reuse}")
        if rollout_rounds is not None and rollout_rounds < 0:
            raise ValueError(f"rollout_rounds must be 0 or more, not {rollout_rounds}")
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_rounds = rollout_rounds
        self.prior_weight = prior_weight
        self.world_reuse = world_reuse
        if name is not None:
            self.name = name
        self.last_simulations = 0

    def act(self, view: View, rng: random.Random) -> Action:
        legal = legal_choices(view)
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        return self.search(view, rng)[0].action

    @staticmethod
    def _prior(view: View) -> dict[Action, float]:
        """The heuristic bot's opinion of each root action, scaled to (0, 1]."""
        values = evaluate(view)
        best = max(values.values())
        return {a: math.exp((v - best) / PRIOR_POINTS) for a, v in values.items()}

    def search(self, view: View, rng: random.Random) -> list[SearchResult]:
        """Run the search from ``view`` and return every root action, best first."""
        if view.to_move is None:
            raise ValueError("the game is over: there is nothing to search")
        n = view.num_players
        root = _Edge()
        prior = self._prior(view) if self.prior_weight > 0 else {}
        for action in sorted(prior, key=lambda a: -prior[a]):  # expand the likeliest first
            root.children[action] = _Edge()
            root.children[action].avail = 0
        bias = self.prior_weight
        c = self.exploration
        budget = self.simulations
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        log = math.log
        sqrt = math.sqrt
        rng = random.Random(rng.getrandbits(64))  # the search's own stream
        uniform = rng.random
        rollout_rounds = self.rollout_rounds
        reuse = self.world_reuse
        world: State | None = None
        deal = WorldSampler(view).sample
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done & 15 == 0 and time.perf_counter() >= deadline:
                break
            if reuse == 1:
                state = deal(rng)
            else:  # several simulations share one dealt world (each on its own copy)
                if world is None or done % reuse == 0:
                    world = deal(rng)
                state = world.clone()
            done += 1
            node = root
            path: list[tuple[_Edge, int]] = []
            # selection and expansion
            while True:
                legal = state.legal_actions()
                if not legal:
                    break
                children = node.children
                untried = []
                mover = state.to_move
                assert mover is not None
                best_value = -1.0
                best_action = legal[0]
                if node is root and prior:  # root edges exist from the start, with a bias
                    for a in legal:
                        edge = children[a]
                        edge.avail += 1
                        if not edge.visits:
                            untried.append(a)
                    if not untried:
                        for a in legal:
                            child = children[a]
                            visits = child.visits
                            value = (
                                child.reward / visits
                                + c * sqrt(log(child.avail) / visits)
                                + bias * prior[a] / visits  # toward the heuristic, fading
                            )
                            if value > best_value:
                                best_value = value
                                best_action = a
                    else:
                        best_action = untried[0]  # the heuristic's likeliest first
                else:  # one pass: count availability and, while all are tried, score UCB
                    for a in legal:
                        seen = children.get(a)
                        if seen is None:
                            untried.append(a)
                            continue
                        avail = seen.avail = seen.avail + 1
                        if not untried:
                            visits = seen.visits
                            value = seen.reward / visits + c * sqrt(log(avail) / visits)
                            if value > best_value:
                                best_value = value
                                best_action = a
                    if untried:
                        best_action = untried[int(uniform() * len(untried))]
                if untried:  # expansion: a new edge, then the leaf is valued
                    new = children.get(best_action)
                    if new is None:
                        new = children[best_action] = _Edge()
                    state.apply(best_action)
                    path.append((new, mover))
                    break
                node = children[best_action]
                state.apply(best_action)
                path.append((node, mover))
            # rollout by the uniform policy: cheap and unbiased between seats
            if rollout_rounds is None:
                while True:
                    legal = state.legal_actions()
                    if not legal:
                        break
                    state.apply(legal[int(uniform() * len(legal))])
            else:
                stop = state.round + rollout_rounds  # then scored as if the game ended
                while state.round < stop:
                    legal = state.legal_actions()
                    if not legal:
                        break
                    state.apply(legal[int(uniform() * len(legal))])
            rewards = _rewards(state, n) if state.is_over else _estimated_rewards(state)
            for edge, seat in path:
                edge.visits += 1
                edge.reward += rewards[seat]
        self.last_simulations = done
        results = [
            SearchResult(Action(a), e.visits, e.reward / e.visits if e.visits else 0.0)
            for a, e in root.children.items()
        ]
        for a in view.legal_actions():
            if a not in root.children:
                results.append(SearchResult(a, 0, 0.0))
        results.sort(key=lambda r: (-r.visits, -r.mean_reward, int(r.action)))
        return results
