"""The King's Breakfast rules engine: pure rules, standard library only, no I/O.

Everything else in the project (bots, simulations, user interfaces, the server) speaks the
types defined here and never reaches into their internals.
"""

from .actions import ALL_ACTIONS, NUM_ACTIONS, Action
from .cards import CARD_IDS, DECK_SIZE, DISHES, DRAGON, DRAGON_ID, NUM_DISHES
from .determinize import WorldSampler, sample_world, unseen_cards
from .errors import (
    ActionFormatError,
    IllegalActionError,
    KingsBreakfastError,
    RecordError,
    SetupError,
)
from .record import FORMAT, OutcomeDict, Record, outcome, read_record, replay
from .rules import DEFAULT_RULES, Rules
from .scoring import (
    DishScore,
    PlayerScore,
    Scoring,
    ScoringDict,
    pick_winners,
    places,
    score,
    score_hand,
)
from .state import CHANCE, MAX_PLAYERS, MIN_PLAYERS, State, shuffled_deck
from .views import HandView, Turn, View

__all__ = [
    "ALL_ACTIONS",
    "CARD_IDS",
    "CHANCE",
    "DECK_SIZE",
    "DEFAULT_RULES",
    "DISHES",
    "DRAGON",
    "DRAGON_ID",
    "FORMAT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUM_ACTIONS",
    "NUM_DISHES",
    "Action",
    "ActionFormatError",
    "DishScore",
    "HandView",
    "IllegalActionError",
    "KingsBreakfastError",
    "OutcomeDict",
    "PlayerScore",
    "Record",
    "RecordError",
    "Rules",
    "Scoring",
    "ScoringDict",
    "SetupError",
    "State",
    "Turn",
    "View",
    "WorldSampler",
    "outcome",
    "pick_winners",
    "places",
    "read_record",
    "replay",
    "sample_world",
    "score",
    "score_hand",
    "shuffled_deck",
    "unseen_cards",
]
