"""The one table of bots: every name a player, a table host, a tournament or a batch run may
ask for, with how it plays and how to build it.

Everything that offers bots by name reads this table (the ``bots`` command and ``play``, the
server's lobby, tournament line-ups, the batch simulator's policies), so a new bot or level
is added here once and appears everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any, Final

from kingsbreakfast.compiled.levels import MEDIUM_MISTAKES as MEDIUM_MISTAKES
from kingsbreakfast.engine import KingsBreakfastError

from .base import Bot
from .exploiter import ExploiterBot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot

EXPERT_SIMULATIONS: Final = 1000
"""Expert's search budget. Its strength against the card counter levels off after a few
hundred simulations (docs/analysis.md), so more would only make players wait."""

_HEURISTIC_OPTIONS: Final[Mapping[str, type]] = {"leader_weight": float, "mistakes": float}
_EXPLOITER_OPTIONS: Final[Mapping[str, type]] = {"leader_weight": float, "hoard_margin": float}
_ISMCTS_OPTIONS: Final[Mapping[str, type]] = {
    "simulations": int,
    "seconds": float,
    "exploration": float,
    "rollout_rounds": int,
    "prior_weight": float,
    "world_reuse": int,
}


@dataclass(frozen=True, slots=True)
class Strength:
    """A level's measured strength: its win share as one player of four against three bots
    of the level ``against`` (docs/analysis.md, "Strength ladder", measured by
    ``benchmarks/ladder.py`` and ``benchmarks/strength.py``: seat-rotated, two seeds or more,
    a 95% Wilson interval)."""

    against: str
    share: float
    low: float
    high: float
    games: int


@dataclass(frozen=True, slots=True)
class BotEntry:
    """One name in the table of bots."""

    name: str
    summary: str
    """One line on what the name stands for; a bot's full paragraph is ``description``."""
    factory: Callable[..., Bot]
    """Builds the bot from its options (keyword arguments, each one of ``options``)."""
    options: Mapping[str, type] = field(default_factory=dict)
    """The options the bot takes and the type of each, so text like ``simulations=60`` can
    be read before a worker process builds the bot."""
    level: int | None = None
    """Place on the difficulty ladder (1 is the weakest); None for a bot that is no level."""
    offered: bool = False
    """Offered to a table's host as the opponent for the empty seats."""
    batch_policy: str | None = None
    """The batch simulator's policy that plays this way, if it has one."""
    strength: Strength | None = None
    """The level's rung of the ladder, where it has been measured."""
    thinks_long: bool = False
    """A move takes long enough (a median above a millisecond, measured by
    ``benchmarks/bot_move_time.py``) that a server plays it in a thread, off the event loop
    every table shares."""

    @property
    def description(self) -> str:
        """One paragraph on how it plays: the bot's own, after the summary for a level, so
        a level read on its own (a menu, a level bot's ``description``) says everything."""
        bot = self.factory()
        paragraph: str = getattr(bot, "description", "")
        return f"{self.summary} {paragraph}" if self.level is not None else paragraph


def _ismcts(default_simulations: int | None) -> Callable[..., Bot]:
    """The search with its default budget; a time budget alone stays a time budget only."""

    def build(**options: Any) -> Bot:
        if "simulations" not in options:
            if "seconds" in options:
                options["simulations"] = None
            elif default_simulations is not None:
                options["simulations"] = default_simulations
        return IsmctsBot(**options)

    return build


def _medium(**options: Any) -> Bot:
    return HeuristicBot(**{"mistakes": MEDIUM_MISTAKES, **options})


HAS_NUMPY: Final = find_spec("numpy") is not None
"""The master level reads its network with numpy. Without numpy it is still listed (so a
game that names it says why it cannot start) but not offered to a table's host."""


def _master(**options: Any) -> Bot:
    """The learned level, imported only when asked for: playing needs numpy, not the rest."""
    if not HAS_NUMPY:
        raise MissingNumpyError()
    from .master import MasterBot

    return MasterBot(**options)


HAS_NUMBA: Final = HAS_NUMPY and find_spec("numba") is not None
"""The chef level searches with the compiled rules, which need numba (and numpy). Without
them it is listed but not offered, and asking for it names the extra that brings them."""
CHEF_OPTIONS: Final[Mapping[str, type]] = {
    "candidates": int, "worlds": int, "depth": int, "prior_weight": float,
}


class ChefUnavailableError(KingsBreakfastError, RuntimeError):
    """The chef level was asked for where numpy or numba is not installed."""

    code = "needs_extra"

    def __init__(self) -> None:
        super().__init__(
            "the chef bot needs numpy and numba: install them with pip install "
            "'kingsbreakfast[batch]'",
            packages="numpy, numba", extra="batch",
        )


def _chef(**options: Any) -> Bot:
    """The searching level, imported only when asked for: it plays the compiled search
    (:mod:`kingsbreakfast.compiled`), whose import loads numba."""
    if not HAS_NUMBA:
        raise ChefUnavailableError()
    from .chef import ChefBot

    return ChefBot(**options)


class MissingNumpyError(KingsBreakfastError, RuntimeError):
    """The master level was asked for where numpy is not installed."""

    code = "master_needs_numpy"

    def __init__(self) -> None:
        super().__init__(
            "the master bot needs numpy: install it with pip install 'kingsbreakfast[batch]' "
            "(or numpy alone)"
        )


BOTS: Final[tuple[BotEntry, ...]] = (
    BotEntry(
        "random", "Any legal action at random.", RandomBot, offered=True, batch_policy="random"
    ),
    BotEntry(
        "greedy", "The best score if the game ended after this round.", GreedyBot,
        batch_policy="greedy",
    ),
    BotEntry(
        "heuristic", "Counts cards and keeps under the king.", HeuristicBot, _HEURISTIC_OPTIONS,
        batch_policy="heuristic",
    ),
    BotEntry(
        "exploiter", "A probe of stronger bots: against the leader, hoarding dragons, exact "
        "at the end.", ExploiterBot, _EXPLOITER_OPTIONS,
    ),
    BotEntry(
        "ismcts", "Searches many deals of the unseen cards.", _ismcts(None), _ISMCTS_OPTIONS,
        thinks_long=True,
    ),
    BotEntry(
        "easy", "Easy is the greedy bot.", GreedyBot, level=1, offered=True,
        batch_policy="greedy", strength=Strength("random", 0.8974, 0.8876, 0.9064, 4000),
    ),
    BotEntry(
        "medium",
        f"Medium is the heuristic bot, except that {round(100 * MEDIUM_MISTAKES)}% of its "
        "moves are random slips.",
        _medium, _HEURISTIC_OPTIONS, level=2, offered=True, batch_policy="medium",
        strength=Strength("easy", 0.5857, 0.5704, 0.6009, 4000),
    ),
    BotEntry(
        "hard", "Hard is the heuristic bot, without slips.", HeuristicBot, _HEURISTIC_OPTIONS,
        level=3, offered=True, batch_policy="heuristic",
        strength=Strength("medium", 0.4074, 0.3922, 0.4227, 4000),
    ),
    BotEntry(
        "expert", f"Expert is the ismcts bot with {EXPERT_SIMULATIONS} simulations a move.",
        _ismcts(EXPERT_SIMULATIONS), _ISMCTS_OPTIONS, level=4, offered=True, thinks_long=True,
        strength=Strength("hard", 0.3034, 0.2893, 0.3178, 4000),
    ),
    BotEntry(
        "master", "Master is a neural network trained on self-play (numpy needed).",
        _master, level=5, offered=HAS_NUMPY,
        strength=Strength("hard", 0.4326, 0.429, 0.4362, 72000),
    ),
    BotEntry(
        "chef", "Chef searches with master's network: it plays master's best few actions in "
        "many deals of the unseen cards and keeps the one that does best (numpy and numba "
        "needed).",
        _chef, CHEF_OPTIONS, level=6, offered=HAS_NUMBA, thinks_long=True,
        strength=Strength("hard", 0.4722, 0.4567, 0.4877, 4000),
    ),
)
"""Every bot and level: the bots first, then the levels weakest first."""

_BY_NAME: Final = {entry.name: entry for entry in BOTS}

LEVELS: Final = tuple(
    entry.name for entry in sorted(BOTS, key=lambda e: e.level or 0) if entry.level is not None
)
"""Difficulty levels, weakest first."""
BOT_NAMES: Final = tuple(entry.name for entry in BOTS if entry.level is None)
"""The bots that are not levels, in the order they are listed."""
OPPONENT_LEVELS: Final = tuple(entry.name for entry in BOTS if entry.offered)
"""What a table's host may choose for the seats nobody takes."""


class UnknownBotError(KingsBreakfastError, ValueError):
    """A name that is not in the table; the message lists the names that are."""

    code = "unknown_bot"

    def __init__(self, name: str, choices: tuple[str, ...] | None = None) -> None:
        known = choices if choices is not None else tuple(_BY_NAME)
        super().__init__(
            f"unknown bot {name!r}: choose one of {', '.join(known)}",
            name=name,
            choices=list(known),
        )


def find_bot(name: str) -> BotEntry:
    """The entry for ``name`` (any case, spaces around ignored)."""
    entry = _BY_NAME.get(name.strip().lower())
    if entry is None:
        raise UnknownBotError(name)
    return entry


def make_bot(name: str, **options: Any) -> Bot:
    """A bot by its name or level, with options from its entry's ``options``.

    A level's bot carries the level's name and description, so menus and results say
    ``medium`` rather than the bot it is built on.
    """
    entry = find_bot(name)
    unknown = sorted(set(options) - set(entry.options))
    if unknown and not entry.options:
        raise ValueError(f"bot {entry.name!r} takes no options (got {', '.join(unknown)})")
    if unknown:
        raise ValueError(
            f"bad option for bot {entry.name!r}: {unknown[0]!r} (options: "
            f"{', '.join(entry.options)})"
        )
    try:
        bot = entry.factory(**options)
    except TypeError as error:  # a value of the wrong kind reached the constructor
        raise ValueError(f"bad option for bot {entry.name!r}: {error}") from None
    if entry.level is not None:
        bot.name = entry.name
        bot.description = entry.description  # type: ignore[attr-defined]
    return bot


def describe_bot(name: str) -> str:
    """One paragraph on how the bot or level plays (for menus and ``--help``)."""
    return find_bot(name).description


def batch_policy(name: str) -> str:
    """The batch simulator's policy for a bot or level, for research runs that name bots."""
    entry = _BY_NAME.get(name.strip().lower())
    if entry is None or entry.batch_policy is None:
        with_policy = ", ".join(e.name for e in BOTS if e.batch_policy is not None)
        raise ValueError(f"unknown batch policy {name!r}: choose one of {with_policy}")
    return entry.batch_policy
