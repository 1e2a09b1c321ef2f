"""The play socket's route: ``/ws/tables/{id}``, one WebSocket per seat or spectator.

The route admits the socket (the per-address and per-table caps; past the address's cap,
only a socket whose hello holds a seat: a player reconnecting after a failover from an
address full of others), finds the table's actor
(taking the table from another process in a cluster) and hands the socket to
:func:`~..transport.session`, which talks to that actor until the socket closes.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, WebSocket

from .. import metrics
from ..limits import Refused
from ..lobby import LobbyError
from ..store import StorageError
from ..transport import send_and_close, session
from ..wire import CLOSE_CROWDED, CLOSE_NO_TABLE, CLOSE_TRY_LATER
from .deps import GateDep, MasterDep, SiteDep, address

log = logging.getLogger("kingsbreakfast.server")
router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(
    websocket: WebSocket, table_id: str, master: MasterDep, site: SiteDep, gate: GateDep
) -> None:
    await websocket.accept()
    peer, key = address(websocket.client), table_id[:40]
    seated_only = False
    try:
        try:
            gate.enter(peer, key)
        except Refused as crowded:
            if crowded.code != "too_many_sockets":
                raise
            gate.enter_holding_a_seat(peer, key)  # admitted only if its hello holds a seat
            seated_only = True
    except Refused as crowded:
        metrics.refused(crowded.code)
        await send_and_close(websocket, crowded.code, crowded.message, CLOSE_CROWDED)
        return
    try:
        try:
            actor = await master.find(table_id)
        except (LobbyError, StorageError) as error:  # held elsewhere, or the store is away
            await send_and_close(
                websocket, error.code, "the table cannot be served right now; reconnect",
                CLOSE_TRY_LATER,
            )
            return
        if actor is None:
            await send_and_close(websocket, "no_table", "there is no such table", CLOSE_NO_TABLE)
            return
        try:  # a play-now seat reserved for this socket's player becomes theirs
            await site.waiting.arrive(actor, websocket)
        except (LobbyError, StorageError) as error:
            log.warning("table %s: an arrival not seated (%s)", table_id[:40], error)
        reader = await site.accounts.current(websocket)  # whose blocks filter its chat
        websocket.state.account_id = None if reader is None else reader.id
        await session(actor, websocket, await site.hello_token(websocket, actor.table),
                      seated_only=seated_only)
    finally:
        gate.leave(peer, key)
