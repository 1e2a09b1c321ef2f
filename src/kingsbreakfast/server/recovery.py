"""An account's own e-mail address and a forgotten password (docs/accounts.md, E-mail and
password reset), after OWASP ASVS V2 (authentication) and V3 (sessions).

* **The address** is optional, stored normalised, and verified by a mailed link before any
  reset link goes there. It is the account's alone: no other player, page or export sees it.
* **A mailed link** carries a random token (256 bits) that is stored only as a keyed digest
  (:meth:`.accounts.Accounts.link_digest`); it works once and expires (a reset link after
  :data:`RESET_SECONDS`). Its token travels in the link's fragment (``/reset#…``), which a
  browser sends to no server: it stays out of access logs and Referer headers.
* **"Forgot password"** answers the same (status and body) whatever was typed, and does the
  looking up and mailing after the answer, in a task of its own, so neither the answer nor
  its timing tells whether a name or address has an account. It is limited per client
  address (429, which says nothing of any account), and silently per account and per mail
  address (:data:`RESETS_PER_HOUR`, :data:`MAILS_PER_ADDRESS`), counted in the database
  so every process of a site counts together.
* **A reset** sets the password with the same rules and hashing as registration, spends
  every reset link of the account and ends all of its sessions, in one transaction.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import unicodedata
from collections.abc import Coroutine
from typing import Any, Final

from sqlalchemy.engine import Engine

from kingsbreakfast.i18n import LANGUAGES, _, language

from .account_store import Account
from .accounts import HASHER, NAME_KEY_CHARS, Accounts, check_password, name_key
from .limits import Allowance, PerAddress, Refused
from .lobby import LobbyError
from .mail import Mailer, unavailable
from .recovery_store import Email, RecoveryStore
from .shared_counts import AddressEvents, Caller, SharedTaking
from .workshops import PASSWORDS

log = logging.getLogger("kingsbreakfast.server")

RESET_SECONDS: Final = 30 * 60.0
VERIFY_SECONDS: Final = 24 * 3600.0
RESETS_PER_HOUR: Final = 3
"""Reset mails one account may be sent in an hour."""
MAILS_PER_ADDRESS: Final = 5
"""Mails of one kind one mail address may be sent in an hour, whatever the accounts."""
VERIFY_PER_HOUR: Final = 5
"""Verification mails one account may ask for in an hour."""
ACCOUNTS_PER_ADDRESS: Final = 5
"""The accounts one "forgot password" for a shared address may mail."""
FORGOT_PER_MINUTE: Final = 0.2
FORGOT_BURST: Final = 5.0
"""Requests one client address may make: 5 at once, then one every five minutes."""
PENDING: Final = 256
"""Asks being looked up or mailed at once; past that a new one is dropped (and logged) with
the same answer: a flood from many addresses cannot pile up work without end."""
MAX_ADDRESS: Final = 254
TOKEN_CHARS: Final = 43


def normalise_address(value: object) -> str:
    """An e-mail address as stored and compared: trimmed and lower-cased, its domain in
    ASCII (IDNA); refused (422 ``bad_email``) unless it reads as one mailbox. No control
    character or line break gets through, so the address cannot add a mail header."""
    if not isinstance(value, str):
        raise _bad_email()
    text = unicodedata.normalize("NFKC", value).strip().lower()
    local, at, domain = text.rpartition("@")
    if (not at or not local or not domain or len(text) > MAX_ADDRESS or len(local) > 64
            or any(c.isspace() or not c.isprintable() or c in '<>()[],;:"\\' for c in text)
            or not local.isascii() or "." not in domain.strip(".")):
        raise _bad_email()
    try:
        domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        raise _bad_email() from None
    if domain.startswith(".") or domain.endswith(".") or ".." in domain:
        raise _bad_email()
    return f"{local}@{domain}"


def _bad_email() -> LobbyError:
    return LobbyError(422, "bad_email", "this is not an e-mail address", max=MAX_ADDRESS)


def bad_link() -> LobbyError:
    return LobbyError(
        400, "bad_link", "this link is used, expired or not one of ours: ask for a new one"
    )


def forgot_refused(per_minute: float, wait: float) -> Refused:
    return Refused(
        "too_many_resets", "too many password resets asked from your address: wait a while",
        retry_after=max(1, int(wait) + 1),
    )


def mail_language(code: object, fallback: str) -> str:
    return code if isinstance(code, str) and code in LANGUAGES else fallback


def verify_mail(name: str, link: str, lang: str) -> tuple[str, str]:
    """The subject and text of the mail that confirms an address."""
    with language(lang):
        return _("Confirm your e-mail address for King's Breakfast"), _(
            "Hello {name},\n\nopen this link to confirm that this address belongs to your "
            "King's Breakfast account:\n\n{link}\n\nThe link works once, for {hours} hours. "
            "If you did not ask for this, ignore this mail."
        ).format(name=name, link=link, hours=int(VERIFY_SECONDS // 3600))


def reset_mail(name: str, link: str, lang: str) -> tuple[str, str]:
    """The subject and text of the mail that lets an account choose a new password."""
    with language(lang):
        return _("Choose a new password for King's Breakfast"), _(
            "Hello {name},\n\nsomeone asked to reset the password of your King's Breakfast "
            "account. Open this link to choose a new one:\n\n{link}\n\nThe link works once, "
            "for {minutes} minutes, and logs out every device. If you did not ask for this, "
            "ignore this mail: your password stays as it is."
        ).format(name=name, link=link, minutes=int(RESET_SECONDS // 60))


def notice_mail(kind: str, name: str, lang: str) -> tuple[str, str]:
    """A mail that tells the account's verified address of a change to how it logs in (ASVS
    V2.2.3): ``address`` (the account's address is another one now, or none) or
    ``password`` (reset by a mailed link). It carries no link at all."""
    with language(lang):
        if kind == "address":
            return _("Your King's Breakfast e-mail address was changed"), _(
                "Hello {name},\n\nthe e-mail address of your King's Breakfast account is no "
                "longer this one. If you did not change it, log in, change your password and "
                "set your address again."
            ).format(name=name)
        return _("Your King's Breakfast password was changed"), _(
            "Hello {name},\n\nthe password of your King's Breakfast account was just changed "
            "through a link mailed here, and every device was logged out. If it was not you, "
            "ask for a new link at once and choose another password."
        ).format(name=name)


def shared_asking(engine: Engine, call: Caller) -> Allowance:
    """The "forgot password" allowance every process of a site counts together (in
    PostgreSQL): the bucket's sliding-window equal, ``FORGOT_BURST`` in any
    ``FORGOT_BURST / FORGOT_PER_MINUTE`` minutes."""
    return SharedTaking(
        AddressEvents(engine), call, "resets",
        [(int(FORGOT_BURST), FORGOT_BURST * 60.0 / FORGOT_PER_MINUTE)],
        lambda wait: forgot_refused(FORGOT_PER_MINUTE, wait),
    )


class Recovery:
    """The e-mail addresses and mailed links of one site, seen from one process."""

    def __init__(self, accounts: Accounts, mailer: Mailer | None) -> None:
        self.accounts = accounts
        self.mailer = mailer
        self.store = RecoveryStore(accounts.store.engine)
        self.asking: Allowance = PerAddress(
            FORGOT_PER_MINUTE, FORGOT_BURST, refusal=forgot_refused
        )
        """Counted in this process, or by every process of a site (:func:`shared_asking`,
        set by the app)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def _mail(self) -> Mailer:
        if self.mailer is None:
            raise unavailable()
        return self.mailer

    async def email(self, account: Account) -> Email | None:
        return await self.accounts.call(self.store.email, account.id)

    async def set_email(
        self, account: Account, address: object, lang: str, password: object, client: str
    ) -> Email | None:
        """A new address, mailed a verification link at once; None or "" removes it. Either
        needs the current password (ASVS V2.5): a stolen session alone cannot point the
        account's reset links elsewhere."""
        await self.accounts.confirm_password(account, password, client)
        now = await self.email(account)
        if address is None or address == "":
            await self.accounts.call(self.store.set_email, account.id, None, lang)
            self._notice(now, "address")
            return None
        mailer = self._mail()
        clean = normalise_address(address)
        if now is not None and now.address == clean and now.verified:
            await self.accounts.call(self.store.set_email, account.id, clean, lang)
            return await self.email(account)  # verified already: only the language changes
        await self.accounts.call(self.store.set_email, account.id, clean, lang)
        if now is not None and now.address != clean:
            self._notice(now, "address")
        token = await self._link(account.id, "verify", clean, VERIFY_SECONDS, VERIFY_PER_HOUR)
        if token is None:
            raise LobbyError(
                429, "too_many_mails", "too many mails asked for this account: try later",
                retry_after=3600,
            )
        link = mailer.settings.link(f"/verify-email#{token}")
        await mailer.send(clean, *verify_mail(account.name, link, lang))
        log.info("account %d: verification mail sent", account.id)
        return await self.email(account)

    async def verify(self, token: object) -> None:
        if not isinstance(token, str) or len(token) != TOKEN_CHARS:
            raise bad_link()
        digest = self.accounts.link_digest("verify", token)
        if not await self.accounts.call(self.store.verify, digest, self.accounts.wall_clock()):
            raise bad_link()

    async def _link(
        self, account_id: int, purpose: str, address: str, seconds: float, per_hour: int
    ) -> str | None:
        """A new link's token, stored as its digest; None past the account's or the
        address's mails for the hour."""
        token = secrets.token_urlsafe(32)
        now = self.accounts.wall_clock()
        stored = await self.accounts.call(
            self.store.add_token, self.accounts.link_digest(purpose, token), account_id,
            purpose, address, now, now + seconds, per_hour, MAILS_PER_ADDRESS,
        )
        return token if stored else None

    # -- forgotten passwords ---------------------------------------------------------------
    async def forgot(self, who: object, client: str) -> None:
        """Take a "forgot password" for a name or an address: mails (if any) go out after
        this returns, so what it answers never depends on the accounts."""
        self._mail()
        await self.asking.admit(client)
        text = " ".join(who.split())[:MAX_ADDRESS] if isinstance(who, str) else ""
        if not text:
            return
        if len(self._tasks) >= PENDING:
            log.warning("a password reset ask dropped: %d in hand", len(self._tasks))
            return
        self._start(self._send_resets(text))

    async def _send_resets(self, text: str) -> None:
        mailer = self._mail()
        try:
            address = normalise_address(text) if "@" in text else ""
        except LobbyError:
            address = ""
        key = name_key(text)[:NAME_KEY_CHARS]
        try:
            for email in await self.accounts.call(
                self.store.recipients, key, address, ACCOUNTS_PER_ADDRESS
            ):
                token = await self._link(
                    email.account_id, "reset", email.address, RESET_SECONDS, RESETS_PER_HOUR
                )
                if token is None:
                    log.info("account %d: reset mail held back (limit)", email.account_id)
                    continue
                link = mailer.settings.link(f"/reset#{token}")
                await mailer.send(email.address, *reset_mail(email.name, link, email.language))
                log.info("account %d: reset mail sent", email.account_id)
        except Exception as error:  # nobody waits for this task: say it in the log
            log.warning("reset mail not sent: %s", type(error).__name__)

    async def reset(self, token: object, password: object) -> None:
        """Set a new password through a reset link (once), ending every session."""
        fresh = check_password(password)
        if not isinstance(token, str) or len(token) != TOKEN_CHARS:
            raise bad_link()
        digest = self.accounts.link_digest("reset", token)
        if not await self.accounts.call(
            self.store.reset_open, digest, self.accounts.wall_clock()
        ):
            raise bad_link()
        hashed = await PASSWORDS.run(HASHER.hash, fresh)
        account_id = await self.accounts.call(
            self.store.reset, digest, self.accounts.wall_clock(), hashed
        )
        if account_id is None:  # used or expired meanwhile
            raise bad_link()
        log.info("account %d: password reset by a mailed link", account_id)
        self._notice(await self.accounts.call(self.store.email, account_id), "password")

    def _notice(self, email: Email | None, kind: str) -> None:
        """Tell a verified address of a change (:func:`notice_mail`), after the answer."""
        if email is None or not email.verified or self.mailer is None:
            return
        self._start(self._send_notice(self.mailer, email, kind))

    async def _send_notice(self, mailer: Mailer, email: Email, kind: str) -> None:
        try:
            await mailer.send(email.address, *notice_mail(kind, email.name, email.language))
        except LobbyError:  # nobody waits for this task: Mailer.send logged why
            return
        log.info("account %d: %s change notice sent", email.account_id, kind)

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.mailer is not None:
            self.mailer.close()
