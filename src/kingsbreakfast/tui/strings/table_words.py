"""The terminal game's words at the table: the seats' names, the board, the moves, the
dragon and feeding, and the hint (the rest, from the hand-over on, in :mod:`.session_words`).

Each is a function, not a constant, so that it is looked up in the current language when the
screen is drawn: a player may switch language in the middle of a game. The game's words
(dishes, counted dishes, the dragon) come from :mod:`kingsbreakfast.i18n.words` and the log
from :mod:`kingsbreakfast.narrate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kingsbreakfast.i18n import _, ngettext, pgettext
from kingsbreakfast.i18n.words import dish_count, dragon_count, dragon_name, join_words
from kingsbreakfast.i18n.words import dish_name as dish_name


def title() -> str:
    return _("King's Breakfast")


# --- names of seats ----------------------------------------------------------------------
def you_label(name: str) -> str:
    """The viewer's own row on the board."""
    return _("{name} (you)").format(name=name)


def seating(labels: list[str], rules: Mapping[str, object], default_rules: bool) -> str:
    """The log's first line: who sits where (clockwise from seat 0) and any variant."""
    line = _("At the table, clockwise: {players}.").format(players=", ".join(labels))
    if not default_rules:
        variants = ", ".join(f"{key}={value}" for key, value in rules.items())
        line += " " + _("Variants: {variants}.").format(variants=variants)
    return line


_BOT_WORDS: Final = {
    "easy": lambda: pgettext("bot level", "easy"),
    "medium": lambda: pgettext("bot level", "medium"),
    "hard": lambda: pgettext("bot level", "hard"),
    "expert": lambda: pgettext("bot level", "expert"),
    "master": lambda: pgettext("bot level", "master"),
    "chef": lambda: pgettext("bot level", "chef"),
    "random": lambda: pgettext("bot", "random"),
    "greedy": lambda: pgettext("bot", "greedy"),
    "heuristic": lambda: pgettext("bot", "card counter"),
    "ismcts": lambda: pgettext("bot", "searcher"),
    "lesson": lambda: pgettext("bot", "the lesson's bot"),
}


def bot_word(bot: str) -> str:
    """A bot's level or kind in the player's language; a spec with options stays as typed."""
    word = _BOT_WORDS.get(bot)
    return word() if word is not None else bot


def bot_label(name: str, bot: str) -> str:
    return _("{name} ({level})").format(name=name, level=bot_word(bot))


# --- the board ---------------------------------------------------------------------------
def king() -> str:
    return _("King")


def table() -> str:
    return _("Table")


def drawn() -> str:
    return "  " + _("drawn")


def eaten_extra(count: int) -> str:
    """Beside the king: dishes the dragons ate (public, R8)."""
    return ngettext("{count} eaten", "{count} eaten", count).format(count=count)


def taken_extra() -> str:
    return _("taken")


def drawn_extra(count: int) -> str:
    return ngettext("{count} drawn", "{count} drawn", count).format(count=count)


def abbreviation(short: str, name: str) -> str:
    """The grid's legend for a dish name cut to fit the screen."""
    return _("{short} = {name}").format(short=short, name=name)


def over_note(mark: str) -> str:
    return _(
        "{mark} you hold more of this dish than the king: discarded if the game ended now (R11)"
    ).format(mark=mark)


def over_sentence(dishes: list[int]) -> str:
    """Plain mode's version of the grid's ``!``: the dishes the player holds too many of."""
    return _(
        "Your hand has more than the king of: {dishes}. They would be discarded if the game "
        "ended now (R11)."
    ).format(dishes=join_words([dish_name(dish) for dish in dishes]))


def last_round() -> str:
    return _("Last round: the deck cannot set another table, the game ends after it (R10).")


def hidden_extra(count: int) -> str:
    """Beside another player's takes: how many drawn cards they hide (R7)."""
    if not count:
        return ""
    return ngettext("+{count} hidden", "+{count} hidden", count).format(count=count)


def status_line(
    round_number: int,
    cook: str,
    deck: int,
    to_move: str | None,
    viewer: str | None,
    with_viewer: bool = True,
) -> str:
    mover = (
        _("{player} to move").format(player=to_move) if to_move is not None else _("game over")
    )
    seen = ""
    if with_viewer:
        seen = (
            " · " + _("seen by {player}").format(player=viewer)
            if viewer is not None
            else " · " + _("public view")
        )
    return _("Round {round} · cook {cook} · deck {deck} · {mover}").format(
        round=round_number, cook=cook, deck=deck, mover=mover
    ) + seen


def provisional(points: int, discarded: int) -> str:
    if discarded:
        return ngettext(
            "If the game ended now: {count} point (discarded: {discarded})",
            "If the game ended now: {count} points (discarded: {discarded})",
            points,
        ).format(count=points, discarded=discarded)
    return ngettext(
        "If the game ended now: {count} point", "If the game ended now: {count} points", points
    ).format(count=points)


def dragons_on_table(count: int) -> str:
    return dragon_count(count)


# --- actions -----------------------------------------------------------------------------
def actions_title() -> str:
    return _("Your move")


def waiting_title() -> str:
    return _("Waiting")


def log_title() -> str:
    return _("What happened")


def take_label(dish: int, count: int) -> str:
    return _("take {cards}").format(cards=dish_count(dish, count))


def take_what(dish: int) -> str:
    return _("take {dish}").format(dish=dish_name(dish))


def feed_what(first: int, second: int) -> str:
    if first == second:  # two of one dish (R8)
        return _("feed {dishes}").format(dishes=dish_count(first, 2))
    return _("feed {dishes}").format(dishes=join_words([dish_name(first), dish_name(second)]))


def draw_label() -> str:
    return _("draw a card")


def feed_what_any() -> str:
    return _("feed a dragon")


def pass_what() -> str:
    return _("pass")


def feed_table_label() -> str:
    return _("feed a table dragon…")


def feed_drawn_label() -> str:
    return _("feed the drawn dragon…")


def place_label() -> str:
    return _("place the dragon on the table")


def pass_label() -> str:
    return _("pass (nothing else is possible)")


def waiting_for(name: str) -> str:
    return _("{player} is thinking…").format(player=name)


def not_your_turn(name: str) -> str:
    return _("Wait: it is {player}'s turn.").format(player=name)


def refused(action: str, reason: str) -> str:
    return _("You can't {action}: {reason}.").format(action=action, reason=reason)


# --- dragon and feeding ------------------------------------------------------------------
def dragon_drawn() -> str:
    return _(
        "You drew a dragon ({dragon})! Use it now, feeding it two of the king's dishes, "
        "or place it on the table, where anyone may feed it later (R7a)."
    ).format(dragon=dragon_name())


def dragon_drawn_only_place() -> str:
    return _(
        "You drew a dragon ({dragon})! The king has fewer than 2 dishes, so it goes "
        "on the table (R7a)."
    ).format(dragon=dragon_name())


def use_dragon() -> str:
    return _("use it: feed it two of the king's dishes")


def feed_first() -> str:
    return _("The dragon eats two of the king's dishes (R8). Pick the first:")


def feed_second(first: int) -> str:
    return _("The dragon eats {dish} and… pick the second dish:").format(dish=dish_name(first))


def king_dish_option(dish: int, count: int) -> str:
    return _("{dish} (the king has {count})").format(dish=dish_name(dish), count=count)


def cancel_hint() -> str:
    return _("Esc: back")


# --- hint --------------------------------------------------------------------------------
def hint_title() -> str:
    return _("Hint: the bot's ranking of your moves")


def hint_thinking() -> str:
    return _("Thinking…")


def hint_titles() -> tuple[str, str, str, str]:
    """The hint table's headings: move, points, win chance, behind the best."""
    return (_("move"), _("points"), _("win chance"), _("vs best"))


def hint_numbers(
    points: float, win: float, behind: float, exact: bool = False, settled: bool = False
) -> tuple[str, str, str]:
    """One row's figures: ``behind`` is the win chance given up against the first row
    (a dash for the first itself, a plus where a lower row has more). Exact points
    (``exact``) and an exact result (``settled``) are whole numbers marked ``=``."""
    if behind > 0.0005:
        gap = f"{-behind * 100:.1f}%"
    elif behind < -0.0005:
        gap = f"+{-behind * 100:.1f}%"
    else:
        gap = "—"
    shown_points = f"={points:.0f}" if exact else f"{points:.1f}"
    shown_win = f"={win * 100:.0f}%" if settled else f"{win * 100:.1f}%"
    return shown_points, shown_win, gap


def hint_explained() -> str:
    """What the hint's columns mean, shown under the table."""
    return _(
        "The master bot's estimates for each move: your final points (R11), your share of "
        "the win (R12), and how much win chance the move gives up against the best one."
    )


def hint_explained_for(seat: int) -> str:
    """The columns' meaning when the hint is asked from another seat's view."""
    return _(
        "The master bot's estimates for each move of seat {seat}: that player's final "
        "points (R11), their share of the win (R12), and how much win chance the move gives "
        "up against the best one."
    ).format(seat=seat)


def hint_footer() -> str:
    return _("Enter plays the highlighted move · Esc closes")


def hint_order() -> str:
    """How the hint's rows are sorted (bots/hint.py, ``utility``)."""
    return _("Moves are sorted by your chance to win; where it hardly differs, by points.")


def hint_exact_note() -> str:
    """What the ``=`` before a hint figure means (bots/settled.py)."""
    return _("Figures marked = are exact: no hidden card and no later move can change them.")


def hint_reason(key: str, params: Mapping[str, str | int]) -> str:
    """One hint row's reason (bots/reasons.py) in the player's language. It is read under
    the move, which names the dishes already, so the reason does not name them again."""
    if key == "scores":
        count = int(params.get("points", 0))
        return ngettext("scores {count} more point for you",
                        "scores {count} more points for you", count).format(count=count)
    words = {
        "deny_leader": lambda: _("keeps the leader from scoring this dish"),
        "deny_leader_discarded": lambda: _(
            "keeps the leader from scoring this dish; yours is discarded"),
        "discarded": lambda: _("you'd hold more than the king: discarded"),
        "draw": lambda: _("an unseen card from the deck"),
        "feed_leader": lambda: _("the leader scores less"),
        "feed": lambda: _("both leave the king's plate"),
        "place": lambda: _("puts the dragon on the table for anyone to feed"),
        "pass": lambda: _("nothing else is allowed"),
    }.get(key)
    return key if words is None else words()
