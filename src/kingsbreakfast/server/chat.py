"""Table chat: short lines from seated players, stored with the table and sent to everyone
watching it as ``chat`` frames, never mixed into the game's history or log.

Limits: a line has at most ``MAX_CHARS`` characters once control characters are dropped and
blanks collapsed; a seat may send a burst of ``BURST`` lines, then one every ``EVERY``
seconds. A line holding a link (a web address, or an e-mail address) is refused, and so is a
line its seat wrote already among its last ``REPEATS`` (the two ways strangers' chat is
spammed); an account an operator muted writes nothing until the mute ends, and a line an
operator hid is never sent again (:mod:`.moderation`). A line from an account never reaches
a seat whose account blocked it, neither as it is said nor in the table's chat read later
(:mod:`.people`). The server stores and sends the text
as written: escaping is the page's job (the client writes chat only as text, never as
markup), and a test tries a script in a line.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from typing import Any, Final

from .accounts import Accounts
from .actor import TableActor
from .audience import Outbox
from .lobby import LobbyError
from .moderation import ModerationStore
from .people import PeopleStore
from .wire import chat_frame

MAX_CHARS: Final = 200
BURST: Final = 5.0
EVERY: Final = 2.0
REPEATS: Final = 3
"""How many of a seat's last lines a new line may not repeat."""
_LINK: Final = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://|www\.|\w@\w)"  # a scheme, www., an e-mail address
    r"|\b[a-z0-9-]{2,}(?:\.[a-z0-9-]{2,})*\s*\.\s*(?:com|net|org|io|de|hu|fr|vn|ru|co|uk"
    r"|info|biz|xyz|app|gg|ly|me|tv|link|click|top|site|online|shop)\b(?:/|\s|$)",
    re.IGNORECASE,
)


def clean_line(text: object) -> str:
    if not isinstance(text, str):
        raise LobbyError(422, "bad_chat", "a chat line is text", limit=MAX_CHARS)
    line = " ".join(
        "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in text).split()
    )
    if not line or len(line) > MAX_CHARS:
        raise LobbyError(
            422, "bad_chat", f"a chat line has 1 to {MAX_CHARS} characters", limit=MAX_CHARS
        )
    return line


def check_line(line: str, recent: deque[str]) -> None:
    """Refuse a link, or a line the seat wrote among its last :data:`REPEATS`."""
    if _LINK.search(unicodedata.normalize("NFKC", line)):
        raise LobbyError(422, "chat_link", "links cannot be sent in the chat")
    if line.casefold() in recent:
        raise LobbyError(429, "chat_repeat", "you wrote this already")


class Chat:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.moderation = ModerationStore(accounts.store.engine)
        self.people = PeopleStore(accounts.store.engine)
        self._allowance: dict[tuple[str, int], tuple[float, float]] = {}
        self._recent: dict[tuple[str, int], deque[str]] = {}

    def _spend(self, table_id: str, seat: int, now: float) -> None:
        allowance, last = self._allowance.get((table_id, seat), (BURST, now))
        allowance = min(BURST, allowance + (now - last) / EVERY)
        if allowance < 1.0:
            raise LobbyError(
                429, "chat_rate", "you are writing too fast: wait a moment",
                retry_after=int((1.0 - allowance) * EVERY) + 1,
            )
        self._allowance[(table_id, seat)] = (allowance - 1.0, now)
        if len(self._allowance) > 50_000:
            self._allowance.pop(next(iter(self._allowance)))

    async def say(self, actor: TableActor, seat: int, text: object) -> dict[str, Any]:
        table = actor.table
        line = clean_line(text)
        now = self.accounts.wall_clock()
        call = self.accounts.call
        owners = await call(self.accounts.store.seat_owners, table.id)
        owner = owners.get(seat)
        if owner is not None:
            until = await call(self.moderation.muted_until, owner)
            if until > now:
                raise LobbyError(403, "muted", "an operator muted you: you cannot chat for now",
                                 until_ms=int(until * 1000))
        recent = self._recent.setdefault((table.id, seat), deque(maxlen=REPEATS))
        check_line(line, recent)
        self._spend(table.id, seat, now)
        recent.append(line.casefold())
        if len(self._recent) > 50_000:
            self._recent.pop(next(iter(self._recent)))
        name = table.names()[seat]
        stored = await self.accounts.call(
            self.accounts.store.add_chat, table.id, seat, name, line, now
        )
        frame = chat_frame(stored.id, seat, name, line, now)
        connections = list(actor.audience.connections)
        blockers: set[int] = set()
        if owner is not None:  # whoever blocked the speaker never hears it, seated or not
            listeners = set(owners.values()) | {
                a for c in connections if (a := _reader(c)) is not None}
            blockers = await call(self.people.blocked_by, owner, listeners)
        for conn in connections:
            if not blockers or (owners.get(conn.seat) if conn.seat is not None
                                else _reader(conn)) not in blockers:
                conn.push(frame)
        return _line(stored.id, seat, name, line, now)

    async def lines(self, table_id: str, reader: int | None = None) -> list[dict[str, Any]]:
        """The table's chat so far, without the lines an operator hid, nor (for a
        ``reader`` account) those of the seats held by accounts it blocked."""
        call = self.accounts.call
        rows = await call(self.accounts.store.chat, table_id)
        hidden = await call(self.moderation.hidden_lines, table_id)
        if reader is not None:
            blocked = await call(self.people.blocks_of, reader)
            if blocked:
                owners = await call(self.accounts.store.seat_owners, table_id)
                hidden |= {r.id for r in rows if owners.get(r.seat) in blocked}
        return [_line(r.id, r.seat, r.name, r.text, r.at) for r in rows if r.id not in hidden]


def _reader(conn: Outbox) -> int | None:
    """The account whose browser opened the socket (set by the play route), if any."""
    state = getattr(getattr(conn, "websocket", None), "state", None)
    account = getattr(state, "account_id", None)
    return account if isinstance(account, int) else None


def _line(line_id: int, seat: int, name: str, text: str, at: float) -> dict[str, Any]:
    return {"id": line_id, "seat": seat, "name": name, "text": text, "at_ms": int(at * 1000)}
