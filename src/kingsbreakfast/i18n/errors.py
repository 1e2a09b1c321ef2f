"""The project's errors in the player's language, rebuilt from their stable code and parameters.

The engine speaks English only (it stays free of anything but the standard library). Every
error the project reports to a person derives from the engine's ``KingsBreakfastError`` and
so carries a ``code`` and ``params``, and this table can say the same thing in any language.
An error without an entry here falls back to its English sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from kingsbreakfast.engine import DISHES, KingsBreakfastError
from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.commands import install_command
from kingsbreakfast.i18n.words import dish_name


def _dish(params: Mapping[str, object]) -> str:
    name = params.get("dish")
    return dish_name(DISHES.index(name)) if name in DISHES else str(name)


def _count(params: Mapping[str, object], key: str) -> int:
    """The count that picks the plural form; 0 when the error does not carry one."""
    value = params.get(key, 0)
    return value if isinstance(value, int) else 0


_MESSAGES: dict[str, Callable[[Mapping[str, object]], str]] = {
    "game_over": lambda p: _("the game is over (R10)"),
    "not_your_turn": lambda p: _("it is seat {to_move}'s turn, not seat {seat}'s (R5)").format(
        to_move=p.get("to_move"), seat=p.get("seat")
    ),
    "dragon_choice_pending": lambda p: _(
        "you drew a dragon: feed it now or place it on the table (R7a)"
    ),
    "dish_not_on_table": lambda p: _("{dish} is not on the table (R6)").format(dish=_dish(p)),
    "deck_empty": lambda p: _("the deck is empty: there is no card to draw (R7)"),
    "no_drawn_dragon": lambda p: _(
        "there is no drawn dragon to place: only a dragon you just drew can be placed (R7a)"
    ),
    "pass_not_allowed": lambda p: _("you may pass only when no other action is possible (R5b)"),
    "no_dragon_on_table": lambda p: _("there is no dragon on the table to feed (R8)"),
    "too_few_dragons_on_table": lambda p: ngettext(
        "feeding a dragon from the table needs {needed} dragons there, and there is {present}",
        "feeding a dragon from the table needs {needed} dragons there, and there are {present}",
        _count(p, "present"),
    ).format(needed=p.get("needed"), present=p.get("present")),
    "empty_table_must_draw": lambda p: _(
        "the table is empty: you must draw a card (variant empty_table: must_draw)"
    ),
    "king_too_few_dishes": lambda p: _("the king has fewer than 2 dishes for the dragon (R8)"),
    "king_lacks_dish": lambda p: (
        _("the king has no {dish} for the dragon (R8)").format(dish=_dish(p))
        if not p.get("held")
        else _("the king has only {held} {dish}, the dragon needs 2 (R8)").format(
            held=p.get("held"), dish=_dish(p)
        )
    ),
    "bad_player_count": lambda p: _(
        "King's Breakfast is played by 3 to 5 players, not {players} (R2)"
    ).format(players=p.get("players")),
    # faults in a record (the kingsbreakfast/1 format)
    "bad_json": lambda p: _("the record is not valid JSON ({detail})").format(
        detail=p.get("detail", "")
    ),
    "unreadable_file": lambda p: _("cannot read {path}: {reason}").format(
        path=p.get("path"), reason=p.get("reason")
    ),
    "record_not_object": lambda p: _("a record must be a JSON object"),
    "bad_format": lambda p: _bad_format(p),
    "bad_players": lambda p: _("'players' must be a list of names"),
    "bad_first_cook": lambda p: _(
        "'first_cook' must be a seat number from 0 to {last}, not {value}"
    ).format(last=p.get("last"), value=p.get("value")),
    "rules_not_object": lambda p: _("'rules' must be a JSON object"),
    "unknown_rule_switch": lambda p: _("unknown rule switch {switch} (known: {expected})").format(
        switch=p.get("switch"), expected=p.get("expected")
    ),
    "unknown_rule_value": lambda p: _(
        "unknown value {value} for the rule switch {switch} (expected {expected})"
    ).format(value=p.get("value"), switch=p.get("switch"), expected=p.get("expected")),
    "bad_variant": lambda p: _(
        "--variant {switch}: write it as NAME=VALUE, e.g. empty_table=must_draw"
    ).format(switch=p.get("switch")),
    "deck_or_seed": lambda p: _("a record must give exactly one of 'deck' and 'seed'"),
    "bad_deck": lambda p: _(
        "the deck must hold 110 cards, 15 of each dish and 5 dragons (R1)"
    ),
    "unknown_card": lambda p: _("card {position} of the deck, {card}, is not a card").format(
        position=p.get("position"), card=p.get("card")
    ),
    "bad_seed": lambda p: _("'seed' must be an integer, not {value}").format(
        value=p.get("value")
    ),
    "bad_actions": lambda p: _("'actions' must be a list (it may be empty)"),
    "action_not_object": lambda p: _("an action must be a JSON object"),
    "unknown_action_type": lambda p: _("unknown action type {type}").format(type=p.get("type")),
    "unknown_dish": lambda p: _("{dish} is not a dish").format(dish=p.get("dish")),
    "feed_needs_two_dishes": lambda p: _("a feed must name exactly 2 dishes"),
    "action_after_end": lambda p: _("the game is already over (R10)"),
    "wrong_player": lambda p: _(
        "it is seat {to_move}'s turn, but the action names player {seat}"
    ).format(to_move=p.get("to_move"), seat=p.get("seat")),
    # choices a person made (a bot, a language) and the game server's refusals
    "unknown_bot": lambda p: _("unknown bot {name}: choose one of {choices}").format(
        name=repr(p.get("name")), choices=_listed(p.get("choices"))
    ),
    "unknown_language": lambda p: _(
        "unknown language {language}: choose one of {choices}"
    ).format(language=repr(p.get("language")), choices=_listed(p.get("choices"))),
    "storage_unavailable": lambda p: _("the database is not answering; try again in a moment"),
    "table_busy": lambda p: _("another server still holds this table; try again in a moment"),
    "table_full": lambda p: _("every seat at this table is taken"),
    "not_host": lambda p: _("only the host may do this"),
    "already_started": lambda p: _("this game has already started"),
    "bad_name": lambda p: _("the display name must have 1 to 32 printable characters"),
    "reserved_name": lambda p: _("a person's name may not look like a bot's"),
    "unreadable_name": lambda p: _(
        "a name needs a visible letter, and no character that shows as nothing"
    ),
    # the operator's moderation commands (kingsbreakfast admin)
    "no_such_account": lambda p: _("there is no account named {name}").format(
        name=p.get("name")),
    "no_such_report": lambda p: _("there is no report {id}").format(id=p.get("id")),
    "no_such_chat_line": lambda p: _("there is no chat line {id}").format(id=p.get("id")),
    "name_taken": lambda p: _("an account named {name} exists already").format(
        name=p.get("name")),
    "no_table": lambda p: _("there is no such table"),
    "bad_token": lambda p: _("this token holds no seat at this table"),
    "too_many_tables": lambda p: _("too many tables opened from your address: wait a little"),
    "already_seated": lambda p: _("you already hold a seat at this table"),
    "seat_requested": lambda p: _("someone already asked for this seat; try again later"),
    # seats the terminal game was asked for (play --players/--seat/--hotseat/--bot/--name)
    "seat_count": lambda p: _("{seats} seats for a game of {players} players").format(
        seats=p.get("seats"), players=p.get("players")
    ),
    "bad_hotseat": lambda p: _("--hotseat must be from 0 to {players} humans, not {humans}").format(
        players=p.get("players"), humans=p.get("humans")
    ),
    "bad_seat": lambda p: _("--seat must be from 0 to {last}, not {seat}").format(
        last=p.get("last"), seat=p.get("seat")
    ),
    "too_many_names": lambda p: ngettext(
        "{names} names given for {humans} human player",
        "{names} names given for {humans} human players",
        _count(p, "humans"),
    ).format(names=p.get("names"), humans=p.get("humans")),
    "bot_count": lambda p: _(
        "{bots} bots named for {seats} bot seats (name one for every bot seat, or one for all)"
    ).format(bots=p.get("bots"), seats=p.get("seats")),
    # an optional part of the package that this installation lacks (pyproject's extras)
    "needs_extra": lambda p: _("this needs {packages}, from the '{extra}' extra: {command}").format(
        packages=p.get("packages"),
        extra=p.get("extra"),
        command=install_command(str(p.get("extra"))),
    ),
    # a review of a finished game (kingsbreakfast review, the browser's review page)
    "review_not_over": lambda p: _(
        "the game in this record is not over: a review is made once it has ended"
    ),
    "bad_review_seat": lambda p: _(
        "there is no seat {seat} in this game: choose a seat from 0 to {last}"
    ).format(seat=p.get("seat"), last=p.get("last")),
    # a bot's options in a line-up (tournament, analyze, batch: name:option=value)
    "bad_bot_option": lambda p: _(
        "bad bot option {option} in {bot}: write option=value"
    ).format(option=repr(p.get("option")), bot=repr(p.get("bot"))),
    "bot_takes_no_options": lambda p: _(
        "the bot {name} takes no options (got {option} in {bot})"
    ).format(name=repr(p.get("name")), option=p.get("option"), bot=repr(p.get("bot"))),
    "unknown_bot_option": lambda p: _(
        "unknown bot option {option} in {bot} (options of {name}: {choices})"
    ).format(option=repr(p.get("option")), bot=repr(p.get("bot")), name=p.get("name"),
             choices=_listed(p.get("choices"))),
    "bad_bot_option_value": lambda p: _(
        "bad value {value} for {option} in {bot}"
    ).format(value=repr(p.get("value")), option=p.get("option"), bot=repr(p.get("bot"))),
    "agents_share_process": lambda p: _(
        "the line-up names {count} module:Class players: they would share one process and "
        "could pool their seats' hidden cards; name at most one, and run the others as "
        "cmd:PROGRAM (each gets its own process)"
    ).format(count=p.get("count")),
}


def _listed(choices: object) -> str:
    return ", ".join(map(str, choices)) if isinstance(choices, list) else str(choices)


def explain(error: KingsBreakfastError) -> str:
    """The error in the current language (the engine's English where we have no entry)."""
    message = _MESSAGES.get(error.code)
    if message is None:
        return error.message
    try:
        return message(error.params)
    except (KeyError, ValueError, IndexError):
        return error.message


def known_codes() -> frozenset[str]:
    return frozenset(_MESSAGES)


def _bad_format(params: Mapping[str, Any]) -> str:
    """A record of a later version of the format is no mistake of the player's: it needs a
    newer kingsbreakfast, and the sentence says so (and how to get one)."""
    value = str(params.get("value", ""))
    found = re.fullmatch(r"'kingsbreakfast/(\d+)'", value)
    if found and int(found.group(1)) > 1:
        return _(
            "this record was made by a newer kingsbreakfast (format {value}): upgrade "
            "kingsbreakfast to read it (pip install --upgrade kingsbreakfast)"
        ).format(value=value.strip("'"))
    return _("'format' must be \"kingsbreakfast/1\", not {value}").format(value=value)

