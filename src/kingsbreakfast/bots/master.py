"""The master bot: a small network, trained on self-play, values every legal action.

For each legal action the network reads the position after it, as the mover sees it
(:mod:`.features`: sorted dish descriptions, the table's numbers, the card counter's value
of the action), and answers two numbers: the mover's expected share of the win (R12) and
the mover's expected final points (R11). The bot plays the action with the best win share.
It reads only the view, so it never sees a hidden card.

The weights ship with the package (``weights/master.npz``, the format is :data:`FORMAT`,
described in docs/analysis.md) and are read with numpy alone. A missing, truncated or
foreign file is an error naming the file and how to fix it, never a quiet fall back to a
weaker bot.
"""

from __future__ import annotations

import json
import random
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from kingsbreakfast.compiled import features
from kingsbreakfast.compiled.features import POINTS_SCALE
from kingsbreakfast.engine import NUM_DISHES, Action, KingsBreakfastError, View

from .base import legal_choices
from .heuristic import evaluate

FORMAT: Final = "kingsbreakfast-master"
VERSION: Final = 1
"""The weights file's format version; a file of another version is refused."""
_ARRAYS: Final = ("w1", "b1", "w2", "b2", "w3", "b3")

DESCRIPTION = (
    "Master was trained, not tuned: a small neural network played hundreds of thousands of "
    "games against itself and the hard level and learned from how they ended. For every "
    "legal action it estimates its share of the win and its final points from the position "
    "the action leaves (what it holds, what the king has, what is still unseen, the card "
    "counter's own estimate), and plays the action with the best chance of winning. It plays "
    "in a few milliseconds and sees only what its seat may see."
)


class MasterWeightsError(KingsBreakfastError, ValueError):
    """The weights file cannot be used; the message names the file and the fix."""

    code = "master_weights"


@dataclass(frozen=True, slots=True)
class MasterWeights:
    """The network's layers and the header written beside them."""

    w1: np.ndarray[Any, np.dtype[np.float64]]
    b1: np.ndarray[Any, np.dtype[np.float64]]
    w2: np.ndarray[Any, np.dtype[np.float64]]
    b2: np.ndarray[Any, np.dtype[np.float64]]
    w3: np.ndarray[Any, np.dtype[np.float64]]
    b3: np.ndarray[Any, np.dtype[np.float64]]
    header: dict[str, Any]

    def arrays(self) -> tuple[np.ndarray[Any, np.dtype[np.float64]], ...]:
        return (self.w1, self.b1, self.w2, self.b2, self.w3, self.b3)

    def values(self, rows: np.ndarray[Any, np.dtype[np.float64]]) -> np.ndarray[Any, Any]:
        """(win share, points / 50) for each row: the same arithmetic as the kernel's."""
        h1 = np.maximum(rows @ self.w1 + self.b1, 0.0)
        h2 = np.maximum(h1 @ self.w2 + self.b2, 0.0)
        out: np.ndarray[Any, Any] = h2 @ self.w3 + self.b3
        return out


def default_weights_path() -> Path:
    """The weights that ship in the package."""
    return Path(str(resources.files("kingsbreakfast.bots") / "weights" / "master.npz"))


def _fix(path: Path) -> str:
    return (
        f"reinstall kingsbreakfast to restore the shipped weights, or train new ones with "
        f"`kingsbreakfast train --output {path}`"
    )


def header_bytes(header: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The header as the file stores it: UTF-8 JSON in a byte array (no pickles)."""
    return np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8).copy()


def save_weights(
    path: Path, arrays: dict[str, np.ndarray[Any, Any]], header: dict[str, Any]
) -> None:
    """Write a weights file: the six layers and the header with format, version, layout."""
    full = {"format": FORMAT, "version": VERSION, "features": features.NUM_FEATURES,
            "layout": features.LAYOUT, **header}
    data = {name: np.asarray(arrays[name], np.float32) for name in _ARRAYS}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(handle, header=header_bytes(full), **data)  # type: ignore[arg-type]


def load_weights(path: Path | str | None = None) -> MasterWeights:
    """Read and check a weights file (the shipped one by default)."""
    path = default_weights_path() if path is None else Path(path)
    if not path.is_file():
        raise MasterWeightsError(
            f"the master bot's weights file {path} is missing: {_fix(path)}", path=str(path)
        )
    try:
        with np.load(path, allow_pickle=False) as data:
            loaded = {name: np.asarray(data[name], np.float64) for name in (*_ARRAYS, "header")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise MasterWeightsError(
            f"the master bot's weights file {path} is damaged or truncated ({error}): "
            f"{_fix(path)}",
            path=str(path),
        ) from None
    try:
        header = json.loads(bytes(loaded["header"].astype(np.uint8)).decode())
    except (ValueError, UnicodeDecodeError):
        raise MasterWeightsError(
            f"the master bot's weights file {path} has an unreadable header: {_fix(path)}",
            path=str(path),
        ) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise MasterWeightsError(
            f"{path} is not a master bot weights file (format {FORMAT!r} expected): {_fix(path)}",
            path=str(path),
        )
    if header.get("version") != VERSION or header.get("layout") != features.LAYOUT:
        raise MasterWeightsError(
            f"the master bot's weights file {path} is format version {header.get('version')!r}"
            f" with another feature layout; this program reads version {VERSION}: {_fix(path)}",
            path=str(path),
        )
    weights = MasterWeights(
        loaded["w1"], loaded["b1"], loaded["w2"], loaded["b2"], loaded["w3"], loaded["b3"],
        header,
    )
    w1, b1, w2, b2, w3, b3 = weights.arrays()
    shapes_ok = (
        w1.ndim == 2 and w1.shape[0] == features.NUM_FEATURES and b1.shape == (w1.shape[1],)
        and w2.ndim == 2 and w2.shape[0] == w1.shape[1] and b2.shape == (w2.shape[1],)
        and w3.shape == (w2.shape[1], 2) and b3.shape == (2,)
    )
    if not shapes_ok or not all(np.isfinite(a).all() for a in weights.arrays()):
        raise MasterWeightsError(
            f"the master bot's weights file {path} has layers of the wrong shape or "
            f"non-finite numbers: {_fix(path)}",
            path=str(path),
        )
    return weights


@lru_cache(maxsize=4)
def _cached(path: str | None) -> MasterWeights:
    return load_weights(path)


def view_rows(view: View) -> tuple[list[Action], np.ndarray[Any, np.dtype[np.float64]]]:
    """The legal actions of the player to move and the network's row for each."""
    mover = view.to_move
    legal = list(view.legal_actions())
    if mover is None or mover < 0 or not legal:
        raise ValueError("the game is over: there is no action to value")
    hand = view.hands[mover]
    # a spectator or another seat (a hint) does not know the mover's draws
    my_draws = [0] * NUM_DISHES if hand.draws is None else list(hand.draws)
    counter = evaluate(view)
    rows = features.new_rows(len(legal))
    features.encode(
        rows,
        np.zeros((NUM_DISHES, features.DISH_WIDTH)),
        np.array([int(a) for a in legal], np.int64),
        len(legal),
        np.array([*view.table, view.table_dragons], np.int64),
        np.array(view.king, np.int64),
        np.array([h.takes for h in view.hands], np.int64),
        np.array(my_draws, np.int64),
        np.array([h.hidden for h in view.hands], np.int64),
        np.array(view.removed_dishes, np.int64),
        view.removed_dragons,
        view.pending_dragon,
        mover,
        view.num_players,
        view.turns_left,
        view.deck_size,
        np.array([counter[a] for a in legal], np.float64),
        features.FEED_A,
        features.FEED_B,
    )
    return legal, rows


def row_values(rows: Any, weights: MasterWeights) -> list[tuple[float, float]]:
    """(win share, expected points) of each row of :func:`view_rows`, in order."""
    out = weights.values(rows)
    return [(float(out[i, 0]), float(out[i, 1] * POINTS_SCALE)) for i in range(len(out))]


def action_values(view: View, weights: MasterWeights) -> list[tuple[Action, float, float]]:
    """(action, win share, expected points) of every legal action, in the legal order."""
    legal, rows = view_rows(view)
    return [(a, win, points) for a, (win, points) in zip(legal, row_values(rows, weights),
                                                          strict=True)]


class MasterBot:
    """Plays the legal action whose after-state the network values best."""

    name = "master"
    description = DESCRIPTION

    def __init__(self, weights: str | None = None) -> None:
        self.weights = _cached(weights)

    def act(self, view: View, rng: random.Random) -> Action:
        legal = legal_choices(view)
        if len(legal) == 1:
            return legal[0]
        valued = action_values(view, self.weights)
        # the best win share, then the best points, then the first listed (the kernel's rule)
        best = valued[0]
        for entry in valued[1:]:
            if entry[1] > best[1] or (entry[1] == best[1] and entry[2] > best[2]):
                best = entry
        return best[0]


__all__ = [
    "FORMAT",
    "VERSION",
    "MasterBot",
    "MasterWeights",
    "MasterWeightsError",
    "action_values",
    "default_weights_path",
    "load_weights",
    "save_weights",
]
