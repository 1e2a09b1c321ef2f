"""The routes of people: follow and unfollow, block and unblock, one's people (friends with
who is online now, followed, followers, blocked, challenges both ways), the ratings of names
shown on a page, and challenges (make, accept, decline, withdraw).

Every call here is an account's: a guest has no people. What a block keeps apart is enforced
where it happens (joining a table, play now, chat, challenges: :mod:`..people`).
"""

from __future__ import annotations

import logging
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..account_store import Account
from ..challenges import BOT_LEVEL, Challenge, ChallengeStore, challenge_made
from ..lobby import LobbyError, check_table
from ..people import SEEN_EVERY, PeopleStore, Person
from ..site import Site
from .deps import MasterDep, SiteDep, address
from .errors import ERRORS

log = logging.getLogger("kingsbreakfast.server")
router = APIRouter()

MAX_RATED_NAMES = 50
"""Names one call may ask the ratings of (a page shows a few tables' seats)."""
Number = Annotated[int, Path(ge=1, le=2_000_000_000, description="the challenge's id")]


class NameAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=64, description="an account's name")]


class ChallengeAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=64, description="who is challenged")]
    seats: int = Field(3, ge=3, le=5, description="number of seats (R2: 3 to 5)")
    clock_seconds: int | None = Field(
        None, ge=5, le=14 * 24 * 3600,
        description="turn clock: 5–3600 s, or whole hours up to 14 days (turn-based)")
    rated: bool = Field(True, description="the game counts for ratings")
    bots: bool = Field(True, description="bots take the other seats (else they are open "
                       "to anyone: the table is listed)")


def _person(person: Person) -> dict[str, Any]:
    return {"name": person.name, "rating": person.rating, "online": person.online}


def _challenge(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.id, "from": challenge.from_name, "to": challenge.to_name,
        "seats": challenge.seats, "clock_seconds": challenge.clock_seconds,
        "rated": challenge.rated, "bots": challenge.bots,
        "expires_ms": int(challenge.expires_at * 1000), "state": challenge.state,
        "table": challenge.table_id,
    }


def people_store(site: Site) -> PeopleStore:
    return PeopleStore(site.accounts.store.engine)


async def keep_apart(site: Site, account: Account, table_id: str) -> None:
    """Refuse ``account`` a seat at a table where an account sits that it blocked, or that
    blocked it (the same refusal either way: a block is nobody else's business)."""
    owners = await site.accounts.call(site.accounts.store.seat_owners, table_id)
    if await site.accounts.call(people_store(site).apart, account.id, owners.values()):
        raise LobbyError(403, "people_blocked_table", "you cannot sit at this table")


async def avoided(site: Site, account: Account | None) -> frozenset[str]:
    """The names play now must never group with ``account`` (blocks, either way)."""
    if account is None:
        return frozenset()
    return await site.accounts.call(people_store(site).avoided_names, account.id)


async def seen(request: Request, site: Site, account: Account) -> None:
    """The account's page spoke to the site: it is online now (written to the database at
    most every :data:`~..people.SEEN_EVERY` seconds by one process)."""
    now = site.accounts.wall_clock()
    written = getattr(request.app.state, "people_seen", None)
    if written is None:
        written = request.app.state.people_seen = {}
    if written.get(account.id, 0.0) > now - SEEN_EVERY:
        return
    if len(written) > 50_000:
        written.clear()
    written[account.id] = now
    await site.accounts.call(people_store(site).seen, account.id, now)


async def _account(request: Request, site: Site, writing: bool = True) -> Account:
    account = await (site.writer(request) if writing else site.accounts.current(request))
    if account is None:
        raise LobbyError(401, "not_logged_in", "log in first")
    return account


@router.get("/api/people", tags=["people"])
async def my_people(request: Request, site: SiteDep) -> dict[str, Any]:
    """Friends (with ``online``), followed, followers and blocked accounts, each with its
    rating, and the challenges to and from the account."""
    account = await _account(request, site, writing=False)
    await seen(request, site, account)
    now = site.accounts.wall_clock()
    lists = await site.accounts.call(people_store(site).people, account.id, now)
    challenges = await site.accounts.call(
        ChallengeStore(site.accounts.store.engine).mine, account.id, now)
    body: dict[str, Any] = {key: [_person(p) for p in people] for key, people in lists.items()}
    for key, made in challenges.items():
        body[key] = [_challenge(c) for c in made]
    return body


@router.post("/api/people/follow", tags=["people"], responses=ERRORS)
async def follow(ask: NameAsk, request: Request, site: SiteDep) -> dict[str, Any]:
    account = await _account(request, site)
    person = await site.accounts.call(
        people_store(site).follow, account.id, ask.name, site.accounts.wall_clock())
    return _person(person)


@router.post("/api/people/unfollow", tags=["people"], status_code=204, responses=ERRORS)
async def unfollow(ask: NameAsk, request: Request, site: SiteDep) -> Response:
    account = await _account(request, site)
    await site.accounts.call(people_store(site).unfollow, account.id, ask.name)
    return Response(status_code=204)


@router.post("/api/people/block", tags=["people"], responses=ERRORS)
async def block(ask: NameAsk, request: Request, site: SiteDep) -> dict[str, Any]:
    """Block an account: it never sits at your table nor you at its, its chat never
    reaches you, and neither of you may challenge the other."""
    account = await _account(request, site)
    person = await site.accounts.call(
        people_store(site).block, account.id, ask.name, site.accounts.wall_clock())
    return _person(person)


@router.post("/api/people/unblock", tags=["people"], status_code=204, responses=ERRORS)
async def unblock(ask: NameAsk, request: Request, site: SiteDep) -> Response:
    account = await _account(request, site)
    await site.accounts.call(people_store(site).unblock, account.id, ask.name)
    return Response(status_code=204)


@router.get("/api/ratings", tags=["people"])
async def ratings(
    site: SiteDep,
    name: Annotated[list[str], Query(max_length=MAX_RATED_NAMES)],
) -> dict[str, dict[str, float]]:
    """The rating (μ − 3σ) of each name that is an account's, to show beside the names a
    page lists; guests' and bots' names are left out."""
    names = [n[:64] for n in name[:MAX_RATED_NAMES]]
    found = await site.accounts.call(people_store(site).ratings, names)
    return {"ratings": found}


# -- challenges -----------------------------------------------------------------------------
@router.post("/api/challenges", tags=["people"], status_code=201, responses=ERRORS)
async def challenge(ask: ChallengeAsk, request: Request, site: SiteDep) -> dict[str, Any]:
    """Challenge a named player to a table with these seats and clock."""
    account = await _account(request, site)
    check_table(ask.seats, {}, BOT_LEVEL, ask.clock_seconds)
    made = await site.accounts.call(
        ChallengeStore(site.accounts.store.engine).make, account.id, ask.name, ask.seats,
        ask.clock_seconds, ask.rated, ask.bots, site.accounts.wall_clock())
    challenge_made(made, request.app.state.notices.challenged)
    return _challenge(made)


@router.post("/api/challenges/{number}/accept", tags=["people"], status_code=201,
             responses=ERRORS)
async def accept(number: Number, request: Request, master: MasterDep,
                 site: SiteDep) -> dict[str, Any]:
    """Accept a challenge: a new table, the challenger hosting from seat 0 and you in the
    next seat, both seated by account (from any device)."""
    account = await _account(request, site)
    accounts = site.accounts
    store = ChallengeStore(accounts.store.engine)
    taken = await accounts.call(store.claim, account.id, number, accounts.wall_clock(), True)
    table_id = secrets.token_urlsafe(9)
    made = False
    try:
        await master.create_table(
            taken.from_name, seats=taken.seats, rules={}, bot_level=BOT_LEVEL,
            clock_seconds=taken.clock_seconds, public=not taken.bots, table_id=table_id,
            token=accounts.key.account_seat_token(taken.from_id, table_id),
        )
        made = True
        await accounts.call(accounts.store.own_seat, table_id, 0, taken.from_id)
        seat, _token = await master.join(
            table_id, account.name, accounts.key.account_seat_token(account.id, table_id))
        await accounts.call(accounts.store.own_seat, table_id, seat, account.id)
        await accounts.call(site.ratings.store.add_seat_address, table_id, account.id,
                            accounts.key.address_digest(address(request.client)))
        await accounts.call(store.placed, number, table_id)
    except BaseException:
        if made:
            await master.discard_lobby(table_id)
        await accounts.call(store.reopen, number)
        raise
    return {"table": table_id, "seat": seat, "invite": f"/t/{table_id}"}


@router.post("/api/challenges/{number}/decline", tags=["people"], status_code=204,
             responses=ERRORS)
async def decline(number: Number, request: Request, site: SiteDep) -> Response:
    account = await _account(request, site)
    store = ChallengeStore(site.accounts.store.engine)
    await site.accounts.call(store.claim, account.id, number, site.accounts.wall_clock(), False)
    return Response(status_code=204)


@router.post("/api/challenges/{number}/withdraw", tags=["people"], status_code=204,
             responses=ERRORS)
async def withdraw(number: Number, request: Request, site: SiteDep) -> Response:
    account = await _account(request, site)
    await site.accounts.call(
        ChallengeStore(site.accounts.store.engine).withdraw, account.id, number)
    return Response(status_code=204)
