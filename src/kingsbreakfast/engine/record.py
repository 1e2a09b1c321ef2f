"""Game records in the ``kingsbreakfast/1`` format: read, check, replay, write.

A record is the deck (or a seed) plus the players' decisions; dealing follows from the deck,
so replaying the actions through :class:`State` reproduces every moment of the game. Reading
a record *is* replaying it: an action can only be judged against the state it was made in,
and the first offending action is the one reported (``RecordError.action_index``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NotRequired, TypedDict

from .actions import Action
from .cards import CARD_IDS, dish_counts
from .errors import ActionFormatError, IllegalActionError, RecordError, SetupError
from .rules import DEFAULT_RULES, Rules
from .setup import MAX_PLAYERS, MIN_PLAYERS, shuffled_deck
from .state import State

FORMAT: Final = "kingsbreakfast/1"


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game, or its beginning, exactly as the record format stores it."""

    players: tuple[str, ...]
    actions: tuple[Action, ...] = ()
    deck: tuple[int, ...] | None = None
    """Card numbers, top first; exactly one of ``deck`` and ``seed`` is set."""
    seed: int | None = None
    first_cook: int = 0
    rules: Rules = DEFAULT_RULES
    tags: Mapping[str, Any] = field(default_factory=dict)
    """Keys the format does not name (a date, an event): kept and written back."""

    @classmethod
    def from_state(
        cls, state: State, players: list[str] | tuple[str, ...], **tags: Any
    ) -> Record:
        """The record of ``state``'s game so far (the deck is written out in full)."""
        if len(players) != state.num_players:
            raise SetupError(
                f"{len(players)} names for {state.num_players} seats", "bad_player_names"
            )
        return cls(
            players=tuple(players),
            actions=tuple(state.actions),
            deck=state.initial_deck,
            first_cook=state.first_cook,
            rules=state.rules,
            tags=dict(tags),
        )

    def start(self) -> State:
        """The state before the first action (cards dealt for round 1)."""
        if self.deck is not None:
            deck = self.deck
        elif self.seed is not None:
            deck = shuffled_deck(random.Random(self.seed))
        else:
            raise RecordError("a record needs a deck or a seed", "no_deck")
        return State(deck, len(self.players), self.first_cook, self.rules)

    def replay(self) -> State:
        return replay(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "players": list(self.players),
            "first_cook": self.first_cook,
        }
        if not self.rules.is_default:
            out["rules"] = self.rules.to_dict()
        if self.deck is not None:
            out["deck"] = [CARD_IDS[card] for card in self.deck]
        else:
            out["seed"] = self.seed
        out["actions"] = [action.to_record() for action in self.actions]
        for key, value in self.tags.items():
            if key not in _KNOWN_KEYS:  # a tag never overrides what the format defines
                out[key] = value
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


_KNOWN_KEYS: Final = frozenset(
    {"format", "players", "first_cook", "rules", "deck", "seed", "actions"}
)


def parse_json(text: str | bytes) -> Any:
    """JSON text to a Python object; bad JSON is a RecordError outside the actions."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise RecordError(
            f"the record is not valid JSON: {error}", "bad_json", detail=str(error)
        ) from None


def _plain_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _header(obj: Any) -> tuple[Record, list[Any]]:
    """Check everything but the actions; return the record (no actions yet) and the raw
    action list."""
    if not isinstance(obj, dict):
        raise RecordError("a record must be a JSON object", "record_not_object")
    if obj.get("format") != FORMAT:
        raise RecordError(
            f"'format' must be \"{FORMAT}\", not {obj.get('format')!r}",
            "bad_format",
            value=repr(obj.get("format")),
        )
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names", "bad_players")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RecordError(
            f"King's Breakfast is played by 3 to 5 players, and this record has "
            f"{len(players)} (R2)",
            "bad_player_count",
            players=len(players),
        )
    first_cook = obj.get("first_cook", 0)
    if not _plain_int(first_cook) or not 0 <= first_cook < len(players):
        raise RecordError(
            f"'first_cook' must be a seat number from 0 to {len(players) - 1}, "
            f"not {first_cook!r}",
            "bad_first_cook",
            value=repr(first_cook),
            last=len(players) - 1,
        )
    try:
        rules = Rules.from_dict(obj["rules"]) if "rules" in obj else DEFAULT_RULES
    except SetupError as error:
        raise RecordError(f"'rules': {error}", error.code, **error.params) from None
    has_deck, has_seed = "deck" in obj, "seed" in obj
    if has_deck == has_seed:
        raise RecordError(
            "a record must give exactly one of 'deck' and 'seed'", "deck_or_seed"
        )
    deck: tuple[int, ...] | None = None
    seed: int | None = None
    if has_deck:
        raw_deck = obj["deck"]
        if not isinstance(raw_deck, list):
            raise RecordError("'deck' must be a list of card ids", "bad_deck")
        try:
            deck = State(raw_deck, len(players), first_cook, rules).initial_deck
        except SetupError as error:
            raise RecordError(f"'deck': {error}", error.code, **error.params) from None
    else:
        seed = obj["seed"]
        if not _plain_int(seed):
            raise RecordError(
                f"'seed' must be an integer, not {seed!r}", "bad_seed", value=repr(seed)
            )
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list (it may be empty)", "bad_actions")
    tags = {key: value for key, value in obj.items() if key not in _KNOWN_KEYS}
    header = Record(tuple(players), (), deck, seed, first_cook, rules, tags)
    return header, actions


def _replay(obj: Any) -> tuple[Record, State]:
    header, raw_actions = _header(obj)
    state = header.start()
    actions: list[Action] = []
    for index, raw in enumerate(raw_actions):
        try:
            action = Action.from_record(raw)
        except ActionFormatError as error:
            raise RecordError(
                f"action {index}: {error}", error.code, action_index=index, **error.params
            ) from None
        where = f"action {index} ({action})"
        if state.is_over:
            raise RecordError(
                f"{where}: the game is already over (R10)", "action_after_end",
                action_index=index, action=str(action),
            )
        if "player" in raw:
            seat = raw["player"]
            if not _plain_int(seat) or seat != state.to_move:
                raise RecordError(
                    f"{where}: it is seat {state.to_move}'s turn, but the action names "
                    f"player {seat!r}",
                    "wrong_player",
                    action_index=index,
                    action=str(action),
                    seat=repr(seat),
                    to_move=state.to_move,
                )
        try:
            state.play(action)
        except IllegalActionError as error:
            raise RecordError(
                f"{where}: {error}", error.code, action_index=index, action=str(action),
                **error.params,
            ) from None
        actions.append(action)
    record = Record(
        header.players, tuple(actions), header.deck, header.seed, header.first_cook,
        header.rules, header.tags,
    )
    return record, state


def replay(obj: Any) -> State:
    """Check and replay a record given as parsed JSON (or a :class:`Record`); the state
    where its actions leave the game. Raises :class:`RecordError`."""
    if isinstance(obj, Record):
        obj = obj.to_dict()
    return _replay(obj)[1]


def read_record(obj: Any) -> Record:
    """Check a record (parsed JSON, or JSON text) by replaying it, and return it."""
    if isinstance(obj, str | bytes):
        obj = parse_json(obj)
    return _replay(obj)[0]


class OutcomeDict(TypedDict):
    """Where a valid record leaves the game, as ``kingsbreakfast replay --json`` prints it.

    The record format fixes these keys and their order. A finished game adds the summary
    of its scoring, under the names :meth:`Scoring.to_dict` gives it.
    """

    finished: bool
    round: int
    to_move: int | None
    deck: int
    king: dict[str, int]
    table: dict[str, int]
    table_dragons: int
    hands: list[dict[str, int]]
    removed: int
    scores: NotRequired[list[int]]
    discarded: NotRequired[list[int]]
    winners: NotRequired[list[int]]


def outcome(state: State) -> OutcomeDict:
    """The object ``kingsbreakfast replay --json`` prints for a valid record."""
    out: OutcomeDict = {
        "finished": state.is_over,
        "round": state.round,
        "to_move": state.to_move,
        "deck": state.deck_size,
        "king": dish_counts(state.king),
        "table": dish_counts(state.table),
        "table_dragons": state.table_dragons,
        "hands": [dish_counts(hand) for hand in state.hands],
        "removed": state.removed,
    }
    if state.is_over:
        # only the summary: the breakdown per dish is not part of the record format's outcome
        scoring = state.score().to_dict()
        out["scores"] = scoring["scores"]
        out["discarded"] = scoring["discarded"]
        out["winners"] = scoring["winners"]
    return out
