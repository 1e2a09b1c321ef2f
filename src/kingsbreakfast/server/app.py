"""The ASGI app: a small JSON lobby API (with an OpenAPI schema), the play WebSocket and the
browser client's static files.

:func:`create_app` builds the process's parts (the registry of tables, the site, the
limits), sets them on ``app.state`` and includes the routes, which live in
:mod:`.routes` by area. Seat tokens travel in the ``X-Seat-Token`` header or the WebSocket's
first frame, never in a URL, so access logs never hold one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from . import collector, metrics, web_assets, workshops
from .accounts import ADDRESS_FAILURES, ADDRESS_WINDOW
from .limits import Allowance, BodyLimit, PerAddress, ServerLimits, SocketGate
from .mail import Mailer, MailSettings
from .master import Master
from .notices import DIGEST_SECONDS, Notices
from .push import PushSettings
from .recovery import Recovery, shared_asking
from .routes import (
    accounts,
    at_table,
    health,
    learn,
    leaving,
    pages,
    people,
    play,
    play_now,
    recovery,
    reports,
    results,
    review,
    shell,
    tables,
    tv,
)
from .routes import farewell as farewell_routes
from .routes import notices as notice_routes
from .routes import tournaments as tournament_routes
from .routes.errors import install_errors
from .routes.pages import static_dir
from .shared_counts import shared_bounds
from .site import Site
from .storage import DEFAULT_URL, Storage
from .tournaments.service import Tournaments
from .transport import OUTBOX_FRAMES, SocketOutbox

__all__ = ["OUTBOX_FRAMES", "SocketOutbox", "create_app", "static_dir"]


def create_app(
    db_url: str = DEFAULT_URL,
    *,
    bot_delay: float = 0.6,
    zombie_grace: float = 30.0,
    master: Master | None = None,
    lease_seconds: float | None = None,
    migrate: bool = True,
    limits: ServerLimits | None = None,
    site_key: str | None = None,
    mail: MailSettings | None = None,
    push: PushSettings | None = None,
    notice_digest: float = DIGEST_SECONDS,
) -> FastAPI:
    """The whole server as one ASGI app (give ``master`` to share one with a test). With
    ``lease_seconds`` the process shares its PostgreSQL database with others, holding each
    table it serves by a lease of that length (docs/deploy.md). Without ``mail`` the site
    sends no mail (the e-mail routes answer 503 ``mail_unavailable``). ``push`` and
    ``notice_digest``: how notices go out (:mod:`.notices`)."""
    bounds = limits or ServerLimits()
    the_master = master or Master(
        Storage(db_url), bot_delay=bot_delay, zombie_grace=zombie_grace,
        lease_seconds=lease_seconds, lobby_expiry=bounds.lobby_expiry,
    )
    gate: SocketGate = SocketGate(bounds.sockets_per_address, bounds.sockets_per_table)
    openers: Allowance = PerAddress(bounds.tables_per_minute, bounds.tables_burst)
    site = Site(the_master, site_key, bounds)
    mailed = Recovery(site.accounts, None if mail is None else Mailer(mail))
    notices = Notices(site, mailed.mailer, push or PushSettings(), notice_digest)
    storage = the_master.storage
    if (the_master.leases is not None and isinstance(storage, Storage)
            and not storage.is_sqlite):
        # several processes serve the site: the per-address bounds count in PostgreSQL
        shared, openers, site.accounts.registrations, site.accounts.address_failures = (
            shared_bounds(bounds, storage.engine, the_master.journal.call,
                          (ADDRESS_FAILURES, ADDRESS_WINDOW))
        )
        the_master.leases.sockets = gate = shared  # its counts go out with each renewal
        mailed.asking = shared_asking(storage.engine, the_master.journal.call)
    tournaments = Tournaments(the_master, site.accounts)
    tournaments.director.dealt.append(notices.round_dealt)
    metrics.watch(lambda: len(the_master.actors), lambda: gate.open)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await the_master.open(migrate=migrate)
        await site.open()
        tournaments.start()
        await notices.open()
        thresholds = collector.take_over()
        loop = asyncio.get_running_loop()
        passes = loop.create_task(collector.full_passes())
        try:
            yield
        finally:
            passes.cancel()
            await notices.close()
            await mailed.close()
            collector.give_back(thresholds)
            await site.waiting.stop()
            await tournaments.stop()
            await the_master.close()
            site.close()
            workshops.close_all()

    app = FastAPI(
        title="King's Breakfast server",
        version="1",
        description="Lobby API of the King's Breakfast game server; play is over WebSocket "
        "at /ws/tables/{id} (see docs/server.md).",
        lifespan=lifespan,
    )
    app.state.master = the_master
    app.state.site = site
    app.state.recovery = mailed
    app.state.notices = notices
    app.state.gate = gate
    app.state.openers = openers
    app.state.tournaments = tournaments
    app.add_middleware(BodyLimit, limit=bounds.body_bytes)
    install_errors(app)
    areas = (accounts, at_table, leaving, learn, play_now, recovery, reports, results, review,
             shell, tables, tv, tournament_routes, farewell_routes, notice_routes, pages, health,
             play)
    for area in areas:
        app.include_router(area.router)
    app.include_router(people.router)
    static = static_dir()
    web_assets.install(app, static)  # versioned assets, compression, security headers
    app.mount("/static", StaticFiles(directory=static), name="static")
    return app
