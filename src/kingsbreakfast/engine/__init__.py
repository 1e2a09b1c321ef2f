"""The King's Breakfast rules engine: pure rules, standard library only, no I/O.

Everything else in the project (bots, simulations, user interfaces, the server) speaks the
types defined here and imports them from this package only, never from its modules, so the
modules can be split or merged without touching a caller (an import-linter contract in
pyproject.toml holds everyone to it). What is exported is what callers need: the types, the
stable action ids (see docs/engine.md), the variant switch values, and the refusal reasons the
user interfaces show.
"""

from .actions import (
    ALL_ACTIONS,
    DRAW_ID,
    FEED_PAIRS,
    FIRST_FEED_ID,
    NUM_ACTIONS,
    PASS_ID,
    PLACE_DRAGON_ID,
    Action,
    ActionDict,
)
from .cards import (
    CARD_IDS,
    DECK_SIZE,
    DISHES,
    DRAGON,
    DRAGON_ID,
    NUM_DISHES,
    UNSHUFFLED_DECK,
)
from .determinize import WorldSampler, sample_world, unseen_cards
from .errors import (
    ActionFormatError,
    IllegalActionError,
    KingsBreakfastError,
    RecordError,
    SetupError,
)
from .reading import CHANCE
from .record import FORMAT, OutcomeDict, Record, outcome, read_record, replay
from .rules import DEFAULT_RULES, DRAW_OR_FEED, MUST_DRAW, Rules, RulesDict, explain_illegal
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
from .setup import MAX_PLAYERS, MIN_PLAYERS, shuffled_deck
from .state import State
from .views import HandDict, HandView, Turn, TurnDict, View, ViewDict, turn_dict

__all__ = [
    "ALL_ACTIONS",
    "CARD_IDS",
    "CHANCE",
    "DECK_SIZE",
    "DEFAULT_RULES",
    "DISHES",
    "DRAGON",
    "DRAGON_ID",
    "DRAW_ID",
    "DRAW_OR_FEED",
    "FEED_PAIRS",
    "FIRST_FEED_ID",
    "FORMAT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MUST_DRAW",
    "NUM_ACTIONS",
    "NUM_DISHES",
    "PASS_ID",
    "PLACE_DRAGON_ID",
    "UNSHUFFLED_DECK",
    "Action",
    "ActionDict",
    "ActionFormatError",
    "DishScore",
    "HandDict",
    "HandView",
    "IllegalActionError",
    "KingsBreakfastError",
    "OutcomeDict",
    "PlayerScore",
    "Record",
    "RecordError",
    "Rules",
    "RulesDict",
    "Scoring",
    "ScoringDict",
    "SetupError",
    "State",
    "Turn",
    "TurnDict",
    "View",
    "ViewDict",
    "WorldSampler",
    "explain_illegal",
    "outcome",
    "pick_winners",
    "places",
    "read_record",
    "replay",
    "sample_world",
    "score",
    "score_hand",
    "shuffled_deck",
    "turn_dict",
    "unseen_cards",
]
