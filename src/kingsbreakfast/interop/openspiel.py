"""King's Breakfast as an OpenSpiel game: ``python_kings_breakfast`` (extra ``openspiel``).

``import kingsbreakfast.interop.openspiel`` registers the game; then
``pyspiel.load_game("python_kings_breakfast", {"players": 4})``.

Chance is explicit (``EXPLICIT_STOCHASTIC``): every card turned up for the table (R4) and
every card drawn (R7) is a chance node whose outcomes are the card kinds still in the deck
(0–6 the dishes in R1 order, 7 a dragon), each with probability count / cards in the deck.
So the tree is the true game tree and tabular or search algorithms see real probabilities.

These chance nodes are the engine's own chance steps: the game runs on an engine state whose
deck order is unknown (``State.with_unknown_deck``), and this module only maps between the
two interfaces: a chance node is ``state.is_chance``, its outcomes are
``state.chance_outcomes()``, and a chance action is ``state.apply_chance(card)``.

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

from .extra import require_extra

require_extra(__name__, "openspiel", "numpy", "pyspiel")

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from kingsbreakfast.engine import (
    CARD_IDS,
    DECK_SIZE,
    DRAGON,
    NUM_ACTIONS,
    NUM_DISHES,
    Action,
    Rules,
    State,
    View,
    unseen_cards,
)

from . import encoding
from . import openspiel_history as history_info
from .text import describe
from .utility import MAX_POINTS, UTILITIES, check_utility, utilities

GAME_NAME = "python_kings_breakfast"
MAX_PLAYER_ACTIONS = 64
"""At most 18 rounds of 3 turns or 11 of 5, plus an action for each drawn dragon (R7a)."""
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "empty_table": "draw_or_feed",
    "dragon_min_on_table": 1,
    "utility": "rank",
    "infostate": "view",
}
INFOSTATES = ("view", "history")
"""``view``: the information-state tensor is the view tensor, the string lists the deals in
the order the cards were turned up. ``history``: the perfect-recall tensor and the string
with each deal in R1 order (:mod:`.openspiel_history`)."""


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
        if settings["infostate"] not in INFOSTATES:
            raise ValueError(
                f"infostate must be 'view' or 'history', not {settings['infostate']!r}"
            )
        self.infostate: str = settings["infostate"]
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
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            history=self.infostate == "history",
        )


class KingsBreakfastState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state (deck order unknown) and the event log."""

    def __init__(self, game: KingsBreakfastGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._utility = game.utility
        self._engine = State.with_unknown_deck(game.players, 0, game.rules)
        """Copied by ``State.__deepcopy__`` when OpenSpiel clones this state."""
        self._log = _Log()
        """The information-state words of every event so far, one per OpenSpiel action."""

    # -- OpenSpiel's state interface -----------------------------------------------------
    def current_player(self) -> int:
        seat = self._engine.to_move  # the engine's chance value is OpenSpiel's chance player
        return _TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert player == self._engine.to_move
        return [int(a) for a in self._engine.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card kinds in the deck with probability count / deck size (R1, R4, R7)."""
        return list(self._engine.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        engine = self._engine
        if engine.is_chance:
            drawer = engine.drawer
            engine.apply_chance(action)
            name = CARD_IDS[action]
            if drawer is None:
                self._log.events.append((-1, f"+{name}", f"+{name}"))
            elif action == DRAGON:  # a drawn dragon is shown at once (R7b)
                self._log.events.append((-1, f"{drawer}<{name}", f"{drawer}<{name}"))
            else:
                self._log.events.append((drawer, f"{drawer}<{name}", f"{drawer}<?"))
        else:
            text = f"{engine.to_move}:{Action(action)}"
            self._log.events.append((-1, text, text))
            engine.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {CARD_IDS[action]}"
        return str(Action(action))

    def is_terminal(self) -> bool:
        return self._engine.is_over

    def returns(self) -> list[float]:
        if not self._engine.is_over:
            return [0.0] * self._n
        return utilities(self._engine.score(), self._utility)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KingsBreakfastState:
        """A state ``player_id`` cannot tell from this one: the other seats' hidden drawn dish
        cards dealt again at random from the dish cards that seat has not seen (a hidden card
        is never a dragon, R7b), then the whole history replayed with them. Everything public
        and ``player_id``'s own cards stay as they are; the deck stays a chance event."""
        if not 0 <= player_id < self._n:
            raise ValueError(f"there is no player {player_id} in a {self._n}-player game")
        engine = self._engine
        if engine.is_chance and engine.history:
            raise ValueError("resample_from_infostate is offered at decision nodes, not chance")
        rng = random.Random(int(probability_sampler() * 2**53))
        dishes, _ = unseen_cards(engine.view(player_id))
        pool = [dish for dish in range(NUM_DISHES) for _ in range(dishes[dish])]
        rng.shuffle(pool)
        other: KingsBreakfastState = self.get_game().new_initial_state()
        for item, (owner, _, _) in zip(self.full_history(), self._log.events, strict=True):
            hidden = owner >= 0 and owner != player_id  # another seat's drawn dish card
            other.apply_action(pool.pop() if hidden else item.action)
        return other

    def __str__(self) -> str:
        cards = [CARD_IDS[i.action] for i in self.full_history() if i.player == _CHANCE]
        if self.view(None) is None:
            return f"dealing: {' '.join(cards)}"
        # the public view plus every card turned up: a full (debugging) description
        text = describe(self._engine.view(None))
        text += "\ncards revealed: " + " ".join(cards)
        if self._engine.is_chance:
            drawer = self._engine.drawer
            waiting = "the table" if drawer is None else f"seat {drawer} draws"
            text += f"\nwaiting for a card: {waiting}"
        return text

    # -- what a player knows -------------------------------------------------------------
    def view(self, player: int | None) -> View | None:
        """The engine view of ``player`` (None: spectator); None while the first deal runs."""
        engine = self._engine
        if engine.is_chance and not engine.history:
            return None
        return engine.view(player)

    @property
    def cards_turned_up(self) -> int:
        """Cards turned up or drawn so far (the chance nodes passed)."""
        return DECK_SIZE - self._engine.deck_size - self._engine.removed_unseen

    def information_string(self, player: int, private: bool = True) -> str:
        """Perfect recall: every action, every card turned up, and the drawn cards: the
        player's own named (unless ``private`` is False), the others' as ``?`` (a drawn
        dragon is shown, R7b)."""
        if private:
            words = [own if seat == player else other for seat, own, other in self._log.events]
        else:
            words = [other for _, _, other in self._log.events]
        return f"p{player} " + " ".join(words)


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

    def __init__(
        self, iig_obs_type: Any, params: dict[str, Any] | None, history: bool = False
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private cards is not offered")
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self._history = history and self._perfect_recall
        """The game's ``infostate="history"``: perfect-recall tensor, deals in R1 order."""
        self.tensor = np.zeros(history_info.SIZE if self._history else encoding.SIZE, np.float32)
        self.dict: dict[str, Any] = {
            name: self.tensor[start:stop] for name, (start, stop) in encoding.offsets().items()
        }
        if self._history:
            self.dict["history"] = self.tensor[encoding.SIZE :]

    def set_from(self, state: KingsBreakfastState, player: int) -> None:
        view = state.view(player if self._private else None)
        if view is None:
            self.tensor.fill(0.0)
            return
        values = encoding.encode(view, perspective=player)
        if self._history:
            values = history_info.history_tensor(
                values, state.full_history(), player, state.num_players(), self._private
            )
        self.tensor[:] = values

    def string_from(self, state: KingsBreakfastState, player: int) -> str:
        if self._perfect_recall:
            text = state.information_string(player, private=self._private)
            if self._history:
                head, *words = text.split(" ")
                return f"{head} {history_info.canonical_string(words)}".rstrip()
            return text
        view = state.view(player if self._private else None)
        if view is None:
            return f"p{player} dealing {state.cards_turned_up}"
        return f"p{player}\n{describe(view)}"


pyspiel.register_game(_game_type("rank"), KingsBreakfastGame)

__all__ = [
    "GAME_NAME",
    "UTILITIES",
    "KingsBreakfastGame",
    "KingsBreakfastObserver",
    "KingsBreakfastState",
]
