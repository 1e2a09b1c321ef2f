"""Accounts: register, log in, log out, change the password, and who a request is.

Passwords are hashed with argon2id (``argon2-cffi``) in a worker thread, never logged and
never echoed in an error.

Guessing passwords is slowed without naming accounts or locking their owners out
(docs/accounts.md). Wrong passwords are counted per *typed name and address*, in the
database so every process sees them, for a name nobody has exactly as for a real one: after
:data:`FREE_FAILURES` in a row from one address, that address is held back from that name,
30 s doubling to 15 minutes. The owner, from any address that has not failed, logs in as
ever. When one name draws :data:`NAME_FAILURES` failures from all addresses together within
:data:`NAME_WINDOW` (many machines guessing one player's password), every address gets a
single free failure for it. Every answer to a refused log-in is the same ``401 bad_login``,
held back or not, and takes the same work: the argon2 check always runs (against a dummy hash
for an unknown name), and the same rows are read and written. Apart from that, one address
may fail :data:`ADDRESS_FAILURES` times in :data:`ADDRESS_WINDOW` whatever the names (429).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
import unicodedata
from collections.abc import Callable
from typing import Final, ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool
from starlette.requests import HTTPConnection

from .account_store import Account, AccountStore, Failures, NameTaken
from .farewell_store import FarewellStore
from .limits import (
    Allowance,
    FailureWindow,
    RegistrationAllowance,
    Registrations,
    ServerLimits,
)
from .lobby import LobbyError, clean_name
from .master import Master
from .moderation import ModerationStore
from .names import look_alike_key
from .proof import Proofs, bits_needed
from .sessions import SESSION_COOKIE, SESSION_SECONDS, Keys, digest, new_session_id
from .storage import Storage
from .workshops import PASSWORDS

log = logging.getLogger("kingsbreakfast.server")
T = TypeVar("T")
P = ParamSpec("P")

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
FREE_FAILURES: Final = 5
"""Wrong passwords in a row one address may give for one name before each further one holds
that address back from it."""
LOCK_SECONDS: Final = 30.0
MAX_LOCK_SECONDS: Final = 900.0
NAME_FAILURES: Final = 20
"""Failures for one name from all addresses together that make it a name under attack..."""
NAME_WINDOW: Final = 900.0
"""...within this many seconds: then each address has one free failure for it."""
FORGET_SECONDS: Final = 86_400.0
"""A run of failures that began this long ago and holds nothing back any more is dropped."""
NAME_KEY_CHARS: Final = 64
ADDRESS_FAILURES: Final = 20
ADDRESS_WINDOW: Final = 600.0

# OWASP's smallest recommended argon2id cost (19 MiB, 2 passes): the server shares its CPU
# with the games, and a login must not stall them.
HASHER: Final = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
_DUMMY: Final = HASHER.hash("not a password of anyone")


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: object) -> str:
    """The password, or a refusal that never repeats it."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise LobbyError(
            422, "bad_password",
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            min=MIN_PASSWORD, max=MAX_PASSWORD,
        )
    return password


def lock_seconds(failures: int, free: int = FREE_FAILURES) -> float:
    """How long an address is held back from a name after its ``failures``-th wrong
    password in a row for it (``free`` allowed before the first hold)."""
    if failures < free:
        return 0.0
    return min(MAX_LOCK_SECONDS, LOCK_SECONDS * 2.0 ** min(failures - free, 30))


def after_failure(here: Failures, every: Failures, now: float) -> tuple[Failures, Failures]:
    """The counts of one name (from this address, and from every address) after one more
    failure at ``now``."""
    if every.failures and now - every.since <= NAME_WINDOW:
        every = Failures(every.failures + 1, every.since, 0.0)
    else:
        every = Failures(1, now, 0.0)
    free = 1 if every.failures >= NAME_FAILURES else FREE_FAILURES
    failures = here.failures + 1
    since = here.since if here.failures else now
    return Failures(failures, since, now + lock_seconds(failures, free)), every


class Accounts:
    """The accounts of one site, seen from one server process."""

    def __init__(
        self, master: Master, wall_clock: Callable[[], float] = time.time,
        limits: ServerLimits | None = None,
    ) -> None:
        self.master = master
        bounds = limits or ServerLimits()
        self.registrations: RegistrationAllowance = Registrations(
            bounds.registrations_per_hour, bounds.registrations_per_day
        )
        self.free_registrations = bounds.registrations_without_proof
        """Accounts an address makes in an hour before a proof of work is asked."""
        self.address_failures: Allowance = FailureWindow(ADDRESS_FAILURES, ADDRESS_WINDOW)
        """Both in this process's memory, or shared by a site's processes
        (:mod:`.shared_counts`, set by the app)."""
        storage = master.storage
        if isinstance(storage, Storage):
            engine = storage.engine
            self._own_engine = False
        else:  # a test's in-memory game store: the accounts live in a private database
            engine = create_engine(
                "sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool
            )
            self._own_engine = True
        self.store = AccountStore(engine)
        self.wall_clock = wall_clock
        self.keys: Keys | None = None
        self._mail_key = b""
        self.proofs = Proofs(b"")

    async def open(self, given_key: str | None = None) -> None:
        if self._own_engine:
            from .models import Base

            Base.metadata.create_all(self.store.engine)
        key: str = given_key if given_key else await self.call(self.store.site_key, "site")
        self.keys = Keys(key)
        self._mail_key = key.encode("utf-8")
        self.proofs = Proofs(key.encode("utf-8"))

    def close(self) -> None:
        if self._own_engine:
            self.store.engine.dispose()

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.master.journal.call(fn, *args, **kwargs)

    @property
    def key(self) -> Keys:
        assert self.keys is not None, "accounts not opened"
        return self.keys

    async def guest_may_use(self, name: str) -> None:
        """Refuse a guest's display name that reads like an account's: only the account's
        owner, logged in, sits under that name."""
        if former(name) or await self.call(
            self.store.name_in_use, look_alike_key(name), self.wall_clock()
        ):
            raise LobbyError(
                409, "account_name", "an account has this name (or one that reads like "
                "it): log in to use it, or choose another",
            )

    def link_digest(self, purpose: str, token: str) -> str:
        """What is stored of a mailed link's token (:mod:`.recovery`): keyed by the site
        key, so neither a database dump nor a guess of the hash opens the link."""
        assert self._mail_key, "accounts not opened"
        message = f"mail-link:{purpose}\n{token}".encode()
        return hmac.new(self._mail_key, message, hashlib.sha256).hexdigest()

    # -- register, log in, password ----------------------------------------------------------
    async def challenge(self, address: str) -> tuple[str, int]:
        """A proof-of-work challenge for the address's next registration and its cost in
        bits (0: none is needed now, :mod:`.proof`)."""
        bits = bits_needed(await self.registrations.recent(address), self.free_registrations)
        return self.proofs.challenge(address, bits, self.wall_clock()), bits

    async def register(
        self, name: object, password: object, address: str, proof: object = None
    ) -> Account:
        """A new account, counted against the address's allowance and, past its first few
        of the hour, paid for with a proof of work (both checked before any work of ours: a
        flood of registrations costs no hashing)."""
        display = clean_name(name)
        secret = check_password(password)
        await self.registrations.admit(address)
        needed = bits_needed(await self.registrations.recent(address), self.free_registrations)
        if needed:
            self.proofs.check(proof, name, address, needed, self.wall_clock())
        # names whose reservation ended are forgotten (:mod:`.farewell`)
        await self.call(FarewellStore(self.store.engine).free_names, self.wall_clock())
        if former(display) or await self.call(
            self.store.name_in_use, look_alike_key(display), self.wall_clock()
        ):
            raise _taken()
        hashed = await PASSWORDS.run(HASHER.hash, secret)
        try:
            account = await self.call(
                self.store.create_account, display, name_key(display),
                look_alike_key(display), hashed,
            )
        except NameTaken:  # registered meanwhile by another process
            raise _taken() from None
        await self.registrations.count(address)
        log.info("account %d registered", account.id)
        return account

    async def login(self, name: object, password: object, address: str) -> Account:
        if not isinstance(name, str) or not isinstance(password, str):
            raise LobbyError(422, "bad_login", "send a name and a password")
        now = self.wall_clock()
        await self.address_failures.admit(address)
        key = name_key(" ".join(name.split()))[:NAME_KEY_CHARS]
        where = address[:NAME_KEY_CHARS]
        account, here, every = await self.call(self.store.login_state, key, where)
        good = await PASSWORDS.run(
            _verify, account.password_hash if account else _DUMMY, password[:MAX_PASSWORD]
        )
        if account is None or not good or here.locked_until > now:
            # held back or not, known name or not: the same work and the same answer
            await self.address_failures.count(address)
            here, every = after_failure(here, every, now)
            await self.call(
                self.store.login_failed, key, where, here, every, now - FORGET_SECONDS
            )
            log.info("login refused from %s", address)
            raise LobbyError(401, "bad_login", "wrong name or password")
        if await self.call(ModerationStore(self.store.engine).banned, account.id):
            # told only to whoever knows the password: a ban is nobody else's business
            raise LobbyError(403, "banned", "an operator banned this account")
        rehash = None
        if HASHER.check_needs_rehash(account.password_hash):
            rehash = await PASSWORDS.run(HASHER.hash, password)
        await self.call(self.store.login_succeeded, account.id, key, where, rehash)
        return account

    async def confirm_password(self, account: Account, password: object, address: str) -> None:
        """The current password, asked again before a change that would hand the account to
        whoever holds a session (its e-mail address, where reset links go); a wrong one counts
        against the address like a failed log-in."""
        await self.address_failures.admit(address)
        good = isinstance(password, str) and await PASSWORDS.run(
            _verify, account.password_hash, password[:MAX_PASSWORD]
        )
        if not good:
            await self.address_failures.count(address)
            raise LobbyError(403, "bad_password_old", "the current password is wrong")

    async def change_password(self, account: Account, old: object, new: object) -> None:
        fresh = check_password(new)
        good = isinstance(old, str) and await PASSWORDS.run(
            _verify, account.password_hash, old[:MAX_PASSWORD]
        )
        if not good:
            raise LobbyError(403, "bad_password_old", "the current password is wrong")
        hashed = await PASSWORDS.run(HASHER.hash, fresh)
        await self.call(self.store.set_password, account.id, hashed)
        log.info("account %d changed its password", account.id)

    # -- sessions ---------------------------------------------------------------------------
    async def start_session(self, account: Account, old_cookie: str | None) -> str:
        """A new session (never the one the browser came with: no fixation); answers the
        cookie's value."""
        if old_cookie:
            await self.end_session(old_cookie)
        session_id = new_session_id()
        await self.call(
            self.store.add_session, digest(session_id), account.id,
            self.wall_clock() + SESSION_SECONDS,
        )
        return self.key.sign(session_id)

    async def end_session(self, cookie: str) -> None:
        session_id = self.key.unsign(cookie)
        if session_id is not None:
            await self.call(self.store.end_session, digest(session_id))

    async def current(self, connection: HTTPConnection) -> Account | None:
        """The account a request's session cookie names, if it is still valid."""
        session_id = self.key.unsign(connection.cookies.get(SESSION_COOKIE))
        if session_id is None:
            return None
        return await self.call(self.store.session_account, digest(session_id), self.wall_clock())


_FORMER: Final = look_alike_key("Former player")


def former(name: str) -> bool:
    """A name that reads like a deleted account's pseudonym (``Former player 4821``,
    :mod:`.farewell`): nobody registers or sits under one."""
    return look_alike_key(name).startswith(_FORMER)


def _taken() -> LobbyError:
    return LobbyError(
        409, "name_taken", "an account of that name, or of one that reads like it, exists"
    )


def _verify(password_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
