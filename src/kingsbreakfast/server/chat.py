"""Table chat: short lines from seated players, stored with the table and sent to everyone
watching it as ``chat`` frames, never mixed into the game's history or log.

Limits: a line has at most ``MAX_CHARS`` characters once control characters are dropped and
blanks collapsed; a seat may send a burst of ``BURST`` lines, then one every ``EVERY``
seconds. The server stores and sends the text as written: escaping is the page's job (the
client writes chat only as text, never as markup), and a test tries a script in a line.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Final

from .accounts import Accounts
from .actor import TableActor
from .lobby import LobbyError
from .wire import chat_frame

MAX_CHARS: Final = 200
BURST: Final = 5.0
EVERY: Final = 2.0


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


class Chat:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._allowance: dict[tuple[str, int], tuple[float, float]] = {}

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
        self._spend(table.id, seat, now)
        name = table.names()[seat]
        stored = await self.accounts.call(
            self.accounts.store.add_chat, table.id, seat, name, line, now
        )
        actor.audience.tell(chat_frame(stored.id, seat, name, line, now))
        return _line(stored.id, seat, name, line, now)

    async def lines(self, table_id: str) -> list[dict[str, Any]]:
        rows = await self.accounts.call(self.accounts.store.chat, table_id)
        return [_line(r.id, r.seat, r.name, r.text, r.at) for r in rows]


def _line(line_id: int, seat: int, name: str, text: str, at: float) -> dict[str, Any]:
    return {"id": line_id, "seat": seat, "name": name, "text": text, "at_ms": int(at * 1000)}
