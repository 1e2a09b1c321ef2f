"""A seat freed during play holds a hidden hand: it changes hands only by the host's consent.
Against a real ``kingsbreakfast serve``: Bob leaves; Ann (seated) cannot take his seat too;
a stranger's request is only a request (a spectator's view, a bot still playing the seat);
the host declines one and accepts the next; the game's history names every holder."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from server.kb_attack import Sock, leaks, move_once, seated_game
from server.kb_live import LiveServer


def join(server: LiveServer, table_id: str, name: str, token: str | None = None) -> tuple[
    int, dict[str, object]
]:
    return server.request("POST", f"/api/tables/{table_id}/join", {"name": name}, token=token)


def test_a_freed_seat_is_taken_only_with_the_hosts_consent(tmp_path: Path) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.02, zombie_grace=0.2,
        log_path=tmp_path / "server.log",
    ).start()

    async def main() -> None:
        table_id, (ann_token, bob_token) = seated_game(server, humans=2, seats=3)
        ann = await Sock.open(server, table_id, ann_token)
        rng = random.Random(8)
        await move_once(ann, rng)
        assert server.request("POST", f"/api/tables/{table_id}/leave", token=bob_token)[0] == 204

        # Ann already holds a seat here: she cannot take Bob's too
        status, body = join(server, table_id, "Ann 2", ann_token)
        assert (status, body["error"]["code"]) == (409, "already_seated")  # type: ignore[index]
        # a stranger may only ask; the token holds nothing yet
        status, cid = join(server, table_id, "Cid")
        assert status == 202 and cid["pending"] is True and cid["seat"] == 1
        status, dee = join(server, table_id, "Dee")
        assert (status, dee["error"]["code"]) == (409, "seat_requested")  # type: ignore[index]
        watcher = await Sock.open(server, table_id, str(cid["token"]))
        first = await watcher.recv("state")
        assert first["you"] is None and "draws" not in first["view"]["hands"][1]
        asked = await ann.recv("seat_request")
        assert (asked["seat"], asked["name"]) == (1, "Cid")
        # Bob's old token is dead
        old = await Sock.open(server, table_id, bob_token)
        assert (await old.closed())[0] == 4003

        await ann.send({"type": "seat_answer", "seat": 1, "accept": False})
        code, frames = await watcher.closed()
        assert code == 4002 and [f["code"] for f in frames if f["type"] == "error"] == [
            "seat_declined"
        ]
        again = await Sock.open(server, table_id, str(cid["token"]))
        assert (await again.closed())[0] == 4003

        # a bot plays the seat meanwhile: the game goes on past seat 1's turns
        left_at = first["version"]
        for _ in range(40):
            await move_once(ann, rng)
            latest = ann.last
            assert latest is not None
            if latest["view"]["to_move"] is None or any(
                turn["seat"] == 1 for turn in latest["view"]["history"][left_at:]
            ):
                break
        assert any(turn["seat"] == 1 for turn in latest["view"]["history"][left_at:])

        status, eve = join(server, table_id, "Eve")
        assert status == 202
        newcomer = await Sock.open(server, table_id, str(eve["token"]))
        assert (await newcomer.recv("state"))["you"] is None
        await ann.recv("seat_request")
        await ann.send({"type": "seat_answer", "seat": 1, "accept": True})
        mine = await newcomer.recv("state")
        while mine["you"] != 1:
            mine = await newcomer.recv("state")
        assert "draws" in mine["view"]["hands"][1] and mine["table"]["seats"][1]["name"] == "Eve"
        # Eve is no host: she cannot answer for the table
        await newcomer.send({"type": "seat_answer", "seat": 2, "accept": True})
        assert (await newcomer.recv("error"))["code"] == "not_host"
        assert leaks(newcomer.frames[:1], None, [ann_token]) == []
        assert leaks([f for f in newcomer.frames if f.get("you") == 1], 1, [ann_token]) == []
        assert leaks(ann.frames, 0, [bob_token, str(eve["token"])]) == []

        holders = server.get(f"/api/tables/{table_id}/holders")
        seat_one = [(h["kind"], h["name"]) for h in holders if h["seat"] == 1]
        assert seat_one == [("human", "Player 1"), ("bot", ""), ("human", "Eve")]
        since = [h["since"] for h in holders if h["seat"] == 1]
        assert since == sorted(since) and since[0] == 0
        await ann.close()
        await newcomer.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()
