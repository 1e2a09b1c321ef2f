"""King's Breakfast as an OpenSpiel game: ``python_kings_breakfast`` (extra ``openspiel``).

``import kingsbreakfast.interop.openspiel`` registers the game; then
``pyspiel.load_game("python_kings_breakfast", {"players": 4})``.

Chance is explicit (``EXPLICIT_STOCHASTIC``): every card turned up for the table (R4) and
every card drawn (R7) is a chance node whose outcomes are the card kinds still unseen
(0–6 the dishes in R1 order, 7 a dragon), each with probability count / cards unseen. So
the tree is the true game tree and tabular or search algorithms see real probabilities.

How the engine is used without reimplementing a rule: the rules engine deals from a fixed
deck, so this state keeps the cards revealed so far (the known top of the deck) and the
player actions, and gives the engine a deck made of the revealed cards followed by the
unseen ones in any order. The engine's play does not depend on cards it has not read yet,
so its state is exact; whenever an action would make the engine read a card nobody has
revealed (a draw, or the deal that starts the next round), the action waits and the state
becomes a chance node until that card is revealed, then the engine is brought up to date.

Utilities (``returns()``), chosen by the ``utility`` parameter:

``rank`` (default, zero-sum)
    (players ranked below me − players ranked above me) / (players − 1), ranking by R12:
    points, then fewer discards; equal on both is a shared place. The winner of a 4-player
    game gets 1, the last −1, and the returns add up to 0.
``score`` (general-sum)
    my R11 points.

Observations and information states go through a py-observer: the tensors are
:mod:`.encoding` (the one view tensor of all adapters); the information-state *string* has
perfect recall (every public event, my own drawn cards, others' draws as ``?``), the
observation string describes the current view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from kingsbreakfast.engine import (
    CARD_IDS,
    DECK_SIZE,
    DRAGON,
    DRAW_ID,
    NUM_ACTIONS,
    NUM_DISHES,
    Action,
    Rules,
    State,
    View,
    sample_world,
)

from . import encoding
from .text import describe
from .utility import MAX_POINTS, UTILITIES, check_utility, utilities

GAME_NAME = "python_kings_breakfast"
MAX_PLAYER_ACTIONS = 64
"""At most 18 rounds of 3 turns or 11 of 5, plus an action for each drawn dragon (R7a)."""
_CARD_TOTALS = (15,) * NUM_DISHES + (5,)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "empty_table": "draw_or_feed",
    "dragon_min_on_table": 1,
    "utility": "rank",
}


def _game_type(utility: str) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="King's Breakfast (King Lui)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if utility == "rank"
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


class KingsBreakfastGame(pyspiel.Game):  # type: ignore[misc]
    """The game with its parameters: players (3–5), the two variants, the utility."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(_DEFAULTS))
        if unknown:
            raise ValueError(
                f"unknown parameter {unknown[0]!r} for {GAME_NAME} (known: {', '.join(_DEFAULTS)})"
            )
        settings = {**_DEFAULTS, **given}
        players = settings["players"]
        if not isinstance(players, int) or not 3 <= players <= 5:
            raise ValueError(f"King's Breakfast is played by 3 to 5 players, not {players!r}")
        utility = check_utility(settings["utility"])
        self.rules = Rules(settings["empty_table"], settings["dragon_min_on_table"])
        self.players: int = players
        self.utility: str = utility
        rank = utility == "rank"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_DISHES + 1,
            num_players=players,
            min_utility=-1.0 if rank else 0.0,
            max_utility=1.0 if rank else float(MAX_POINTS),
            utility_sum=0.0 if rank else None,
            max_game_length=MAX_PLAYER_ACTIONS + DECK_SIZE,
        )
        super().__init__(_game_type(utility), info, settings)

    def new_initial_state(self) -> KingsBreakfastState:
        return KingsBreakfastState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KingsBreakfastObserver:
        return KingsBreakfastObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class KingsBreakfastState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the revealed cards, the player actions, and the engine's state."""

    def __init__(self, game: KingsBreakfastGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._rules = game.rules
        self._utility = game.utility
        self._revealed: list[int] = []
        """Cards turned up or drawn so far, in deck order (the known top of the deck)."""
        self._moves: list[int] = []
        """Player actions the engine has applied."""
        self._waiting: int | None = None
        """A player action that needs an unrevealed card before the engine can apply it."""
        self._box: _Engine | None = None
        """The engine's state and the deck it was dealt from (None until the first table)."""
        self._plan: list[int] = []
        """Cards known to come next (when replaying), used to order the unseen part."""
        self._drawn_by: list[int] = []
        """For each revealed card: the seat that drew it, or -1 for a card turned up (R4)."""
        self._log = _Log()
        """The information-state words of every event so far."""
        self._left = list(_CARD_TOTALS)
        """Unseen cards by kind (7 = dragon): the chance probabilities' numerators."""
        self._need = 0
        """Cards still to reveal before the waiting action can be applied."""
        self._stale = False
        """A revealed card differs from the engine's deck: rebuild before applying."""

    @property
    def _engine(self) -> State | None:
        return None if self._box is None else self._box.state

    # -- OpenSpiel's state interface -----------------------------------------------------
    def current_player(self) -> int:
        box = self._box
        if box is None or self._waiting is not None:
            return _CHANCE
        seat = box.state.to_move
        return _TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self._engine is not None and player == self._engine.to_move
        return [int(a) for a in self._engine.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The unseen card kinds with probability count / unseen cards (R1, R4, R7)."""
        left = self._unseen_counts()
        total = sum(left)
        return [(card, count / total) for card, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._reveal(action)
        else:
            text = f"{self.current_player()}:{Action(action)}"
            self._log.events.append((-1, text, text))
            self._try(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {CARD_IDS[action]}"
        return str(Action(action))

    def is_terminal(self) -> bool:
        return self._engine is not None and self._waiting is None and self._engine.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._n
        assert self._engine is not None
        return utilities(self._engine.score(), self._utility)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KingsBreakfastState:
        """A state ``player_id`` cannot tell from this one: the other seats' drawn dish cards
        dealt again at random from the cards that seat has not seen (``sample_world``), then
        the whole game replayed with them. Everything public and ``player_id``'s own cards
        stay as they are; the unrevealed deck stays a chance event."""
        if not 0 <= player_id < self._n:
            raise ValueError(f"there is no player {player_id} in a {self._n}-player game")
        engine = self._engine
        if engine is None:
            return self._replayed(self._revealed)
        if self._waiting is not None:
            raise ValueError("resample_from_infostate is offered at decision nodes, not chance")
        rng = random.Random(int(probability_sampler() * 2**53))
        world = sample_world(engine.view(player_id), rng)
        revealed = list(self._revealed)
        shown = world.view(None).hands
        for seat in range(self._n):
            if seat == player_id:
                continue
            positions = [
                i for i, who in enumerate(self._drawn_by)
                if who == seat and revealed[i] != DRAGON  # drawn dragons are shown (R7b)
            ]
            hand = world.hand(seat)
            pool = [
                d for d in range(NUM_DISHES) for _ in range(hand[d] - shown[seat].takes[d])
            ]
            rng.shuffle(pool)
            for position, card in zip(positions, pool, strict=True):
                revealed[position] = card
        return self._replayed(revealed)

    def __str__(self) -> str:
        if self._engine is None:
            return f"dealing: {' '.join(CARD_IDS[c] for c in self._revealed)}"
        # the public view plus every revealed card: a full (debugging) description
        text = describe(self._engine.view(None))
        text += "\ncards revealed: " + " ".join(CARD_IDS[c] for c in self._revealed)
        if self._waiting is not None:
            text += f"\nwaiting for a card: {Action(self._waiting)}"
        return text

    # -- what a player knows -------------------------------------------------------------
    def view(self, player: int | None) -> View | None:
        """The engine view of ``player`` (None: spectator); None while the first deal runs."""
        return None if self._engine is None else self._engine.view(player)

    def information_string(self, player: int, private: bool = True) -> str:
        """Perfect recall: every action, every card turned up, and the drawn cards: the
        player's own named (unless ``private`` is False), the others' as ``?`` (a drawn
        dragon is shown, R7b)."""
        if private:
            words = [own if seat == player else other for seat, own, other in self._log.events]
        else:
            words = [other for _, _, other in self._log.events]
        return f"p{player} " + " ".join(words)

    # -- keeping the engine up to date ---------------------------------------------------
    def _unseen_counts(self) -> list[int]:
        return list(self._left)

    def _reveal(self, card: int) -> None:
        if self._left[card] <= 0:
            raise ValueError(f"no {CARD_IDS[card]} is left unseen to reveal")
        position = len(self._revealed)
        engine = self._engine
        drawer = -1
        if (
            self._waiting == DRAW_ID
            and engine is not None
            and DECK_SIZE - engine.deck_size == position
            and engine.to_move is not None
        ):
            drawer = engine.to_move  # the card a draw is waiting for (R7)
        self._revealed.append(card)
        self._left[card] -= 1
        self._drawn_by.append(drawer)
        name = CARD_IDS[card]
        if drawer < 0:
            self._log.events.append((-1, f"+{name}", f"+{name}"))
        elif card == DRAGON:  # a drawn dragon is shown at once (R7b)
            self._log.events.append((-1, f"{drawer}<{name}", f"{drawer}<{name}"))
        else:
            self._log.events.append((drawer, f"{drawer}<{name}", f"{drawer}<?"))
        if engine is None:
            if len(self._revealed) == 2 * self._n:  # R4: the first table is set
                self._rebuild()
            return
        assert self._box is not None
        if self._box.deck[position] != card:
            self._stale = True
        self._need -= 1
        if self._need > 0:
            return
        if self._stale:
            self._rebuild()
        waiting = self._waiting
        assert waiting is not None
        self._waiting = None
        self._try(waiting)

    def _try(self, action: int) -> None:
        """Apply ``action`` if the engine would read only revealed cards, else wait for as
        many cards as it will read (one for a draw: whether it is a dragon decides more)."""
        engine = self._engine
        assert engine is not None
        seat = engine.to_move
        assert seat is not None
        if action != DRAW_ID and (seat + 1) % self._n != engine.cook:
            # neither a draw (R7) nor the last turn of the round (R3, R4): no card is read
            engine.apply(action)
            self._moves.append(action)
            return
        trial = engine.clone()
        trial.apply(action)
        unseen_at_end = trial.view(None).removed_unseen if trial.is_over else 0
        read = DECK_SIZE - trial.deck_size - unseen_at_end
        known = len(self._revealed)
        if read <= known:
            self._box = _Engine(trial, self._box.deck if self._box else ())
            self._moves.append(action)
            if self._plan and known >= len(self._plan):
                self._plan = []
            return
        self._waiting = action
        drawn_unknown = action == DRAW_ID and DECK_SIZE - engine.deck_size == known
        self._need = 1 if drawn_unknown else read - known

    def _rebuild(self) -> None:
        """A fresh engine state on a deck that starts with the revealed cards."""
        left = self._unseen_counts()
        rest: list[int] = []
        for card in self._plan[len(self._revealed):]:
            if left[card] > 0:
                left[card] -= 1
                rest.append(card)
        for card in range(NUM_DISHES + 1):
            rest += [card] * left[card]
        deck = (*self._revealed, *rest)
        engine = State(deck, self._n, 0, self._rules)
        for move in self._moves:
            engine.apply(move)
        self._box = _Engine(engine, deck)
        self._stale = False

    def _replayed(self, revealed: Sequence[int]) -> KingsBreakfastState:
        """A new state with this one's history, the chance outcomes taken from ``revealed``."""
        other: KingsBreakfastState = self.get_game().new_initial_state()
        other._plan = list(revealed)
        position = 0
        for item in self.full_history():
            if item.player == pyspiel.PlayerId.CHANCE:
                other.apply_action(revealed[position])
                position += 1
            else:
                other.apply_action(item.action)
        return other


class _Engine:
    """The engine's state with its deck, copied by ``State.clone`` when OpenSpiel clones a
    state (``copy.deepcopy`` of the engine's lists would be several times slower)."""

    __slots__ = ("deck", "state")

    def __init__(self, state: State, deck: tuple[int, ...]) -> None:
        self.state = state
        self.deck = deck

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone(), self.deck)


class _Log:
    """Events as (seat whose secret it is or -1, the owner's word, everyone else's word);
    cloned by a shallow list copy, since the words never change."""

    __slots__ = ("events",)

    def __init__(self, events: list[tuple[int, str, str]] | None = None) -> None:
        self.events = events if events is not None else []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Log:
        return _Log(list(self.events))


class KingsBreakfastObserver:
    """OpenSpiel's py-observer: the shared view tensor, and strings.

    ``private_info`` SINGLE_PLAYER gives the player's own view (its drawn cards included);
    NONE gives the public view, counted from the player's seat. ``perfect_recall`` switches
    the string to the full-history form; the tensor is always the current view (it holds
    every count the history could teach, but not the order of past events).
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private cards is not offered")
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(encoding.SIZE, np.float32)
        self.dict: dict[str, Any] = {
            name: self.tensor[start:stop] for name, (start, stop) in encoding.offsets().items()
        }

    def set_from(self, state: KingsBreakfastState, player: int) -> None:
        view = state.view(player if self._private else None)
        if view is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = encoding.encode(view, perspective=player)

    def string_from(self, state: KingsBreakfastState, player: int) -> str:
        if self._perfect_recall:
            return state.information_string(player, private=self._private)
        view = state.view(player if self._private else None)
        if view is None:
            return f"p{player} dealing {len(state._revealed)}"
        return f"p{player}\n{describe(view)}"


pyspiel.register_game(_game_type("rank"), KingsBreakfastGame)

__all__ = [
    "GAME_NAME",
    "UTILITIES",
    "KingsBreakfastGame",
    "KingsBreakfastObserver",
    "KingsBreakfastState",
]
