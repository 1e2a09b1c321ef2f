"""Tools of the attack suite: raw sockets against a real ``kingsbreakfast serve`` process on
loopback, counting every byte both ways, and the two checks every attack ends with: nothing
leaked (no frame shows a hand, a deck or a token its socket may not see) and nothing lost
(the table still takes a move and its version counts every acknowledged one).
"""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import suppress
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kingsbreakfast.engine import Action
from server.kb_live import LiveServer

TIMEOUT = 20.0
"""No single wait of the suite is longer: a hang fails, it never stalls CI."""


class Sock:
    """One play socket that keeps every frame it was sent and counts bytes both ways."""

    def __init__(self, ws: ClientConnection, seat_token: str | None) -> None:
        self.ws = ws
        self.token = seat_token
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        """The newest state frame, not yet acted on by :func:`move_once`."""
        self.bytes_in = 0
        self.bytes_out = 0

    @classmethod
    async def open(
        cls, server: LiveServer, table_id: str, token: str | None = None, hello: bool = True
    ) -> Sock:
        ws = await connect(
            f"{server.ws_base}/ws/tables/{table_id}", open_timeout=TIMEOUT, max_size=2**22,
            ping_interval=None,
        )
        sock = cls(ws, token)
        if hello:
            with suppress(ConnectionClosed):  # turned away at once: closed() tells how
                await sock.send({"type": "hello", "token": token})
        return sock

    async def send(self, frame: Any) -> None:
        text = frame if isinstance(frame, str) else json.dumps(frame, separators=(",", ":"))
        self.bytes_out += len(text.encode())
        await self.ws.send(text)

    async def recv(self, kind: str | None = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame (of ``kind``, if given; others are kept on the way)."""
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.ws.recv()
                assert isinstance(raw, str)
                self.bytes_in += len(raw.encode())
                frame: dict[str, Any] = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "state":
                    self.last = frame
                if kind is None or frame["type"] == kind:
                    return frame

    async def state_at(self, version: int) -> dict[str, Any]:
        while True:
            frame = await self.recv("state")
            if frame["version"] >= version:
                return frame

    async def closed(self, timeout: float = TIMEOUT) -> tuple[int | None, list[dict[str, Any]]]:
        """Read to the end: the close code and the frames that came before it."""
        got: list[dict[str, Any]] = []
        try:
            async with asyncio.timeout(timeout):
                async for raw in self.ws:
                    assert isinstance(raw, str)
                    self.bytes_in += len(raw.encode())
                    frame = json.loads(raw)
                    self.frames.append(frame)
                    got.append(frame)
        except ConnectionClosed:
            pass
        rcvd = self.ws.protocol.close_rcvd
        return (rcvd.code if rcvd is not None else None), got

    async def close(self) -> None:
        await self.ws.close()


def seated_game(
    server: LiveServer, humans: int = 2, seats: int = 4, bot_level: str = "random"
) -> tuple[str, list[str]]:
    """A table with ``humans`` people (seat 0 hosts), started: bots hold the other seats."""
    status, grant = server.request(
        "POST", "/api/tables", {"name": "Ann", "seats": seats, "bot_level": bot_level}
    )
    assert status == 201, grant
    table_id, tokens = grant["table"]["id"], [grant["token"]]
    for number in range(1, humans):
        status, joined = server.request(
            "POST", f"/api/tables/{table_id}/join", {"name": f"Player {number}"}
        )
        assert status == 201, joined
        tokens.append(joined["token"])
    status, _ = server.request("POST", f"/api/tables/{table_id}/start", token=tokens[0])
    assert status == 200
    return table_id, tokens


def leaks(frames: list[dict[str, Any]], seat: int | None, secrets: list[str]) -> list[str]:
    """What a socket holding ``seat`` was shown that it may not see (empty: nothing)."""
    found: list[str] = []
    for frame in frames:
        text = json.dumps(frame)
        found += [f"a token in a {frame['type']} frame" for s in secrets if s in text]
        for word in ("initial_deck", "remaining_deck", "token_hash"):
            if word in text:
                found.append(f"{word} in a {frame['type']} frame")
        view = frame.get("view") if frame["type"] == "state" else None
        if view is None:
            continue
        if not isinstance(view["deck"], int):
            found.append("the deck's cards")
        for number, hand in enumerate(view["hands"]):
            over = view["to_move"] is None
            if number != seat and "draws" in hand and not over:
                found.append(f"seat {number}'s drawn cards shown to seat {seat}")
        if frame["you"] != seat:
            found.append(f"a frame for seat {frame['you']} on a socket of seat {seat}")
    return found


async def move_once(sock: Sock, rng: random.Random) -> int:
    """Wait for this seat's turn, play a legal move and see it acknowledged; the version
    after it (so a caller can check the table lost nothing)."""
    while True:
        frame = sock.last if sock.last is not None else await sock.recv("state")
        sock.last = None
        view = frame["view"]
        if view["to_move"] is None:
            return int(frame["version"])
        if view["to_move"] == frame["you"]:
            action = Action.parse(rng.choice(view["legal"]))
            await sock.send({"type": "act", "version": frame["version"],
                             "action": action.to_record()})
            after = await sock.state_at(frame["version"] + 1)
            return int(after["version"])
