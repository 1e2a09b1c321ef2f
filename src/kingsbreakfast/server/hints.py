"""The hint over HTTP: the master bot's value of each of a seated player's legal moves.

Only the seat's own view goes in (the seat's credential names it: the ``X-Seat-Token``
header, or the account's or guest's cookie as for every seat call), so a hint never reveals
a card the player could not see; spectators get none. The answer is the same list the
terminal's ``h`` key shows (bots/hint.py), best first. It is a POST so that a cookie-borne
credential passes the site's CSRF check like the other seat calls.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header, Request

from kingsbreakfast.bots.hint import rank_actions

from .lobby import LobbyError
from .master import Master


def register_hint(app: FastAPI, master: Master) -> None:
    """Add ``POST /api/tables/{id}/hint`` to ``app`` (after the site is installed)."""

    @app.post("/api/tables/{table_id}/hint")
    async def hint(
        table_id: str, request: Request,
        x_seat_token: Annotated[str | None, Header(max_length=64)] = None,
    ) -> list[dict[str, Any]]:
        """Your legal moves, best first, with the master bot's estimates: your final points,
        your share of the win, and the win chance each gives up against the best."""
        table = await master.held(table_id)
        token = await app.state.site.seat_token(request, table, x_seat_token)
        seat = table.seat_of(token)
        if seat is None:
            raise LobbyError(403, "bad_token", "this token holds no seat at this table")
        state = table.state
        if state is None or state.is_over or state.to_move != seat:
            raise LobbyError(409, "no_hint", "a hint is given only on your own turn")
        return [dict(estimate.to_dict()) for estimate in rank_actions(state.view(seat))]
