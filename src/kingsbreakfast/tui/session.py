"""One game at the keyboard: who sits where, the bots, the log, saving and resuming.

This is the part of the terminal game that knows the full :class:`State`; the screens never
see it. Everything a screen shows comes from :meth:`Game.view` of the seat looking at it, a
bot is handed only its own seat's view, and each log entry is kept in two wordings (what
everyone may know, and what the mover knows), so a hand-over can rebuild the whole screen for
the next player without a trace of the previous player's drawn cards.
Both the full-screen app and the plain line-by-line mode drive a game through this class.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kingsbreakfast.bots import Bot
from kingsbreakfast.engine import (
    Action,
    IllegalActionError,
    KingsBreakfastError,
    Record,
    RecordError,
    Rules,
    State,
    View,
)
from kingsbreakfast.i18n import current_language
from kingsbreakfast.narrate import DEFAULT_NAMES, narrate, round_opening

from . import strings
from .opponents import default_bot, make_opponent

GAME_TAG = "game"
LANGUAGE_TAG = "language"
"""The language the game was played in, so that resuming it speaks the same one."""
SEATS_TAG = "seats"
"""Extra record key (the format ignores unknown keys) telling which seats are humans and
which bots, so that ``--resume`` seats everyone as they were."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a human at this keyboard (``bot`` None) or a bot by name."""

    name: str
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        return self.bot is None

    @property
    def label(self) -> str:
        return self.name if self.bot is None else strings.bot_label(self.name, self.bot)

    def to_tag(self) -> dict[str, str]:
        return {"kind": "human"} if self.bot is None else {"kind": "bot", "bot": self.bot}


@dataclass(frozen=True, slots=True, eq=False)
class LogEntry:
    """What one action did, kept as the views around it so that it is told in whatever
    language is current when the log is drawn (a player may switch mid-game): ``public``
    for everyone, ``private`` for the mover, who may read the card they drew."""

    mover: int | None
    words: Callable[[bool], tuple[str, ...]] = field(repr=False)
    """Sentences in the current language; the argument asks for the mover's own wording."""

    @property
    def public(self) -> tuple[str, ...]:
        return self.words(False)

    @property
    def private(self) -> tuple[str, ...]:
        return self.words(True)

    def lines_for(self, viewer: int | None) -> tuple[str, ...]:
        return self.words(viewer is not None and viewer == self.mover)

    def __eq__(self, other: object) -> bool:
        """Entries are equal when they tell the same thing to everyone."""
        if not isinstance(other, LogEntry):
            return NotImplemented
        return (self.mover, self.public, self.private) == (other.mover, other.public, other.private)

    __hash__ = None  # type: ignore[assignment]


class SeatingError(KingsBreakfastError, ValueError):
    """Seats that cannot make a game (wrong count, unknown bot); ``message`` says why in
    English and each case has a code of its own, so the command line can say it in the
    player's language."""

    code = "bad_seating"


@dataclass
class Game:
    """A game in progress with its seats; the only holder of the full state."""

    state: State = field(repr=False)
    seats: tuple[Seat, ...]
    rng: random.Random = field(repr=False)
    seed: int | None = None
    """The seed the deck was shuffled with (None for a resumed game)."""
    log: list[LogEntry] = field(default_factory=list)
    game_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    """Names this game across saves and resumes (the record's ``game`` key), so that
    resuming a saved file goes on in the same autosave rather than starting another."""
    _saved_language: str | None = field(default=None, repr=False)
    _bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    _bot_rngs: dict[int, random.Random] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.state.num_players:
            raise SeatingError(
                f"{len(self.seats)} seats for a game of {self.state.num_players} players",
                "seat_count",
                seats=len(self.seats),
                players=self.state.num_players,
            )
        for seat, plan in enumerate(self.seats):
            if plan.bot is not None:
                self._bots[seat] = make_opponent(plan.bot)
                self._bot_rngs[seat] = random.Random(self.rng.randrange(2**63))
        if not self.log:
            self.log.append(self._opening())

    # -- setting up ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        seed: int | None = None,
        rules: Rules | None = None,
        first_cook: int | None = None,
    ) -> Game:
        """A freshly shuffled game; the first cook is drawn at random unless given (R2)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        cook = rng.randrange(len(seats)) if first_cook is None else first_cook
        state = State.new(len(seats), rng, first_cook=cook, rules=rules or Rules())
        return cls(state, tuple(seats), rng, seed)

    def rematch(self) -> Game:
        """"Play again": the same seats and rules, a new deck (the next seed when this
        game's seed is known, so a seeded evening replays the same way)."""
        seed = None if self.seed is None else self.seed + 1
        return Game.new(self.seats, seed, self.state.rules)

    @classmethod
    def from_record(
        cls, record: Record, seats: Sequence[Seat] | None = None, seed: int | None = None
    ) -> Game:
        """Resume a saved game: replay its actions, seat humans and bots as they were.

        ``seats`` overrides the record's own ``seats`` tag; without either, the first seat
        is the human and the others are bots of the default level.
        """
        names = record.players
        if seats is None:
            seats = seats_from_tag(record.tags.get(SEATS_TAG), names)
        rng = random.Random(seed if seed is not None else random.SystemRandom().random())
        language = record.tags.get(LANGUAGE_TAG)
        game = cls(record.start(), tuple(seats), rng, game_id=record_game_id(record),
                   _saved_language=language if isinstance(language, str) else None)
        for action in record.actions:
            game.play(action)
        return game

    @property
    def saved_language(self) -> str | None:
        """The language of the save this game was resumed from (None: a new game)."""
        return self._saved_language

    def _opening(self) -> LogEntry:
        seats, names = self.seats, self.names
        rules, start = self.state.rules, self.state.view(None)

        def words(_private: bool) -> tuple[str, ...]:
            labels = [seat.label for seat in seats]  # in the language of the moment
            return (
                strings.seating(labels, rules.to_dict(), rules.is_default),
                round_opening(start, names),
            )

        return LogEntry(None, words)

    # -- what may be known ---------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def labels(self) -> list[str]:
        return [seat.label for seat in self.seats]

    @property
    def humans(self) -> list[int]:
        return [seat for seat, plan in enumerate(self.seats) if plan.is_human]

    @property
    def untouched(self) -> bool:
        """Humans sit here and none of them has moved yet: left now, a new game is not worth
        an entry among the saved games (a start and quit would pile up round-1 games)."""
        return bool(self.humans) and not any(
            entry.mover is not None and self.seats[entry.mover].is_human for entry in self.log
        )

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def human_to_move(self) -> bool:
        seat = self.state.to_move
        return seat is not None and self.seats[seat].is_human

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (None: only what everyone knows)."""
        return self.state.view(seat)

    def log_lines(self, viewer: int | None) -> list[str]:
        return [line for entry in self.log for line in entry.lines_for(viewer)]

    # -- moving --------------------------------------------------------------------------
    def bot_choice(self) -> Action:
        """The bot to move picks its action from its own view only (may take a while: the
        app calls this off the screen's thread)."""
        seat = self.state.to_move
        if seat is None or seat not in self._bots:
            raise IllegalActionError("it is no bot's turn", "not_bot_turn")
        return self._bots[seat].act(self.state.view(seat), self._bot_rngs[seat])

    def play(self, action: Action) -> LogEntry:
        """Do the mover's action (checked: an illegal one raises and changes nothing)."""
        mover = self.state.to_move
        if mover is None:
            raise IllegalActionError("the game is over (R10)", "game_over")
        public_before, own_before = self.state.view(None), self.state.view(mover)
        self.state.play(action, mover)
        public_after, own_after = self.state.view(None), self.state.view(mover)
        names = self.names

        def words(private: bool) -> tuple[str, ...]:
            if private:
                return tuple(narrate(own_before, action, own_after, names))
            return tuple(narrate(public_before, action, public_after, names))

        entry = LogEntry(mover, words)
        self.log.append(entry)
        return entry

    # -- saving --------------------------------------------------------------------------
    def record(self) -> Record:
        """The game so far as a ``kingsbreakfast/1`` record, seats kept as an extra key."""
        return Record.from_state(
            self.state,
            self.names,
            **{
                SEATS_TAG: [seat.to_tag() for seat in self.seats],
                GAME_TAG: self.game_id,
                LANGUAGE_TAG: current_language(),
                "saved": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            },
        )


def record_game_id(record: Record) -> str:
    """The record's ``game`` key; a record without one (an older save, another program's)
    is named by how it starts — players, deck, first cook, rules — the same for every copy."""
    tag = record.tags.get(GAME_TAG)
    if isinstance(tag, str) and tag:
        return tag
    start = json.dumps([list(record.players), list(record.deck or ()), record.seed,
                        record.first_cook, record.rules.to_dict()], sort_keys=True)
    return "start-" + hashlib.sha256(start.encode()).hexdigest()[:24]


def seats_from_tag(tag: object, names: Sequence[str]) -> list[Seat]:
    """Read the record's ``seats`` key back; a missing or malformed one seats a human at
    seat 0 and bots elsewhere."""
    if (
        isinstance(tag, list)
        and len(tag) == len(names)
        and all(isinstance(item, dict) for item in tag)
    ):
        seats: list[Seat] = []
        for name, item in zip(names, tag, strict=True):
            if item.get("kind") == "bot" and isinstance(item.get("bot"), str):
                seats.append(Seat(name, item["bot"]))
            elif item.get("kind") == "human":
                seats.append(Seat(name))
            else:
                raise RecordError(
                    f"'{SEATS_TAG}': {item!r} is neither a human nor a bot seat", "bad_seats"
                )
        return seats
    if tag is not None:
        raise RecordError(
            f"'{SEATS_TAG}' must list one {{'kind': 'human'|'bot'}} object per player",
            "bad_seats",
        )
    bot = default_bot()
    return [Seat(names[0]), *(Seat(name, bot) for name in names[1:])]


def plan_seats(
    players: int,
    bots: Sequence[str],
    seat: int,
    humans: int,
    names: Sequence[str] = (),
) -> list[Seat]:
    """Seat ``humans`` people from ``seat`` on (clockwise) and bots in the other seats.

    ``bots`` names the bots in seat order; a single name serves every bot seat. ``names``
    names the humans, in that order; a seat not named gets its name from
    :data:`~kingsbreakfast.narrate.DEFAULT_NAMES`, as in every other mode.
    """
    if not 3 <= players <= 5:
        raise SeatingError(
            f"King's Breakfast is played by 3 to 5 players, not {players} (R2)",
            "bad_player_count",
            players=players,
        )
    if not 0 <= humans <= players:
        raise SeatingError(
            f"--hotseat must be from 0 to {players} humans, not {humans}",
            "bad_hotseat",
            players=players,
            humans=humans,
        )
    if not 0 <= seat < players:
        raise SeatingError(
            f"--seat must be from 0 to {players - 1}, not {seat}",
            "bad_seat",
            last=players - 1,
            seat=seat,
        )
    if len(names) > humans:
        raise SeatingError(
            f"{len(names)} names given for {humans} human players",
            "too_many_names",
            names=len(names),
            humans=humans,
        )
    human_seats = [(seat + k) % players for k in range(humans)]
    bot_count = players - humans
    if not bots:
        bots = [default_bot()]
    if len(bots) == 1:
        bots = list(bots) * bot_count
    if len(bots) != bot_count:
        raise SeatingError(
            f"{len(bots)} bots named for {bot_count} bot seats (name one for every bot seat, "
            "or one for all)",
            "bot_count",
            bots=len(bots),
            seats=bot_count,
        )
    plan: list[Seat] = []
    bot_iter = iter(bots)
    for place in range(players):
        if place in human_seats:
            number = human_seats.index(place)  # the humans are numbered from --seat on
            name = names[number] if number < len(names) else DEFAULT_NAMES[place]
            plan.append(Seat(name))
        else:
            plan.append(Seat(DEFAULT_NAMES[place], next(bot_iter)))
    return plan


class Watcher:
    """Who is looking at the screen, and when the keyboard must change hands.

    With one human the screen always shows that human's view; with none, the public view.
    At a hot-seat table (two humans or more) the screen drops to the public view as soon as
    a human's turn is over, and the next human gets it only after a hand-over, so nobody
    ever sees another player's drawn cards (R7).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        humans = game.humans
        self.hotseat = len(humans) > 1
        self.seat: int | None = humans[0] if len(humans) == 1 else None
        self._last_human: int | None = self.seat

    def after_move(self) -> None:
        """Called after every action: hides a hot-seat player's view once their turn ends."""
        if self.hotseat and self.game.to_move != self.seat:
            self.seat = None

    def handover_to(self) -> int | None:
        """The human who must be handed the keyboard before the game can go on, or None.

        A human who was the last to see private cards takes the screen back silently.
        """
        seat = self.game.to_move
        if seat is None or not self.game.seats[seat].is_human or seat == self.seat:
            return None
        if seat == self._last_human:
            self.seat = seat
            return None
        return seat

    def take_over(self, seat: int) -> None:
        """The hand-over is done: ``seat`` alone looks at the screen now."""
        self.seat = seat
        self._last_human = seat
