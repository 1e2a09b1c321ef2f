"""Notices: a player who is away is told by Web Push and by e-mail that a game needs them
(docs/accounts.md, Notices).

One entry point per kind: :meth:`Notices.your_turn` (a turn-based table handed them the
move), :meth:`Notices.clock_low` (that move's clock is about to run out),
:meth:`Notices.challenge_made` and :meth:`Notices.game_starting`. The first two are hooked to
the tables of this process and reach only a player who is not at the table right now (a
player who is has the page's own cues). Each kind is switched on or off per channel by the
account (:mod:`.notice_store`).

* **Push** goes to every device the account allowed it on, in that device's language, at
  once (:mod:`.push`).
* **Mail** goes to a verified address only, as a digest: a game's line waits
  :data:`DIGEST_SECONDS` for the account's other games' lines, and each game has at most one
  line a day, claimed in the database, so however many turns pass and however many
  processes serve the site, a game is mailed about once a day.

No notice carries a card: only whose game it is and a link (:mod:`.notice_texts`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Coroutine
from typing import Any, Final
from urllib.parse import urlsplit

from .lifecycle import Phase
from .lobby import LobbyError, is_turn_based
from .mail import Mailer
from .notice_store import NoticeStore
from .notice_texts import digest_line, digest_mail, push_text
from .push import Pusher, PushSettings
from .recovery_store import RecoveryStore
from .site import Site
from .store import StorageError
from .tables import HUMAN, Table

log = logging.getLogger("kingsbreakfast.server")

DIGEST_SECONDS: Final = 120.0
"""How long a game's mail line waits for the account's other lines."""
SWEEP_SECONDS: Final = 60.0
"""How often this process looks at its turn clocks (and at digests a stopped process left)."""
LOW_SHARE: Final = 0.25
LOW_MOST: Final = 12 * 3600.0
"""A clock is low when a quarter of the turn is left, and at most twelve hours."""
GONE: Final = (404, 410)
"""A push service's answer for a subscription that is no more."""


def low_margin(clock_seconds: int) -> float:
    return min(clock_seconds * LOW_SHARE, LOW_MOST)


def others(table: Table, seat: int) -> str:
    """The names of the other people at the table (as every player there sees them); the
    bots go unnamed."""
    return ", ".join(s.name for n, s in enumerate(table.seats) if n != seat and s.kind == HUMAN)


class Notices:
    """The notices of one site, seen from one process."""

    def __init__(self, site: Site, mailer: Mailer | None, settings: PushSettings,
                 digest_seconds: float = DIGEST_SECONDS,
                 sweep_seconds: float = SWEEP_SECONDS) -> None:
        self.site = site
        self.accounts = site.accounts
        self.master = site.master
        self.mailer = mailer
        self.settings = settings
        self.digest_seconds = digest_seconds
        self.sweep_seconds = sweep_seconds
        self.store = NoticeStore(self.accounts.store.engine)
        self.emails = RecoveryStore(self.accounts.store.engine)
        self.pusher: Pusher | None = None
        """Made at :meth:`open` (its key is the site's, read from the database)."""
        self._warned: set[tuple[str, int]] = set()
        """(table, version) whose low clock was looked at already."""
        self._digests: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.master.events.clock_started.connect(self._clock_started)
        site.waiting.dealt.append(self._dealt)

    async def open(self) -> None:
        secret = await self.accounts.call(self.accounts.store.site_key, "vapid")
        self.pusher = Pusher(secret, self.settings)
        self._sweeper = asyncio.get_running_loop().create_task(self._keep())

    async def close(self) -> None:
        tasks = [*self._tasks, *self._digests.values()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.pusher is not None:
            self.pusher.close()

    # -- the entry points -----------------------------------------------------------------
    async def your_turn(self, table: Table, seat: int) -> None:
        """The seat's account has the move at a turn-based table."""
        account = (await self.accounts.call(self.accounts.store.seat_owners, table.id)).get(seat)
        if account is not None:
            await self._tell("your_turn", account, f"/t/{table.id}", others(table, seat))

    async def clock_low(self, table: Table, seat: int, seconds_left: float) -> None:
        """The seat's account has ``seconds_left`` for its move, and no more."""
        account = (await self.accounts.call(self.accounts.store.seat_owners, table.id)).get(seat)
        if account is not None:
            await self._tell("clock_low", account, f"/t/{table.id}", others(table, seat),
                             seconds_left)

    async def challenge_made(self, challenger_id: int, challenged_id: int, url: str) -> None:
        """``challenger_id`` challenged ``challenged_id``; ``url`` opens the challenge (only
        its path is kept: links start with the site's own address)."""
        challenger = await self.accounts.call(self.accounts.store.account, challenger_id)
        path = urlsplit(url).path or "/"
        if challenger is not None:
            await self._tell("challenge", challenged_id, path, challenger.name)

    async def game_starting(self, table: Table, mail: bool = True,
                            owners: dict[int, int] | None = None) -> None:
        """Every account seated at ``table`` is told its game starts (play now's deal, a
        tournament's round). ``mail=False`` for a live game: over before a mail is read.
        ``owners`` (seat → account) where the caller knows them; else the seats' owners."""
        if owners is None:
            owners = await self.accounts.call(self.accounts.store.seat_owners, table.id)
        for seat, account in sorted(owners.items()):
            await self._tell("game_starting", account, f"/t/{table.id}", others(table, seat),
                             mail=mail)

    # -- the hooks ------------------------------------------------------------------------
    def _clock_started(self, table: Table) -> None:
        """A turn began: at a turn-based table, tell its player unless they are there."""
        state = table.state
        if not is_turn_based(table.clock_seconds) or state is None or state.to_move is None:
            return
        seat = state.to_move
        actor = self.master.actors.get(table.id)
        if table.seats[seat].kind != HUMAN or (actor is not None and
                                               actor.audience.connected(seat)):
            return
        self._start(self.your_turn(table, seat))

    def _dealt(self, table: Table) -> None:
        self._start(self.game_starting(table, mail=False))

    def round_dealt(self, table: Table, owners: dict[int, int]) -> None:
        """A tournament's table was dealt (``owners``: seat → account): its players are
        told, by mail too at a turn-based table (a live round is over before a mail is
        read)."""
        self._start(self.game_starting(table, mail=is_turn_based(table.clock_seconds),
                                       owners=owners))

    def challenged(self, challenger_id: int, challenged_id: int) -> None:
        """A challenge was made (told by :mod:`.challenges`): the challenged hears of it in
        the background, with a link to the People page, where challenges are answered."""
        self._start(self.challenge_made(challenger_id, challenged_id, "/people"))

    def check_clocks(self) -> int:
        """Tell each absent player whose turn-based clock at this process's tables is low
        (once a turn); how many were told."""
        now = self.master.hall.wall_clock()
        told = 0
        for actor in list(self.master.actors.values()):
            table, state = actor.table, actor.table.state
            if (actor.phase is not Phase.PLAYING or state is None or state.to_move is None
                    or table.deadline is None or table.clock_seconds is None
                    or not is_turn_based(table.clock_seconds)):
                continue
            seat, left = state.to_move, table.deadline - now
            if (left <= 0 or left > low_margin(table.clock_seconds)
                    or table.seats[seat].kind != HUMAN
                    or (table.id, table.version) in self._warned):
                continue
            self._warned.add((table.id, table.version))
            if not actor.audience.connected(seat):
                self._start(self.clock_low(table, seat, left))
                told += 1
        if len(self._warned) > 10_000:
            self._warned = {w for w in self._warned if w[0] in self.master.actors}
        return told

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                self.check_clocks()
                stale = self.master.hall.wall_clock() - self.digest_seconds - self.sweep_seconds
                for account in await self.accounts.call(self.store.waiting_accounts, stale):
                    self._digest_soon(account, 0.0)
            except StorageError as error:
                log.warning("notices: the sweep failed (%s)", error)

    # -- telling ---------------------------------------------------------------------------
    async def _tell(self, kind: str, account: int, path: str, who: str,
                    seconds: float = 0.0, mail: bool = True) -> None:
        pushing = await self.accounts.call(self.store.wanting, [account], kind, "push")
        if self.pusher is not None and pushing:
            for device in await self.accounts.call(self.store.devices, account):
                title, body = push_text(kind, device.language, who, seconds)
                status = await self.pusher.push(device, {
                    "kind": kind, "title": title, "body": body, "url": path,
                    "tag": f"kb:{path}",
                })
                if status in GONE:
                    await self.accounts.call(self.store.forget_endpoint, device.endpoint)
        if not mail or self.mailer is None:
            return
        if not await self.accounts.call(self.store.wanting, [account], kind, "mail"):
            return
        email = await self.accounts.call(self.emails.email, account)
        if email is None or not email.verified:
            return
        now = self.master.hall.wall_clock()
        if await self.accounts.call(self.store.claim_mail, account, path, int(now // 86_400),
                                    kind, now):
            self._digest_soon(account, self.digest_seconds)

    def _digest_soon(self, account: int, delay: float) -> None:
        if account in self._digests:
            return  # one is on its way: it takes this line too
        task = asyncio.get_running_loop().create_task(self._digest(account, delay))
        self._digests[account] = task
        task.add_done_callback(lambda _t: self._digests.pop(account, None))

    async def _digest(self, account: int, delay: float) -> None:
        await asyncio.sleep(delay)
        mailer = self.mailer
        if mailer is None:
            return
        try:
            email = await self.accounts.call(self.emails.email, account)
            if email is None or not email.verified:
                return
            now = self.master.hall.wall_clock()
            lines = await self.accounts.call(
                self.store.take_digest, account, secrets.token_hex(12), now)
            if not lines:
                return  # another process mailed them
            link = mailer.settings.link
            text = [digest_line(kind, email.language, link(path)) for path, kind in lines]
            await mailer.send(email.address, *digest_mail(
                email.name, text, email.language, link("/account")))
            log.info("account %d: a notice digest of %d lines sent", account, len(lines))
        except (StorageError, LobbyError) as error:
            log.warning("account %d: notice digest not sent (%s)", account, error)

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        """Send a notice in the background. The task runs ``work`` itself, not a wrapper
        awaiting it: a task cancelled before its first step (the loop closing) then closes
        ``work`` too, instead of leaving it never awaited."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, (StorageError, LobbyError)):  # nobody waits for a notice
            log.warning("notice not sent: %s", error)
        elif error is not None:
            log.error("notice failed", exc_info=error)
