"""What a notice says, in the recipient's language: a push message's title and body, and a
digest mail's lines.

Only what the recipient may see at the table anyway goes in: whose game it is (seat names
are public) and a link. Never a card, a hand, a draw or the deck: a push message sits on a
lock screen and a mail in a mailbox that others may read.
"""

from __future__ import annotations

from kingsbreakfast.i18n import _, language, ngettext

HOUR = 3600


def hours_left(seconds: float) -> int:
    """Whole hours, at least one (a clock low is told in hours)."""
    return max(1, round(seconds / HOUR))


def push_text(kind: str, lang: str, who: str, seconds: float = 0.0) -> tuple[str, str]:
    """A push notification's title and body. ``who``: the other people's names (your move,
    a clock low, a game starting; empty at a table of bots) or the challenger's."""
    with language(lang):
        if kind == "your_turn":
            return _("Your move"), (
                _("It is your move in your game with {players}.").format(players=who) if who
                else _("It is your move."))
        if kind == "clock_low":
            hours = hours_left(seconds)
            return _("Your clock is running out"), (ngettext(
                "Less than {hours} hour is left for your move in your game with {players}.",
                "Less than {hours} hours are left for your move in your game with {players}.",
                hours) if who else ngettext(
                "Less than {hours} hour is left for your move.",
                "Less than {hours} hours are left for your move.",
                hours)).format(hours=hours, players=who)
        if kind == "challenge":
            return _("A challenge"), _("{name} challenges you to a game.").format(name=who)
        return _("Your game is starting"), (
            _("Your game with {players} is starting.").format(players=who) if who
            else _("Your game is starting."))


def digest_line(kind: str, lang: str, link: str) -> str:
    with language(lang):
        if kind == "your_turn":
            return _("It is your move: {link}").format(link=link)
        if kind == "clock_low":
            return _("Your clock is running out: {link}").format(link=link)
        if kind == "challenge":
            return _("You were challenged to a game: {link}").format(link=link)
        return _("Your game is starting: {link}").format(link=link)


def digest_mail(name: str, lines: list[str], lang: str, settings_link: str) -> tuple[str, str]:
    """The subject and text of one digest: a line per game (one a day at most each)."""
    with language(lang):
        subject = ngettext("King's Breakfast: a game awaits you",
                           "King's Breakfast: {count} games await you",
                           len(lines)).format(count=len(lines))
        body = _(
            "Hello {name},\n\n{lines}\n\nYou get at most one mail a day about each game. "
            "Choose what you are told, and how, on your account page: {settings}"
        ).format(name=name, lines="\n".join(f"- {line}" for line in lines),
                 settings=settings_link)
        return subject, body
