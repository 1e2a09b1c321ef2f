"""The perfect-recall information state of the OpenSpiel game, as a string and a tensor.

The default information-state string lists the cards of each deal in the order they were
turned up; but the table's cards are turned up together (R4), and their order tells no
player anything, so two histories that differ only in it are one position. With the game
parameter ``infostate="history"`` the string lists each deal's cards in R1 order, and the
information-state tensor is this module's :data:`SIZE`-number encoding of the same history,
so equal strings give equal tensors and the string keys of tabular algorithms no longer
split a position in two.

Layout (floats in [0, 1]):

- the view tensor of :mod:`.encoding` (the current counts, :data:`encoding.SIZE` numbers);
- for each of the game's player actions, up to :data:`MAX_ACTIONS`, in order: the action id
  one-hot (38), the seat that took it counted from the viewer one-hot (5), and, for a
  draw, the drawn card one-hot (7 dishes, then the dragon) when the viewer may know it
  (its own draw, or any dragon, R7b), else zeros;
- for each round, up to 18: the cards turned up for the table, by kind (7 dishes, then
  dragons), each count / (2 × 5).
"""

from __future__ import annotations

from typing import Any, Final

from kingsbreakfast.engine import CARD_IDS, DRAGON, MAX_PLAYERS, NUM_ACTIONS, NUM_DISHES

from . import encoding

MAX_ACTIONS: Final = 64
"""At most 18 rounds of 3 turns or 11 of 5, plus an action for each drawn dragon (R7a)."""
SLOT: Final = NUM_ACTIONS + MAX_PLAYERS + NUM_DISHES + 1
DEAL: Final = NUM_DISHES + 1
SIZE: Final = encoding.SIZE + MAX_ACTIONS * SLOT + encoding.MAX_ROUNDS * DEAL

_ORDER = {name: index for index, name in enumerate(CARD_IDS)}


def events(history: Any) -> list[tuple[str, int, int]]:
    """OpenSpiel's full history as (kind, seat, card or action): ``deal`` (seat -1), ``draw``
    (the card a player drew) and ``act`` (a player's action)."""
    out: list[tuple[str, int, int]] = []
    drawer = -1
    for item in history:
        if item.player < 0:  # chance: a drawn card right after a draw, else the table's
            out.append(("draw", drawer, item.action) if drawer >= 0 else ("deal", -1, item.action))
            drawer = -1
        else:
            out.append(("act", item.player, item.action))
            drawer = item.player if item.action == 7 else -1
    return out


def canonical_string(words: list[str]) -> str:
    """The information-state string with each deal's cards (consecutive ``+card`` words)
    sorted in R1 order."""
    out: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if word.startswith("+"):
            run.append(word)
            continue
        out += sorted(run, key=lambda w: _ORDER[w[1:]])
        run = []
        if word:
            out.append(word)
    return " ".join(out)


def history_tensor(
    view_tensor: list[float], history: Any, viewer: int, players: int, private: bool
) -> list[float]:
    """The tensor of the module doc for ``viewer`` (its own draws shown when ``private``)."""
    out = list(view_tensor)
    slots = [0.0] * (MAX_ACTIONS * SLOT)
    deals = [0.0] * (encoding.MAX_ROUNDS * DEAL)
    index = -1
    round_ = -1
    previous = "act"
    for kind, seat, value in events(history):
        if kind == "deal":
            if previous != "deal":
                round_ += 1
            deals[round_ * DEAL + value] += 1.0 / (2 * MAX_PLAYERS)
        elif kind == "act":
            index += 1
            base = index * SLOT
            slots[base + value] = 1.0
            slots[base + NUM_ACTIONS + (seat - viewer) % players] = 1.0
        elif value == DRAGON or (private and seat == viewer):  # R7b: who sees a drawn card
            slots[index * SLOT + NUM_ACTIONS + MAX_PLAYERS + value] = 1.0
        previous = kind
    return out + slots + deals
