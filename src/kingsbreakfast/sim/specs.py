"""Bot specifications as text, so that a tournament's line-up can travel to worker processes
and into result files: ``name`` or ``name:option=value:option=value`` (``expert:simulations=60``),
and ``spec*k`` for k seats of the same bot (``hard,medium*3``). Outside players are named
``module:Class`` or ``cmd:PROGRAM`` (:mod:`kingsbreakfast.bots.outside`).

Outside players never share a process between seats, since a process that hears two seats'
hidden cards can pool them: every ``cmd:`` entry of a line-up runs its own program (also
``cmd:X*2``), and a line-up with more than one ``module:Class`` entry is refused, since such
players all live in the tournament's own process."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kingsbreakfast.bots import Bot, find_bot, make_bot
from kingsbreakfast.bots.outside import DEFAULT_TIMEOUT, is_outside, outside_bot
from kingsbreakfast.engine import KingsBreakfastError


class LineupError(KingsBreakfastError):
    """A line-up that cannot be played as given (``code`` says why)."""


class BotOptionError(KingsBreakfastError, ValueError):
    """A bot's options written wrong (``expert:simulations=abc``): a code and params, so the
    command line says it in the player's language; still a ValueError for callers that
    catch bad input as such."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot by name with its options; ``label`` is how it appears in results."""

    name: str
    options: tuple[tuple[str, object], ...] = ()
    outside: bool = False
    """``name`` is an outside player: ``module:Class`` or ``cmd:PROGRAM``."""
    timeout: float = DEFAULT_TIMEOUT
    """Seconds an outside program has for a move."""
    entry: int = 0
    """Its place in the line-up: an outside program per entry."""

    @property
    def label(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])

    def build(self) -> Bot:
        if self.outside:
            return outside_bot(self.name, self.timeout, self.entry)
        bot = make_bot(self.name, **dict(self.options))
        bot.name = self.label
        return bot

    @property
    def time_bounded(self) -> bool:
        """A bot with a time budget plays differently on a busy machine: not reproducible."""
        return any(k == "seconds" for k, _ in self.options)


def parse_spec(text: str, timeout: float = DEFAULT_TIMEOUT) -> BotSpec:
    """``name[:option=value...]`` to a :class:`BotSpec`, with a clear error for bad input.

    Names and option types come from the bots' registry, so a line-up accepts exactly what
    ``make_bot`` does; ``module:Class`` and ``cmd:PROGRAM`` name outside players."""
    if is_outside(text):
        spec = BotSpec(text.strip(), outside=True, timeout=timeout)
        if not text.strip().startswith("cmd:"):
            spec.build()  # an import error now rather than in a worker
        return spec
    parts = [p.strip() for p in text.strip().split(":")]
    entry = find_bot(parts[0])
    options: list[tuple[str, object]] = []
    for part in parts[1:]:
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotOptionError(f"bad bot option {part!r} in {text!r}: write option=value",
                                 "bad_bot_option", option=part, bot=text)
        if not entry.options:
            raise BotOptionError(
                f"bot {entry.name!r} takes no options (got {key} in {text!r})",
                "bot_takes_no_options", name=entry.name, option=key, bot=text)
        kind = entry.options.get(key)
        if kind is None:
            raise BotOptionError(
                f"unknown bot option {key!r} in {text!r} (options of {entry.name}: "
                f"{', '.join(entry.options)})", "unknown_bot_option", option=key, bot=text,
                name=entry.name, choices=list(entry.options),
            )
        try:
            value = kind(raw)
        except ValueError:
            raise BotOptionError(f"bad value {raw!r} for {key} in {text!r}",
                                 "bad_bot_option_value", value=raw, option=key,
                                 bot=text) from None
        options.append((key, value))
    spec = BotSpec(entry.name, tuple(options))
    spec.build()  # refuse values the bot does not take, now rather than in a worker
    return spec


def parse_lineup(
    text: str, players: int, timeout: float = DEFAULT_TIMEOUT
) -> tuple[BotSpec, ...]:
    """A comma-separated line-up (``expert,heuristic,greedy,random`` or ``hard,medium*3``)
    with exactly one bot per seat; ``timeout`` is the outside programs' time for a move."""
    specs: list[BotSpec] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise ValueError(f"empty bot name in {text!r}")
        spec_text, star, times = item.partition("*")
        count = 1
        if star:
            try:
                count = int(times)
            except ValueError:
                raise ValueError(f"bad repeat {times!r} in {item!r}: write bot*3") from None
            if count < 1:
                raise ValueError(f"bad repeat {count} in {item!r}")
        spec = parse_spec(spec_text, timeout)
        specs.extend(replace(spec, entry=len(specs) + k) for k in range(count))
    classes = [s.name for s in specs if s.outside and not s.name.startswith("cmd:")]
    if len(classes) > 1:
        raise LineupError(
            f"the line-up names {len(classes)} module:Class players ({', '.join(classes)}): "
            "they would share one process and could pool their seats' hidden cards; name "
            "at most one, and run the others as cmd:PROGRAM (each gets its own process)",
            "agents_share_process", count=len(classes),
        )
    if len(specs) != players:
        raise ValueError(
            f"the line-up {text!r} names {len(specs)} bots for {players} seats: give one bot "
            f"per seat (use bot*k to repeat one)"
        )
    return tuple(specs)
