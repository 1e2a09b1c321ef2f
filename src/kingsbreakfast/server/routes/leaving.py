"""What leaving a running game costs, asked by the table page before it confirms a leave.

Leaving itself is the lobby's ``POST /api/tables/{id}/leave`` (:mod:`.tables`): the seat is
freed and a bot plays it to the end. The page's confirmation says so, and says too whether
the game is rated (docs/accounts.md: at least two seats held by different accounts), where
leaving counts as a loss.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from ..lobby import LobbyError
from .deps import MasterDep, SiteDep
from .errors import ERRORS

router = APIRouter()


class Leaving(BaseModel):
    rated: bool
    """At least two seats are held by different accounts: a leave counts as a loss."""
    playing: bool
    """The game is under way: a bot takes the seat over (in the waiting room it just frees)."""


@router.get("/api/tables/{table_id}/leaving", response_model=Leaving, responses=ERRORS,
            tags=["table"])
async def leaving(table_id: str, master: MasterDep, site: SiteDep) -> Leaving:
    """What happens if a player leaves this table now (tells nothing about anyone's cards)."""
    actor = await master.find(table_id)
    if actor is None:
        raise LobbyError(404, "no_table", "there is no such table", table=table_id[:40])
    accounts = site.accounts
    owners = await accounts.call(accounts.store.seat_owners, actor.table.id)
    return Leaving(rated=len(set(owners.values())) >= 2,
                   playing=actor.table.state is not None and not actor.table.state.is_over)
