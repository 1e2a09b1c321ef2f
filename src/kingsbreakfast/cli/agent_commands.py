"""``kingsbreakfast agent``: an outside agent takes a seat on a server.

The agent is named as in ``tournament --bots`` (``cmd:PROGRAM`` or ``module:Class``) and is
held to the same protocol, timeout and fallback; the relay (:mod:`.seat_relay`) joins the
table by its invite link, or uses a seat token already held, and plays through the play
socket like the browser does. It needs the ``server`` extra (the ``websockets`` client).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from kingsbreakfast.bots.outside import DEFAULT_TIMEOUT, is_outside, outside_bot
from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import LangOption, fail
from kingsbreakfast.engine import Action
from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.narrate import score_lines


def agent(
    url: Annotated[
        str, typer.Argument(help="The table's invite link, as in http://HOST:PORT/t/TABLE.")
    ],
    player: Annotated[
        str, typer.Argument(help="The agent: cmd:PROGRAM or module:Class (docs/research.md).")
    ],
    name: Annotated[str, typer.Option(help="The name the seat shows when joining.")] = "Agent",
    token: Annotated[
        str | None,
        typer.Option(help="A seat token already held (the seat is not joined again)."),
    ] = None,
    start: Annotated[
        bool, typer.Option("--start", help="Deal once connected when this seat hosts the "
                           "table (bots take the empty seats).")
    ] = False,
    agent_timeout: Annotated[
        float, typer.Option(help="Seconds the agent has for a move; a late or illegal "
                            "answer plays the fallback (the lowest legal action id).")
    ] = DEFAULT_TIMEOUT,
    retries: Annotated[
        int, typer.Option(help="Failed connections in a row before giving up (the pause "
                          "between them grows to 4 s).", min=0)
    ] = 8,
    seed: Annotated[int | None, typer.Option(help="Seed of the 'seed' sent to the agent.")] = None,
    lang: LangOption = None,
) -> None:
    """Let an outside agent play one seat of a table on a server, until the game is over."""
    need_extra("server", "websockets")
    from kingsbreakfast.cli.seat_relay import (
        Relay,
        RelayError,
        SeatClosed,
        ServerRefused,
        rest,
        table_address,
    )

    address = table_address(url)
    if address is None:
        raise fail(_("'{url}' is not a table's address: give its invite link, as in "
                     "http://HOST:PORT/t/TABLE").format(url=url))
    if not is_outside(player):
        raise fail(_("'{player}' is not an agent: name it as cmd:PROGRAM or "
                     "module:Class").format(player=player))
    try:
        bot = outside_bot(player, agent_timeout)
    except ValueError as error:
        raise fail(error) from None
    if token is None:
        try:
            grant = rest("POST", f"{address.base}/api/tables/{address.table}/join",
                         {"name": name})
        except ServerRefused as error:
            raise fail(_("the server refused the seat: {reason}").format(
                reason=error.message)) from None
        except OSError as error:
            raise fail(_("cannot reach the server at {url}: {reason}").format(
                url=address.base, reason=error)) from None
        token = str(grant["token"])
        print(_("Seat {seat} taken at table {table}.").format(
            seat=int(grant["seat"]) + 1, table=address.table), flush=True)

    def forfeit(seat: int, reason: str, action: Action) -> None:
        print(_("Seat {seat}: the agent's move was refused ({reason}); played {action} "
                "instead.").format(seat=seat + 1, reason=reason, action=action),
              file=sys.stderr, flush=True)

    def retry(code: int | None, attempt: int) -> None:
        print(_("The connection closed ({code}); connecting again (attempt {attempt}).")
              .format(code=code if code is not None else "-", attempt=attempt),
              file=sys.stderr, flush=True)

    relay = Relay(address, token, bot, seed=seed, start=start, retries=retries,
                  on_forfeit=forfeit, on_retry=retry)
    try:
        final = relay.run()
    except SeatClosed as error:
        if error.code in (4001, 4003):
            raise fail(_("the seat token holds no seat at this table (left or "
                         "replaced)")) from None
        if error.code == 4004:
            raise fail(_("there is no table {table} on this server").format(
                table=address.table)) from None
        raise fail(_("the server closed the connection ({code}): {reason}").format(
            code=error.code if error.code is not None else "-", reason=error.reason)) from None
    except ServerRefused as error:
        raise fail(_("the server refused to start the game: {reason}").format(
            reason=error.message)) from None
    except RelayError as error:
        raise fail(error) from None
    _print_final(final, relay.played.moves, relay.played.forfeits)


def _print_final(frame: dict[str, object], moves: int, forfeits: int) -> None:
    """The final scoring as the terminal game prints it, read from the last view."""
    from kingsbreakfast.cli.seat_relay import view_from_dict

    print(_("The game is over."))
    view_data = frame.get("view")
    table = frame.get("table")
    if isinstance(view_data, dict) and isinstance(table, dict):
        view = view_from_dict(view_data)  # type: ignore[arg-type]
        scoring = view.score()
        seats = table.get("seats")
        if scoring is not None and isinstance(seats, list):
            names = [
                str(seat.get("name") or _("Seat {seat}").format(seat=number + 1))
                for number, seat in enumerate(seats)
            ]
            print("\n".join(score_lines(scoring, view.king, names)))
    print(ngettext("The agent made {count} move ({forfeits} forfeited).",
                   "The agent made {count} moves ({forfeits} forfeited).", moves)
          .format(count=moves, forfeits=forfeits))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command()(agent)
