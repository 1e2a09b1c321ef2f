"""A position as one line of text, and back (docs/engine.md, *A position as text*).

Like a chess FEN, a line holds everything the rules read, so a test can pin a position in
one line and a server log can name the position a move was made in. Two forms:

- :func:`state_text` / :func:`state_from_text`: the **full state**, deck order and every
  drawn card included. It round-trips exactly (``State.from_text(s.to_text()) == s``, and
  play goes on alike), so it is secret: only for tests and the server's own records, never
  for a player (R7: the drawn cards and the deck are hidden).
- :func:`view_text`: what one seat may know (a :class:`~.views.View`): the deck's size in
  place of its cards and ``?`` counts in place of the drawn cards the seat may not see.
  This is the form a player may be shown.

The fields, separated by single spaces (hexadecimal digits count cards by dish, in the
dishes' order; no count exceeds 15, R1)::

    kb1 PLAYERS RULES FIRST_COOK ROUND COOK TURN DECK TABLE KING HANDS REMOVED HISTORY

Every malformed line is refused with a :class:`~.errors.SetupError` (code
``bad_state_text``) that names the field at fault and why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import NUM_ACTIONS
from .cards import CARDS_PER_DISH, DECK_SIZE, DRAGON, NUM_DISHES, NUM_DRAGONS, is_full_deck
from .errors import SetupError
from .position import Position
from .reading import OVER, SEAT_SHIFT, TURNING_UP
from .rules import DRAW_OR_FEED, MUST_DRAW, Rules
from .setup import MAX_PLAYERS, MIN_PLAYERS
from .state import State

if TYPE_CHECKING:
    from .views import View

TAG = "kb1"
FIELDS = (
    "tag", "players", "rules", "first_cook", "round", "cook", "turn", "deck", "table",
    "king", "hands", "removed", "history",
)
_EMPTY = {DRAW_OR_FEED: "f", MUST_DRAW: "d"}
_EMPTY_BACK = {letter: value for value, letter in _EMPTY.items()}
_HEX = "0123456789abcdef"


def _counts(values: tuple[int, ...] | list[int]) -> str:
    return "".join(_HEX[v] for v in values)


def _rules_text(rules: Rules) -> str:
    return f"{_EMPTY[rules.empty_table]}{rules.dragon_min_on_table}"


def _history_text(history: tuple[int, ...]) -> str:
    return ",".join(f"{e >> SEAT_SHIFT}{e & ((1 << SEAT_SHIFT) - 1):02d}" for e in history) or "-"


def state_text(state: State) -> str:
    """The full state as one line (secret: it holds the deck and every drawn card)."""
    p = state.position()
    move = p.to_move
    if move == OVER:
        turn = "-"
    elif move == TURNING_UP:
        turn = f"t{p.turning}" if p.turning else f"w{p.drawer}"
    else:
        turn = f"{move}!" if p.pending else str(move)
    if not p.known:
        deck = "?" + _counts(p.unseen)
    elif p.full_deck:
        deck = "*" + "".join(map(str, p.deck)) + f"+{p.top}"
    else:
        deck = "=" + "".join(map(str, p.deck[p.top :]))
    hands = "/".join(
        f"{_counts(takes)}.{_counts(draws)}" for takes, draws in zip(p.takes, p.draws, strict=True)
    )
    removed = f"{_counts(p.removed_dishes)}.{p.removed_dragons}.{p.removed_unseen}"
    return " ".join((
        TAG, str(p.num_players), _rules_text(p.rules), str(p.first_cook),
        str(p.round), str(p.cook), turn, deck, _counts(p.table),
        _counts(p.king), hands, removed, _history_text(p.history),
    ))


def view_text(view: View) -> str:
    """What ``view`` shows, as one line: the deck as its size (``#N``), a drawn card the
    viewer may not see as a hidden count (``?N``). Safe to show the view's seat."""
    if view.to_move is None:
        turn = "-"
    elif view.to_move < 0:
        turn = "t"
    else:
        turn = f"{view.to_move}!" if view.pending_dragon else str(view.to_move)
    hands = "/".join(
        f"{_counts(hand.takes)}." + (f"?{hand.hidden}" if hand.draws is None
                                     else _counts(hand.draws))
        for hand in view.hands
    )
    history = ",".join(f"{turn.seat}{int(turn.action):02d}" for turn in view.history) or "-"
    return " ".join((
        TAG, str(view.num_players), _rules_text(view.rules), str(view.first_cook),
        str(view.round), str(view.cook), turn, f"#{view.deck_size}",
        _counts((*view.table, view.table_dragons)), _counts(view.king), hands,
        f"{_counts(view.removed_dishes)}.{view.removed_dragons}.{view.removed_unseen}",
        history,
    ))


def _bad(field: str, reason: str) -> SetupError:
    return SetupError(
        f"the position text's field {field!r} is wrong: {reason}", "bad_state_text",
        field=field, reason=reason,
    )


def _number(field: str, text: str, low: int, high: int) -> int:
    if not text.isdigit() or not text.isascii():
        raise _bad(field, f"{text!r} is not a number")
    value = int(text)
    if not low <= value <= high:
        raise _bad(field, f"{value} is not from {low} to {high}")
    return value


def _hex_counts(field: str, text: str, size: int) -> list[int]:
    if len(text) != size or any(c not in _HEX for c in text):
        raise _bad(field, f"{text!r} is not {size} hexadecimal counts")
    return [_HEX.index(c) for c in text]


def _cards(field: str, text: str) -> tuple[int, ...]:
    if any(c not in "01234567" for c in text):
        raise _bad(field, f"{text!r} holds something that is not a card number (0-7)")
    return tuple(map(int, text))


def state_from_text(text: str) -> State:
    """The state ``text`` holds, or a ``bad_state_text`` :class:`SetupError` naming the field
    at fault."""
    if not isinstance(text, str):
        raise _bad("tag", f"a position text is a string, not {type(text).__name__}")
    parts = text.split(" ")
    if len(parts) != len(FIELDS):
        raise _bad("tag", f"{len(parts)} fields, not {len(FIELDS)} separated by single spaces")
    got = dict(zip(FIELDS, parts, strict=True))
    if got["tag"] != TAG:
        raise _bad("tag", f"{got['tag']!r} is not {TAG!r}")
    n = _number("players", got["players"], MIN_PLAYERS, MAX_PLAYERS)
    rules_text = got["rules"]
    if len(rules_text) != 2 or rules_text[0] not in _EMPTY_BACK or rules_text[1] not in "12":
        raise _bad("rules", f"{rules_text!r} is not one of f1, f2, d1, d2")
    rules = Rules(_EMPTY_BACK[rules_text[0]], int(rules_text[1]))
    first_cook = _number("first_cook", got["first_cook"], 0, n - 1)
    round_ = _number("round", got["round"], 0, DECK_SIZE)
    cook = _number("cook", got["cook"], 0, n - 1)
    deck_text = got["deck"]
    known = deck_text[:1] in ("*", "=")
    full = deck_text[:1] == "*"
    top = 0
    unseen: list[int] = []
    if full:
        cards_text, plus, top_text = deck_text[1:].partition("+")
        if not plus:
            raise _bad("deck", "a whole deck ('*') ends with '+' and how many cards left it")
        deck = _cards("deck", cards_text)
        top = _number("deck", top_text, 0, len(deck))
        if not is_full_deck(deck):
            raise _bad("deck", "a whole deck holds 15 of each dish and 5 dragons (R1)")
    elif known:
        deck = _cards("deck", deck_text[1:])
    elif deck_text[:1] == "?":
        deck = ()
        unseen = _hex_counts("deck", deck_text[1:], NUM_DISHES + 1)
    else:
        raise _bad("deck", "it starts with '*' (whole deck), '=' (the rest) or '?' (unknown)")
    table = _hex_counts("table", got["table"], NUM_DISHES + 1)
    king = _hex_counts("king", got["king"], NUM_DISHES)
    hand_texts = got["hands"].split("/")
    if len(hand_texts) != n:
        raise _bad("hands", f"{len(hand_texts)} hands for {n} players")
    takes: list[list[int]] = []
    draws: list[list[int]] = []
    for hand in hand_texts:
        taken, dot, drawn = hand.partition(".")
        if not dot:
            raise _bad("hands", f"{hand!r} is not TAKES.DRAWS")
        takes.append(_hex_counts("hands", taken, NUM_DISHES))
        draws.append(_hex_counts("hands", drawn, NUM_DISHES))
    removed = got["removed"].split(".")
    if len(removed) != 3:
        raise _bad("removed", f"{got['removed']!r} is not DISHES.DRAGONS.UNSEEN")
    removed_dishes = _hex_counts("removed", removed[0], NUM_DISHES)
    removed_dragons = _number("removed", removed[1], 0, NUM_DRAGONS)
    removed_unseen = _number("removed", removed[2], 0, DECK_SIZE)
    history: list[int] = []
    if got["history"] != "-":
        for entry in got["history"].split(","):
            if len(entry) != 3 or not entry.isdigit() or not entry.isascii():
                raise _bad("history", f"{entry!r} is not a seat digit and a 2-digit action id")
            seat, action = int(entry[0]), int(entry[1:])
            if seat >= n or action >= NUM_ACTIONS:
                raise _bad("history", f"{entry!r} names no seat or no action")
            history.append(seat << SEAT_SHIFT | action)
    left = len(deck) - top if known else sum(unseen)
    turning, drawer, pending = 0, -1, False
    turn = got["turn"]
    if turn == "-":
        to_move = OVER
        if not known:
            left = 0  # the unknown deck's last cards left unseen (R10)
    elif turn[:1] in ("t", "w") and not known:
        to_move = TURNING_UP
        if turn[0] == "t":
            turning = _number("turn", turn[1:], 1, 2 * n)
        else:
            drawer = _number("turn", turn[1:], 0, n - 1)
    else:
        pending = turn.endswith("!")
        to_move = _number("turn", turn.rstrip("!"), 0, n - 1)
    position = Position(
        num_players=n, rules=rules, first_cook=first_cook, deck=deck, full_deck=full,
        known=known, top=top, left=left, unseen=tuple(unseen), turning=turning, drawer=drawer,
        table=tuple(table), king=tuple(king), takes=tuple(map(tuple, takes)),
        draws=tuple(map(tuple, draws)), removed_dishes=tuple(removed_dishes),
        removed_dragons=removed_dragons, removed_unseen=removed_unseen, to_move=to_move,
        cook=cook, round=round_, pending=pending, history=tuple(history),
    )
    state = State.from_position(position)
    _check_cards(state, position, known and not full)
    return state


def _check_cards(state: State, position: Position, rest_only: bool) -> None:
    """R1: every card is somewhere, once (15 of each dish, 5 dragons). Only the cards that
    left a game unseen at its end (R10) may be missing, and only when the text gives just
    the rest of a deck (a world dealt from a view), which no longer holds them."""
    missing = 0
    for card, count in enumerate(state.dish_totals()):
        expected = NUM_DRAGONS if card == DRAGON else CARDS_PER_DISH
        name = "dragons" if card == DRAGON else f"cards of dish {card}"
        if count > expected:
            raise _bad("deck", f"the position holds {count} {name}, not {expected} (R1)")
        missing += expected - count
    allowed = position.removed_unseen if rest_only and position.to_move == OVER else 0
    if missing != allowed:
        raise _bad("deck", f"{missing} cards are nowhere in the position (R1)")
    if position.pending and position.to_move < 0:
        raise _bad("turn", "a drawn dragon waits for a seat to use it (R7a)")


__all__ = ["FIELDS", "TAG", "state_from_text", "state_text", "view_text"]
