"""The hint over HTTP: the master bot's value of each of a seated player's legal moves.

Only the seat's own view goes in (the token names the seat), so a hint never reveals a card
the player could not see; spectators get none. The answer is the same list the terminal's
``h`` key shows (bots/hint.py), best first.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header

from kingsbreakfast.bots.hint import rank_actions

from .lobby import LobbyError
from .master import Master


def register_hint(app: FastAPI, master: Master) -> None:
    """Add ``GET /api/tables/{id}/hint`` (header ``X-Seat-Token``) to ``app``."""

    @app.get("/api/tables/{table_id}/hint")
    async def hint(
        table_id: str, x_seat_token: Annotated[str, Header(max_length=64)]
    ) -> list[dict[str, Any]]:
        """Your legal moves, best first, with the master bot's estimates: your final points,
        your share of the win, and the win chance each gives up against the best."""
        table = await master.held(table_id)
        seat = table.seat_of(x_seat_token)
        if seat is None:
            raise LobbyError(403, "bad_token", "this token holds no seat at this table")
        state = table.state
        if state is None or state.is_over or state.to_move != seat:
            raise LobbyError(409, "no_hint", "a hint is given only on your own turn")
        return [dict(estimate.to_dict()) for estimate in rank_actions(state.view(seat))]
