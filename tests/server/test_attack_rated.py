"""Attacks on rated play at the table, against a real ``kingsbreakfast serve`` on loopback:
leaving a losing rated game, asking the learned bot for advice at a rated table (and
hammering the hint elsewhere), a guest sitting under an account's name (at a table or
through play now), and look-alike names at one table."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingsbreakfast.server.hint_gate import HINT_BURST
from kingsbreakfast.server.rating_rules import ABORT_MOVES
from server.kb_attack import Sock, move_once
from server.kb_browser import Browser
from server.kb_live import LiveServer

TABLE = {"name": "x", "seats": 3, "bot_level": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("attack-rated")
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, zombie_grace=600.0,
        log_path=folder / "server.log", extra=("--tables-per-minute", "600"),
    ).start()
    yield live
    live.stop()


def rated_table(server: LiveServer, address: str, names: tuple[str, str]) -> tuple[
    Browser, Browser, str, list[str]
]:
    """Two fresh accounts at a started 3-seat table (a bot in the third seat)."""
    first, second = Browser(server, address), Browser(server, address)
    assert first.register(names[0])[0] == 201 and second.register(names[1])[0] == 201
    status, grant = first.call("POST", "/api/tables", TABLE)
    assert status == 201, grant
    table_id = grant["table"]["id"]
    status, joined = second.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
    assert status == 201, joined
    assert first.call("POST", f"/api/tables/{table_id}/start")[0] == 200
    return first, second, table_id, [grant["token"], joined["token"]]


async def play_out(server: LiveServer, table_id: str, token: str) -> int:
    """Play one seat's legal moves until the game ends; the last version."""
    sock = await Sock.open(server, table_id, token)
    rng = random.Random(11)
    try:
        while True:
            version = await move_once(sock, rng)
            states = [f for f in sock.frames if f["type"] == "state"]
            if states[-1]["view"]["to_move"] is None:
                return version
    finally:
        await sock.close()


def test_leaving_a_rated_game_is_a_loss_for_the_leaver(server: LiveServer) -> None:
    leaver, _stayer, table_id, tokens = rated_table(server, "127.0.7.1", ("Quitter", "Stayer"))

    async def quit_after_first_moves() -> None:
        """A real game first (leaving before ABORT_MOVES own moves aborts it), then out."""
        sock = await Sock.open(server, table_id, tokens[0])
        rng = random.Random(5)
        for _ in range(ABORT_MOVES):
            await move_once(sock, rng)
        await sock.close()
        left = await asyncio.to_thread(leaver.call, "POST", f"/api/tables/{table_id}/leave")
        assert left[0] == 204

    async def main() -> None:
        await asyncio.gather(quit_after_first_moves(), play_out(server, table_id, tokens[1]))

    asyncio.run(main())
    gone = Browser(server).call("GET", "/api/players/Quitter")[1]
    stayed = Browser(server).call("GET", "/api/players/Stayer")[1]
    assert gone["rated_games"] == stayed["rated_games"] == 1  # not dodged: rated for both
    assert gone["wins"] == 0 and gone["history"][0]["place"] == 3
    assert gone["mu"] < 25.0 < stayed["mu"]


def test_no_hints_at_a_rated_table(server: LiveServer) -> None:
    first, second, table_id, tokens = rated_table(server, "127.0.7.2", ("Asker", "Other"))
    answers = [
        browser.call("POST", f"/api/tables/{table_id}/hint", None, {"x-seat-token": token})
        for _ in range(17) for browser, token in ((first, tokens[0]), (second, tokens[1]))
    ]
    assert {(status, body["error"]["code"]) for status, body in answers} == {
        (409, "no_hints_rated")
    }


def test_hints_elsewhere_are_paced_per_seat(server: LiveServer) -> None:
    guest = Browser(server, "127.0.7.3")
    status, grant = guest.call("POST", "/api/tables", {**TABLE, "name": "Gus"})
    assert status == 201
    table_id, token = grant["table"]["id"], grant["token"]
    assert guest.call("POST", f"/api/tables/{table_id}/start", None,
                      {"x-seat-token": token})[0] == 200

    async def my_turn() -> None:  # the bots are quick: wait for the guest's own turn
        sock = await Sock.open(server, table_id, token)
        try:
            frame = await sock.recv("state")
            while frame["view"]["to_move"] != 0:
                frame = await sock.recv("state")
        finally:
            await sock.close()

    asyncio.run(my_turn())
    started = time.monotonic()
    codes = [
        guest.call("POST", f"/api/tables/{table_id}/hint", None, {"x-seat-token": token})[0]
        for _ in range(40)
    ]
    assert codes[:HINT_BURST] == [200] * HINT_BURST
    assert codes.count(200) <= HINT_BURST + 1 + int(time.monotonic() - started) // 5
    assert set(codes[HINT_BURST + 1:]) <= {200, 429}


def test_a_guest_cannot_sit_under_an_account_s_name_through_play_now(
    server: LiveServer,
) -> None:
    """Play now seats a guest at strangers' tables: it refuses an account's name, and any
    name that reads like it, as creating and joining a table do (``account_name``)."""
    assert Browser(server, "127.0.7.8").register("Wren")[0] == 201
    guest = Browser(server, "127.0.7.9")
    for impostor in ("Wren", "wren", "WREN", "Wr\u0435n"):  # the last with a Cyrillic e
        status, body = guest.call(
            "POST", "/api/play-now", {"name": impostor, "seats": 3, "speed": "turn"})
        assert (status, body["error"]["code"]) == (409, "account_name"), impostor
    status, body = guest.call(
        "POST", "/api/play-now", {"name": "Wynn", "seats": 3, "speed": "turn"})
    assert status == 201, body


def test_a_guest_cannot_take_an_account_name_nor_look_alikes_share_a_table(
    server: LiveServer,
) -> None:
    assert Browser(server, "127.0.7.4").register("Zed")[0] == 201
    guest = Browser(server, "127.0.7.5")
    for impostor in ("Zed", "zed", "ZED", "Z\u0435d"):  # the last with a Cyrillic e
        status, body = guest.call("POST", "/api/tables", {**TABLE, "name": impostor})
        assert (status, body["error"]["code"]) == (409, "account_name"), impostor
    status, grant = guest.call("POST", "/api/tables", {**TABLE, "name": "Yan"})
    assert status == 201
    table_id = grant["table"]["id"]
    for look_alike in ("yan", "YAN", "Y\u0430n"):
        status, body = Browser(server, "127.0.7.6").call(
            "POST", f"/api/tables/{table_id}/join", {"name": look_alike}
        )
        assert (status, body["error"]["code"]) == (409, "seat_name_taken"), look_alike
    status, body = Browser(server, "127.0.7.6").call(
        "POST", f"/api/tables/{table_id}/join", {"name": "Zed"}
    )
    assert (status, body["error"]["code"]) == (409, "account_name")
    assert Browser(server, "127.0.7.6").call(
        "POST", f"/api/tables/{table_id}/join", {"name": "Yanna"}
    )[0] == 201


def test_a_seated_player_gets_back_in_when_the_address_is_full(tmp_path: Path) -> None:
    """After a failover every player behind one NAT address reconnects at once: the
    address's cap turns spectators away, never a socket that shows a seat's token."""
    live = LiveServer(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=3600.0,
                      log_path=tmp_path / "server.log",
                      extra=("--sockets-per-address", "3")).start()

    async def main() -> None:
        status, grant = live.request("POST", "/api/tables", {**TABLE, "name": "Ann"})
        assert status == 201
        table_id, token = grant["table"]["id"], grant["token"]
        crowd = [await Sock.open(live, table_id) for _ in range(3)]  # the address is full
        for sock in crowd:
            await sock.recv("state")
        spectator = await Sock.open(live, table_id)
        code, frames = await spectator.closed()
        assert code == 4029 and [f["code"] for f in frames if f["type"] == "error"] == [
            "too_many_sockets"
        ]
        player = await Sock.open(live, table_id, token)  # the seat's holder: let in
        assert (await player.recv("state"))["you"] == 0
        for sock in [*crowd, player]:
            await sock.close()

    try:
        asyncio.run(main())
    finally:
        live.stop()
