"""Attacks on the play socket, against a real ``kingsbreakfast serve`` on loopback: forged and
borrowed tokens, moves out of turn and on stale or repeated versions, malformed, binary,
oversized and deeply nested frames, a flood of 300 frames a second, and a socket spamming
refused moves. Each is bounded in count and time, each checks the exact answer, and each ends
with nothing leaked and nothing lost."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from kingsbreakfast.engine import Action
from server.kb_attack import Sock, leaks, move_once, seated_game
from server.kb_live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("attack-frames")
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, zombie_grace=0.2,
        log_path=folder / "server.log",
        extra=("--sockets-per-address", "200", "--tables-per-minute", "600"),
    ).start()
    yield live
    live.stop()


def error(sock_frames: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(f["code"], f["params"]) for f in sock_frames if f["type"] == "error"]


def test_forged_and_borrowed_tokens_are_refused(server: LiveServer) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server)
        _other, other_tokens = seated_game(server)
        for token in ("x" * 32, other_tokens[0], tokens[0] + "A"):
            sock = await Sock.open(server, table_id, token)
            code, frames = await sock.closed()
            assert code == 4003
            assert error(frames) == [("bad_token", {})]
        too_long = await Sock.open(server, table_id, "t" * 65)
        code, frames = await too_long.closed()
        assert (code, error(frames)) == (1008, [("bad_token_field", {})])
        # the real holder still plays: nothing changed
        ann = await Sock.open(server, table_id, tokens[0])
        version = await move_once(ann, random.Random(1))
        assert version >= 1 and leaks(ann.frames, 0, tokens[1:] + other_tokens) == []
        await ann.close()

    asyncio.run(main())


def test_out_of_turn_stale_and_repeated_moves(server: LiveServer) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server, humans=2, seats=3)
        ann = await Sock.open(server, table_id, tokens[0])
        bob = await Sock.open(server, table_id, tokens[1])
        rng = random.Random(2)
        frame = await bob.recv("state")
        while frame["view"]["to_move"] != 0:  # the table waits on a person's turn
            if frame["view"]["to_move"] == 1:
                await bob.send(_act(frame, rng))
            frame = await bob.recv("state")
        version = frame["version"]
        await bob.send({"type": "act", "version": version, "action": {"type": "draw"}})
        refusal = await bob.recv("error")
        assert (refusal["code"], refusal["params"], refusal["version"]) == (
            "not_your_turn", {"to_move": 0}, version
        )
        # the same refusal again (a version bob does not hold changes nothing: his socket
        # holds the current state): counted toward his strikes, not told twice
        await bob.send({"type": "act", "version": version + 7, "action": {"type": "draw"}})
        await bob.send({"type": "ping"})
        assert await bob.recv("pong") == {"type": "pong"}
        assert [f["code"] for f in bob.frames if f["type"] == "error"] == ["not_your_turn"]
        states = [f["version"] for f in bob.frames if f["type"] == "state"]
        assert len(states) == len(set(states))  # no version sent to him twice
        # the same move sent twice on one version applies once
        mine = ann.last
        while mine is None or mine["version"] != version:
            mine = await ann.recv("state")
        act = _act(mine, rng)
        await ann.send(act)
        await ann.send(act)
        after = await ann.state_at(version + 1)
        assert after["view"]["history"][version]["seat"] == 0
        second = await ann.recv("error")
        assert second["code"] in ("not_your_turn", "stale_version") or second["code"].startswith(
            ("dragon", "dish", "deck", "pass", "no_", "too_", "empty", "king")
        )
        assert leaks(ann.frames, 0, [tokens[1]]) == []
        assert leaks(bob.frames, 1, [tokens[0]]) == []
        await ann.close()
        await bob.close()

    asyncio.run(main())


def _act(frame: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    action = Action.parse(rng.choice(frame["view"]["legal"]))
    return {"type": "act", "version": frame["version"], "action": action.to_record()}


MALFORMED = {
    "not json": ("{", "bad_json"),
    "not an object": ("[1]", "not_object"),
    "unknown type": ('{"type":"eat"}', "unknown_type"),
    "unknown field": ('{"type":"ping","x":1}', "unknown_field"),
    "deeply nested": ("[" * 1000 + "]" * 1000, "bad_json"),
    "huge number": ('{"type":"act","version":1' + "0" * 400 + ',"action":{"type":"draw"}}',
                    "bad_version_field"),
    "version as text": ('{"type":"act","version":"1","action":{"type":"draw"}}',
                        "bad_version_field"),
}


def test_malformed_frames_get_their_codes_then_a_close(server: LiveServer) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server)
        for text, code in MALFORMED.values():
            once = await Sock.open(server, table_id, tokens[1])
            await once.recv("state")
            await once.send(text)
            assert (await once.recv("error"))["code"] == code
            await once.send(text)  # the same fault again: counted, not told twice
            await once.send({"type": "ping"})
            assert (await once.recv())["type"] in ("pong", "presence", "state")
            assert [f["code"] for f in once.frames if f["type"] == "error"] == [code]
            await once.close()
        sock = await Sock.open(server, table_id, tokens[1])
        await sock.recv("state")
        # oversized: 2,048 bytes of UTF-8 is the limit, counted in bytes (é is two)
        await sock.send('{"type":"ping","pad":"' + "é" * 1100 + '"}')
        code, frames = await sock.closed()
        assert code == 1009 and [f["code"] for f in frames if f["type"] == "error"] == [
            "frame_too_big"
        ]
        binary = await Sock.open(server, table_id, tokens[1])
        await binary.recv("state")
        await binary.ws.send(b"\x00\x01")
        code, frames = await binary.closed()
        assert code == 1003 and error(frames) == [("binary_frame", {})]
        ann = await Sock.open(server, table_id, tokens[0])
        assert await move_once(ann, random.Random(3)) >= 1
        assert leaks(sock.frames + binary.frames, 1, [tokens[0]]) == []
        await ann.close()

    asyncio.run(main())


def test_a_flood_of_300_frames_a_second_is_limited_then_closed(server: LiveServer) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server)
        other_id, other_tokens = seated_game(server)
        flood = await Sock.open(server, table_id, tokens[1])
        await flood.recv("state")
        for _ in range(300):  # all at once: far past 10 a second with bursts of 30
            await flood.send({"type": "ping"})
        code, frames = await flood.closed()
        kinds = [f.get("code", f["type"]) for f in frames]
        assert code == 1008
        assert kinds.count("pong") <= 31 and "rate_limited" in kinds
        assert len(frames) <= 60  # the socket was closed long before its 300 frames
        # another table played on all along
        ann = await Sock.open(server, other_id, other_tokens[0])
        assert await move_once(ann, random.Random(4)) >= 1
        await ann.close()

    asyncio.run(main())


def test_refused_moves_cost_at_most_twice_their_size_and_are_counted(
    server: LiveServer,
) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server, humans=2, seats=3)
        ann = await Sock.open(server, table_id, tokens[0])
        frame = await ann.recv("state")
        while frame["view"]["to_move"] != 0:  # then the table waits for Ann, who is here
            frame = await ann.recv("state")
        spam = await Sock.open(server, table_id, tokens[1])
        greeting = await spam.recv("state")
        spent_before, got_before = spam.bytes_out, spam.bytes_in
        version = greeting["version"]
        # refused moves at a pace under the rate limit: only the strike limit stops them
        for _ in range(40):
            await spam.send({"type": "act", "version": version,
                             "action": {"type": "take", "dish": "wine"}})
            await asyncio.sleep(0.02)  # pacing the attacker, not synchronising the test
            if spam.ws.protocol.close_rcvd is not None:
                break
        code, _ = await spam.closed()
        assert code == 1008  # the refusals counted toward the strike limit
        refusals = [f for f in spam.frames if f["type"] == "error"]
        ratio = (spam.bytes_in - got_before) / (spam.bytes_out - spent_before)
        assert ratio <= 2.0, ratio
        # told once, then only counted: the strike limit closed the socket
        assert [(f["code"], f["params"]) for f in refusals] == [("not_your_turn", {"to_move": 0})]
        assert spam.bytes_out - spent_before >= 20 * 60
        assert leaks(spam.frames, 1, [tokens[0]]) == []
        ann.last = frame
        assert await move_once(ann, random.Random(5)) == frame["version"] + 1
        await ann.close()

    asyncio.run(main())


EVERY_KIND = {
    "ping": {"type": "ping"},
    "sync": {"type": "sync"},
    "hello again": {"type": "hello", "token": None},
    "seat_answer by a non-host": {"type": "seat_answer", "seat": 2, "accept": True},
    "move out of turn": {"type": "act", "version": 0, "action": {"type": "draw"}},
}


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_no_frame_kind_repeated_is_answered_with_more_bytes_than_it_holds(
    server: LiveServer, kind: str,
) -> None:
    async def main() -> None:
        table_id, tokens = seated_game(server, humans=2, seats=3)
        ann = await Sock.open(server, table_id, tokens[0])  # the host, who is to move...
        frame = await ann.recv("state")
        while frame["view"]["to_move"] != 0:  # ...and the table waits on her
            frame = await ann.recv("state")
        sock = await Sock.open(server, table_id, tokens[1])
        await sock.state_at(frame["version"])
        # the presence update of this socket's arrival goes first, and then nothing more
        # comes until someone acts: the table waits on Ann
        while not (await sock.recv("presence"))["seats"][1]["connected"]:
            pass
        spent, got = sock.bytes_out, sock.bytes_in
        message = dict(EVERY_KIND[kind])
        if message["type"] == "act":
            message["version"] = frame["version"]
        with suppress(ConnectionClosed):  # repeats count as strikes: it may be closed
            for _ in range(25):  # under the rate limit: only the answers' size counts
                await sock.send(message)
                await asyncio.sleep(0.11)  # pacing the attacker, not synchronising the test
        # every answer is in once the answer to one more ping is (a socket's frames are
        # answered in order); that ping and its pong are left out of the count
        sent, pong = sock.bytes_out, 0
        with suppress(ConnectionClosed):  # closed for its strikes: nothing more comes
            await sock.send({"type": "ping"})
            pongs = 26 if kind == "ping" else 1
            while pongs:
                before = sock.bytes_in
                if (await sock.recv())["type"] == "pong":
                    pongs -= 1
                    pong = sock.bytes_in - before
        ratio = (sock.bytes_in - pong - got) / (sent - spent)
        assert ratio <= 1.0, (kind, ratio)
        assert leaks(sock.frames, 1, [tokens[0]]) == []
        await sock.close()
        await ann.close()

    asyncio.run(main())
