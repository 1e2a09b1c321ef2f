"""``POST /api/reports``: a player reports another player, or one chat line, for the site's
operator (who reads them with ``kingsbreakfast admin reports``, :mod:`..moderation`).

Anyone at the site may report, guest or account; what is kept of the reporter is their
account (if any) and a keyed digest of their address, never the address. A report must name
someone real (an account, or a name that wrote at the given table, or a chat line of that
table), and an address may send :data:`REPORTS_PER_HOUR` (a burst of
:data:`REPORTS_BURST`), so reports cannot be used to flood the operator.
"""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ..limits import PerAddress, Refused
from ..moderation import MAX_REASON, ModerationStore
from .deps import SiteDep, address
from .errors import ERRORS

router = APIRouter()

REPORTS_PER_HOUR: Final = 20.0
REPORTS_BURST: Final = 5.0


def _refused(per_minute: float, wait: float) -> Refused:
    return Refused("too_many_reports", "too many reports from your address: wait a while",
                   per_hour=round(per_minute * 60), retry_after=round(wait, 1))


def _allowance(request: Request) -> PerAddress:
    """The site's report allowance per address (one per application, made at first use)."""
    state = request.app.state
    sent = getattr(state, "reports_sent", None)
    if sent is None:
        sent = PerAddress(REPORTS_PER_HOUR / 60.0, REPORTS_BURST, refusal=_refused)
        state.reports_sent = sent
    return sent


class ReportAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=64,
                               description="who is reported (their name as shown)")]
    reason: Annotated[str, Field(min_length=1, max_length=MAX_REASON,
                                 description="what happened, in the reporter's words")]
    table: Annotated[str | None, Field(max_length=32,
                                       description="the table where it happened")] = None
    chat_line: Annotated[int | None, Field(ge=1, description="the chat line reported "
                                           "(its id, as the chat frames give it)")] = None


class ReportReply(BaseModel):
    id: int


@router.post("/api/reports", response_model=ReportReply, status_code=201, responses=ERRORS,
             tags=["moderation"])
async def report(ask: ReportAsk, request: Request, site: SiteDep) -> ReportReply:
    """Report a player (by name, at a table or anywhere) or one chat line of a table."""
    where = address(request.client)
    _allowance(request).take(where)
    accounts = site.accounts
    reporter = await accounts.current(request)
    store = ModerationStore(accounts.store.engine)
    number = await accounts.call(
        store.report, None if reporter is None else reporter.id,
        accounts.key.address_digest(where), " ".join(ask.name.split()),
        " ".join(ask.reason.split()), ask.table, ask.chat_line, accounts.wall_clock(),
    )
    return ReportReply(id=number)
