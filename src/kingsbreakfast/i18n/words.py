"""The game's own words in the current language: dishes, the dragon, counted cards.

Counted phrases go through plural forms because languages count differently: Hungarian
keeps the noun singular after a number ("3 sajt"), French adds an -s ("3 fromages"),
Vietnamese has one form. Each dish therefore has its own plural entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kingsbreakfast.i18n import _, ngettext, pgettext

_DISH_NAMES: tuple[Callable[[], str], ...] = (
    lambda: pgettext("dish", "bread"),
    lambda: pgettext("dish", "cheese"),
    lambda: pgettext("dish", "ham"),
    lambda: pgettext("dish", "chicken"),
    lambda: pgettext("dish", "fruit"),
    lambda: pgettext("dish", "cake"),
    lambda: pgettext("dish", "wine"),
)

_DISH_COUNTS: tuple[Callable[[int], str], ...] = (
    lambda n: ngettext("{count} bread", "{count} bread", n),
    lambda n: ngettext("{count} cheese", "{count} cheese", n),
    lambda n: ngettext("{count} ham", "{count} ham", n),
    lambda n: ngettext("{count} chicken", "{count} chickens", n),
    lambda n: ngettext("{count} fruit", "{count} fruit", n),
    lambda n: ngettext("{count} cake", "{count} cakes", n),
    lambda n: ngettext("{count} wine", "{count} wine", n),
)


def dish_name(dish: int) -> str:
    """The dish's name (R1 gives them in four of our languages)."""
    return _DISH_NAMES[dish]()


def dish_count(dish: int, count: int) -> str:
    """``3 cheese`` / ``3 Käse`` / ``3 sajt`` / ``3 fromages`` / ``3 phô mai``."""
    return _DISH_COUNTS[dish](count).format(count=count)


def dragon_name() -> str:
    """The king's pet: Emerald, Smaragdocska in Hungarian (R1)."""
    return _("Emerald")


def dragon_count(count: int) -> str:
    return ngettext("{count} dragon", "{count} dragons", count).format(count=count)


def card_count(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def join_words(parts: Sequence[str]) -> str:
    """``a, b and c`` in the current language; ``nothing`` for an empty list."""
    if not parts:
        return _("nothing")
    if len(parts) == 1:
        return parts[0]
    return _("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])


def cards_phrase(counts: Sequence[int], dragons: int = 0) -> str:
    """``2 bread, 1 ham and 1 dragon`` (or ``nothing``)."""
    parts = [dish_count(dish, count) for dish, count in enumerate(counts) if count]
    if dragons:
        parts.append(dragon_count(dragons))
    return join_words(parts)
