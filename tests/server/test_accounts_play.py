"""Accounts at the table: seats held by accounts (back from any device) and by guest
cookies, "my games", results and ratings after a rated game, the leaderboard and the
profile, chat, and rematch."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingsbreakfast.server.account_store import Result
from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.chat import BURST, MAX_CHARS
from kingsbreakfast.server.rating_rules import ABORT_MOVES, ESTABLISHED_GAMES
from kingsbreakfast.server.store import SeatRecord
from server.kb_accounts import Player

TABLE = {"name": "ignored", "seats": 3, "bot_level": "random"}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # away players are played by bots at once, so a game with nobody connected runs out
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=0.0)) as test_client:
        yield test_client


def hello(player: Player, table_id: str, **fields: Any) -> Any:
    """Open the table's socket as ``player``'s browser; the first state frame."""
    ws = player.websocket(f"/ws/tables/{table_id}")
    socket = ws.__enter__()
    socket.send_json({"type": "hello", "token": None, **fields})
    return ws, socket, socket.receive_json()


def watch_to_the_end(player: Player, table_id: str) -> dict[str, Any]:
    ws, socket, frame = hello(player, table_id)
    try:
        for _ in range(2000):
            if frame["type"] == "state" and frame["score"] is not None:
                return frame
            frame = socket.receive_json()
        raise AssertionError("the game did not end")
    finally:
        ws.__exit__(None, None, None)


def play_to_the_end(player: Player, table_id: str, seat: int) -> dict[str, Any]:
    """``player`` holds ``seat`` through the game, playing the first legal move each turn."""
    ws, socket, frame = hello(player, table_id, cookie=True)
    try:
        for _ in range(4000):
            if frame["type"] == "state":
                if frame["score"] is not None:
                    return frame
                if frame["view"]["to_move"] == seat:
                    words = frame["view"]["legal"][0].split()
                    action: dict[str, Any] = {"type": words[0]}
                    if words[0] == "take":
                        action["dish"] = words[1]
                    elif words[0] == "feed":
                        action["dishes"] = words[1:]
                    socket.send_json({"type": "act", "version": frame["version"],
                                      "action": action})
            frame = socket.receive_json()
        raise AssertionError("the game did not end")
    finally:
        ws.__exit__(None, None, None)


def act(socket: Any, frame: dict[str, Any]) -> None:
    """Play the first legal move of the frame's view."""
    words = frame["view"]["legal"][0].split()
    action: dict[str, Any] = {"type": words[0]}
    if words[0] == "take":
        action["dish"] = words[1]
    elif words[0] == "feed":
        action["dishes"] = words[1:]
    socket.send_json({"type": "act", "version": frame["version"], "action": action})


def play_together(
    players: list[Player], table_id: str, host: Player, leave_after: int | None = None
) -> None:
    """Every player at their seat's socket from before the deal to the end (nobody is away,
    so no bot plays for them and the game is a real one), each playing its first legal move
    in turn; with ``leave_after``, the first player leaves the game after that many of
    its own moves (a bot plays its seat on)."""
    opened = [hello(player, table_id, cookie=True) for player in players]
    sockets = [socket for _, socket, _ in opened]

    def state(number: int, after: int) -> dict[str, Any]:
        """The socket's next state frame of a version past ``after`` (or the last)."""
        while True:
            frame = sockets[number].receive_json()
            if frame["type"] == "state" and frame["view"] is not None and (
                frame["version"] > after or frame["score"] is not None
            ):
                return frame

    try:
        assert host.post(f"/api/tables/{table_id}/start").status_code == 200
        frame = state(len(sockets) - 1, -1)  # the last player's socket watches the game
        seats = {number: hi["you"] for number, (_, _, hi) in enumerate(opened)}
        assert None not in seats.values()
        moves = 0
        while frame["score"] is None:
            to_move = frame["view"]["to_move"]
            mover = next((n for n, seat in seats.items() if seat == to_move), None)
            if mover is not None:
                mine = frame if mover == len(sockets) - 1 else state(mover, frame["version"] - 1)
                act(sockets[mover], mine)
                if mover == 0 and leave_after is not None:
                    moves += 1
                    if moves == leave_after:
                        assert players[0].post(f"/api/tables/{table_id}/leave").status_code == 204
                        seats[0] = -1
            frame = state(len(sockets) - 1, frame["version"])
    finally:
        for ws, _, _ in opened:
            ws.__exit__(None, None, None)


def rated_game(client: TestClient) -> tuple[Player, Player, str]:
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "x"}).json()["seat"] == 1
    play_together([ann, bob], table_id, ann)
    site = client.app.state.site  # type: ignore[attr-defined]
    client.portal.call(site.ratings.settle, table_id)  # type: ignore[union-attr]
    return ann, bob, table_id


def test_an_accounts_seat_comes_back_on_any_device(client: TestClient) -> None:
    ann = Player(client)
    ann.register("Ann")
    grant = ann.post("/api/tables", json=TABLE).json()
    table_id = grant["table"]["id"]
    phone = Player(client)
    assert phone.login("Ann").status_code == 200
    again = phone.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()
    assert again["seat"] == 0 and again["token"] == grant["token"]  # the same seat, not a 2nd
    ws, _, frame = hello(phone, table_id, cookie=True)
    ws.__exit__(None, None, None)
    assert frame["you"] == 0
    stranger = Player(client)
    ws, _, frame = hello(stranger, table_id, cookie=True)
    ws.__exit__(None, None, None)
    assert frame["you"] is None  # no cookie, no seat: a spectator


def test_a_guest_seat_lives_in_an_http_only_cookie(client: TestClient) -> None:
    guest = Player(client)
    reply = guest.post("/api/tables", json={**TABLE, "name": "Gus"})
    table_id = reply.json()["table"]["id"]
    cookie = next(v for k, v in reply.headers.multi_items()
                  if k == "set-cookie" and v.startswith(f"kb_seat_{table_id}="))
    assert "HttpOnly" in cookie
    ws, _, frame = hello(guest, table_id, cookie=True)
    ws.__exit__(None, None, None)
    assert frame["you"] == 0
    ws, _, frame = hello(guest, table_id, cookie=False)
    ws.__exit__(None, None, None)
    assert frame["you"] is None  # a hello without the cookie flag still spectates
    # another site's page opening our socket in the guest's browser gets no seat
    client.cookies.clear()
    for name, value in guest.jar.items():
        client.cookies.set(name, value)
    with client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"origin": "https://evil.example"}
    ) as socket:
        socket.send_json({"type": "hello", "token": None, "cookie": True})
        assert socket.receive_json()["you"] is None
    client.cookies.clear()
    assert guest.get("/api/tables").status_code == 200
    started = guest.post(f"/api/tables/{table_id}/start")  # by cookie, with the CSRF proof
    assert started.status_code == 403  # the guest has no CSRF cookie yet
    guest.get("/api/account")
    assert guest.post(f"/api/tables/{table_id}/start").status_code == 200


def test_a_guest_seat_cookie_goes_only_to_its_own_table(client: TestClient) -> None:
    """The seat cookie is scoped to the table's calls and socket: a browser (here httpx's
    cookie jar, which keeps paths as a browser does) sends it nowhere else, so a guest's
    requests do not carry a cookie for every table ever played; leaving clears it."""
    client.cookies.clear()
    first = client.post("/api/tables", json={**TABLE, "name": "Gus"})
    second = client.post("/api/tables", json={**TABLE, "name": "Gus"})
    ids = [reply.json()["table"]["id"] for reply in (first, second)]
    seat_cookies = [v for k, v in first.headers.multi_items()
                    if k == "set-cookie" and v.startswith(f"kb_seat_{ids[0]}=")]
    paths = sorted(part.strip() for v in seat_cookies for part in v.split(";")
                   if part.strip().lower().startswith("path="))
    assert paths == [f"Path=/api/tables/{ids[0]}", f"Path=/ws/tables/{ids[0]}"]

    def sent(path: str) -> str:
        return client.get(path).request.headers.get("cookie", "")

    assert "kb_seat_" not in sent("/api/tables")
    assert f"kb_seat_{ids[0]}=" in sent(f"/api/tables/{ids[0]}")
    assert "kb_seat_" + ids[1] not in sent(f"/api/tables/{ids[0]}")
    client.get("/api/account")  # the CSRF cookie, for calls a cookie authenticates
    csrf = {"x-csrf-token": client.cookies["kb_csrf"]}
    assert client.post(f"/api/tables/{ids[1]}/start", headers=csrf).status_code == 200
    left = client.post(f"/api/tables/{ids[1]}/leave", headers=csrf)
    assert left.status_code == 204
    assert f"kb_seat_{ids[1]}=" not in sent(f"/api/tables/{ids[1]}")
    assert f"kb_seat_{ids[0]}=" in sent(f"/api/tables/{ids[0]}")
    client.cookies.clear()


def test_a_play_now_seat_cookie_also_finds_the_wait_and_expires_after_it(
    client: TestClient,
) -> None:
    from kingsbreakfast.server.matching import WAIT

    client.cookies.clear()
    client.get("/api/account")
    csrf = {"x-csrf-token": client.cookies["kb_csrf"]}
    wish = {"name": "Cy", "seats": 3, "speed": "turn"}
    first = client.post("/api/play-now", json=wish, headers=csrf)
    assert first.status_code == 201
    table_id = first.json()["table"]
    cookies = [v for k, v in first.headers.multi_items()
               if k == "set-cookie" and v.startswith(f"kb_seat_{table_id}=")]
    waiting = [v for v in cookies if "Path=/api/play-now;" in v + ";"]
    assert len(cookies) == 3 and len(waiting) == 1
    assert f"Max-Age={int(WAIT) + 60}" in waiting[0]
    again = client.post("/api/play-now", json=wish, headers=csrf)
    assert (again.status_code, again.json()["table"], again.json()["seat"]) == (
        201, table_id, first.json()["seat"])  # the same seat, not a second one
    assert "kb_seat_" not in client.get("/api/tables").request.headers.get("cookie", "")
    client.cookies.clear()


def test_a_rated_game_moves_both_ratings_and_fills_the_profiles(client: TestClient) -> None:
    ann, bob, table_id = rated_game(client)
    profiles = {name: Player(client).get(f"/api/players/{name}").json() for name in ("Ann", "bob")}
    for profile in profiles.values():
        assert profile["games"] == 1 and profile["rated_games"] == 1
        assert profile["rating"] != 0.0 and len(profile["history"]) == 1
        assert profile["favourite_dish"] in (
            "bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"
        )
        assert profile["win_share"] in (0.0, 1.0)
    # only the two accounts' order counts (R12 places; a tie moves neither mean)
    ann_place, bob_place = (profiles[n]["history"][0]["place"] for n in ("Ann", "bob"))
    ann_mu, bob_mu = profiles["Ann"]["mu"], profiles["bob"]["mu"]
    if ann_place == bob_place:
        assert ann_mu == bob_mu
    else:
        better, worse = (ann_mu, bob_mu) if ann_place < bob_place else (bob_mu, ann_mu)
        assert better > 25.0 > worse
    assert ann.me()["rated_games"] == 1
    # new accounts are no established opponents to each other
    assert all(p["provisional"] and p["opponents"] == 0 for p in profiles.values())
    board = Player(client).get("/api/leaderboard").json()
    assert board["total"] == 0  # one game against one opponent: provisional, not listed
    assert Player(client).get("/api/leaderboard?page=0").status_code == 422
    svg = Player(client).get("/api/players/Ann/rating.svg?title=<script>x</script>")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "<polyline" in svg.text and "&lt;script&gt;" in svg.text and "<script>" not in svg.text
    assert Player(client).get("/api/players/Nobody").status_code == 404
    site = client.app.state.site  # type: ignore[attr-defined]
    assert client.portal.call(site.ratings.settle, table_id) is False  # once only
    assert bob.get("/api/players/Bob").json()["rated_games"] == 1


@pytest.mark.timeout(120, method="thread")
def test_an_account_that_left_ranks_last_and_loses(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=600.0)) as client:
        _left_and_stayed(client)


def _left_and_stayed(client: TestClient) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", json={"name": "x"})
    # Ann plays her first moves, then leaves (a bot's seat now); Bob stays to the end
    play_together([ann, bob], table_id, ann, leave_after=ABORT_MOVES)
    client.portal.call(site.ratings.settle, table_id)  # type: ignore[union-attr]
    left = Player(client).get("/api/players/Ann").json()
    stayed = Player(client).get("/api/players/Bob").json()
    assert left["rated_games"] == stayed["rated_games"] == 1
    assert left["history"][0]["place"] == 3 and left["wins"] == 0  # last of three seats
    assert left["mu"] < 25.0 < stayed["mu"]  # whatever her seat's bot made of the game
    # the seat she left keeps her name ("Bot (was Ann)" on the page) everywhere, and her
    # profile counts none of the bot's points or dishes as hers
    assert left["games"] == 1 and left["average_points"] is None
    assert left["favourite_dish"] is None
    assert stayed["average_points"] is not None
    (game,) = bob.get("/api/me/games").json()["finished"]
    assert game["seats"][0] == {"kind": "open", "name": "Ann", "level": "random"}


@pytest.mark.timeout(120, method="thread")
def test_leaving_before_a_few_moves_aborts_the_game_for_everyone(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.0, zombie_grace=600.0)) as client:
        site = client.app.state.site  # type: ignore[attr-defined]
        ann, bob = Player(client), Player(client)
        ann.register("Ann")
        bob.register("Bob")
        table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
        bob.post(f"/api/tables/{table_id}/join", json={"name": "x"})
        play_together([ann, bob], table_id, ann, leave_after=ABORT_MOVES - 1)
        client.portal.call(site.ratings.settle, table_id)  # type: ignore[union-attr]
        for name in ("Ann", "Bob"):
            profile = Player(client).get(f"/api/players/{name}").json()
            assert profile["games"] == 1 and profile["rated_games"] == 0, name
            assert profile["mu"] == 25.0 and profile["history"] == []


def test_the_leaderboard_lists_established_ratings_only_best_first(client: TestClient) -> None:
    site = client.app.state.site  # type: ignore[attr-defined]
    store, games = site.accounts.store, site.master.storage
    ids = [store.create_account(f"p{n}", f"p{n}", f"p{n}", "x").id for n in range(8)]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for number in range(ESTABLISHED_GAMES):  # p0 and p1 meet each other and six more
        game_id = f"g{number}"
        games.create_game(game_id, num_seats=3, rules={}, bot_level="random",
                          clock_seconds=None, public=True,
                          seats=[SeatRecord(n, "bot", "", None) for n in range(3)])
        seated = [ids[0], ids[1], ids[2 + number % 6]]
        store.record_results([
            Result(game_id, account, seat, 3, seat + 1, seat == 0, 10, None, True,
                   30.0 - seat - number / 100, 4.0, start + timedelta(hours=number),
                   established=True)
            for seat, account in enumerate(seated)
        ])
    board = Player(client).get("/api/leaderboard?size=1").json()
    assert board["total"] == 2 and board["rows"][0]["name"] == "p0"  # p2…p7: 1 or 2 games
    second = Player(client).get("/api/leaderboard?page=2&size=1").json()["rows"]
    assert [row["name"] for row in second] == ["p1"]
    assert board["rows"][0]["rating"] > second[0]["rating"]
    assert Player(client).get("/api/players/p0").json()["provisional"] is False
    shown = Player(client).get("/api/players/p7").json()
    assert shown["provisional"] is True and shown["opponents"] == 2


def test_a_game_with_one_account_counts_but_is_not_rated(client: TestClient) -> None:
    ann = Player(client)
    ann.register("Ann")
    table_id = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    Player(client).post(f"/api/tables/{table_id}/join", json={"name": "Guest"})
    ann.post(f"/api/tables/{table_id}/start")
    watch_to_the_end(ann, table_id)
    site = client.app.state.site  # type: ignore[attr-defined]
    client.portal.call(site.ratings.settle, table_id)
    profile = ann.get("/api/players/Ann").json()
    assert profile["games"] == 1 and profile["rated_games"] == 0 and profile["history"] == []
    assert Player(client).get("/api/leaderboard").json()["total"] == 0


def test_my_games_lists_running_tables_your_move_first_then_finished_ones(
    client: TestClient,
) -> None:
    ann, _bob, finished = rated_game(client)
    waiting = ann.post("/api/tables", json=TABLE).json()["table"]["id"]
    mine = ann.get("/api/me/games").json()
    assert [g["id"] for g in mine["running"]] == [waiting]
    assert mine["running"][0]["seats"][0] == {"kind": "human", "name": "Ann", "level": "random"}
    (done,) = mine["finished"]
    assert done["id"] == finished and done["replay"] == f"/replay/{finished}"
    record = ann.get(done["record"])
    assert record.status_code == 200 and record.json()["format"] == "kingsbreakfast/1"
    assert Player(client).get("/api/me/games").status_code == 401


def test_the_badge_counts_the_games_awaiting_your_move(client: TestClient) -> None:
    """``/api/me/awaiting`` (the badge on every page): at a turn-based table of two accounts
    exactly the account to move is awaited, the count follows each move, and a guest has
    no badge."""
    ann, bob = Player(client), Player(client)
    ann.register("Ann")
    bob.register("Bob")
    table_id = ann.post("/api/tables", json={**TABLE, "clock_seconds": 86400}).json()[
        "table"]["id"]
    assert bob.post(f"/api/tables/{table_id}/join", json={"name": "x"}).json()["seat"] == 1
    sockets = [hello(player, table_id, cookie=True) for player in (ann, bob)]
    try:
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        seen = 0
        version = -1
        while seen < 4:  # four turns of the accounts, each checked from both sides
            frame = sockets[0][1].receive_json()
            if frame["type"] != "state" or frame["view"] is None or frame["version"] <= version:
                continue
            version = frame["version"]
            to_move = frame["view"]["to_move"]
            if to_move not in (0, 1):
                continue  # the bot's turn: it moves at once
            counts = [p.get("/api/me/awaiting").json() for p in (ann, bob)]
            assert [c["count"] for c in counts] == [int(to_move == 0), int(to_move == 1)]
            waiting = counts[to_move]["games"]
            assert [(g["id"], g["seat"]) for g in waiting] == [(table_id, to_move)]
            assert waiting[0]["deadline_ms"] is not None
            mover = sockets[to_move][1]
            mine = frame if to_move == 0 else _state_at(mover, version)
            act(mover, mine)
            seen += 1
    finally:
        for ws, _, _ in sockets:
            ws.__exit__(None, None, None)
    assert Player(client).get("/api/me/awaiting").status_code == 401


def _state_at(socket: Any, version: int) -> dict[str, Any]:
    """The socket's state frame of ``version`` (earlier ones skipped)."""
    while True:
        frame = socket.receive_json()
        if frame["type"] == "state" and frame["view"] is not None and (
                frame["version"] >= version):
            return dict(frame)


def test_chat_is_limited_sent_to_watchers_and_kept_out_of_the_game(client: TestClient) -> None:
    guest = Player(client)
    grant = guest.post("/api/tables", json={**TABLE, "name": "Gus"}).json()
    table_id, token = grant["table"]["id"], grant["token"]
    watcher = Player(client)
    ws, socket, _ = hello(watcher, table_id)
    try:
        said = guest.post(f"/api/tables/{table_id}/chat",
                          json={"text": "<img src=x onerror=alert(1)>\x07 hi"},
                          headers={"x-seat-token": token})
        assert said.status_code == 201
        frame = socket.receive_json()
        while frame["type"] != "chat":
            frame = socket.receive_json()
    finally:
        ws.__exit__(None, None, None)
    assert frame["text"] == "<img src=x onerror=alert(1)> hi" and frame["name"] == "Gus"
    state = watcher.get(f"/api/tables/{table_id}").json()
    assert "onerror" not in str(state)
    too_long = guest.post(f"/api/tables/{table_id}/chat", json={"text": "x" * (MAX_CHARS + 1)},
                          headers={"x-seat-token": token})
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "bad_chat"
    codes = [
        guest.post(f"/api/tables/{table_id}/chat", json={"text": f"line {i}"},
                   headers={"x-seat-token": token}).status_code
        for i in range(int(BURST) + 2)
    ]
    assert 429 in codes and codes[0] == 201
    spectator = watcher.post(f"/api/tables/{table_id}/chat", json={"text": "hello"})
    assert spectator.status_code == 403
    lines = watcher.get(f"/api/tables/{table_id}/chat").json()
    assert lines[0]["text"].startswith("<img") and len(lines) == codes.count(201) + 1


def test_a_rematch_seats_everyone_again_and_deals_when_all_said_yes(client: TestClient) -> None:
    ann, bob, old = rated_game(client)
    ws, socket, _ = hello(bob, old, cookie=True)
    try:
        first = ann.post(f"/api/tables/{old}/rematch")
        assert first.status_code == 200, first.text
        body = first.json()
        frame = socket.receive_json()
        while frame["type"] != "rematch":
            frame = socket.receive_json()
    finally:
        ws.__exit__(None, None, None)
    assert frame == {"type": "rematch", "table": body["table"], "votes": [0], "needed": [0, 1]}
    assert body["seat"] == 0 and body["started"] is False
    new = body["table"]
    table = Player(client).get(f"/api/tables/{new}").json()
    assert table["status"] == "lobby"
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bob", ""]
    again = ann.post(f"/api/tables/{old}/rematch").json()
    assert again["table"] == new and again["started"] is False  # one click counts once
    last = bob.post(f"/api/tables/{old}/rematch").json()
    assert last["table"] == new and last["seat"] == 1 and last["started"] is True
    assert Player(client).get(f"/api/tables/{new}").json()["status"] == "playing"
    assert new in [g["id"] for g in bob.get("/api/me/games").json()["running"]]
    outsider = Player(client).post(f"/api/tables/{old}/rematch", headers={"x-seat-token": "x"})
    assert outsider.status_code == 403


def test_a_guest_gets_a_rematch_seat_by_showing_the_old_token(client: TestClient) -> None:
    guest = Player(client)
    grant = guest.post("/api/tables", json={**TABLE, "name": "Gus"}).json()
    old, token = grant["table"]["id"], grant["token"]
    guest.post(f"/api/tables/{old}/start", headers={"x-seat-token": token})
    early = guest.post(f"/api/tables/{old}/rematch", headers={"x-seat-token": token})
    assert early.status_code == 409
    watch_to_the_end(guest, old)
    reply = guest.post(f"/api/tables/{old}/rematch", headers={"x-seat-token": token}).json()
    assert reply["started"] is True and reply["token"] != token
    ws, _, frame = hello(guest, reply["table"], token=reply["token"])
    ws.__exit__(None, None, None)
    assert frame["you"] == 0 and frame["table"]["status"] in ("playing", "over")
    ws, _, frame = hello(guest, reply["table"], cookie=True)  # the cookie holds it too
    ws.__exit__(None, None, None)
    assert frame["you"] == 0


def test_a_rematch_played_out_is_still_the_answer_to_a_late_click(client: TestClient) -> None:
    guest = Player(client)
    grant = guest.post("/api/tables", json={**TABLE, "name": "Gus"}).json()
    old, token = grant["table"]["id"], grant["token"]
    guest.post(f"/api/tables/{old}/start", headers={"x-seat-token": token})
    watch_to_the_end(guest, old)
    new = guest.post(f"/api/tables/{old}/rematch", headers={"x-seat-token": token}).json()
    watch_to_the_end(guest, new["table"])  # played out, and its last watcher gone
    late = guest.post(f"/api/tables/{old}/rematch", headers={"x-seat-token": token})
    assert late.status_code == 200 and late.json()["table"] == new["table"]


def test_the_archive_and_the_replay_name_bots_by_level_not_in_english(
    client: TestClient,
) -> None:
    _ann, _bob, table_id = rated_game(client)
    (game,) = [g for g in Player(client).get("/api/archive").json() if g["id"] == table_id]
    assert game["seats"] == [
        {"kind": "human", "name": "Ann", "level": "random"},
        {"kind": "human", "name": "Bob", "level": "random"},
        {"kind": "bot", "name": "", "level": "random"},
    ]
    step = Player(client).get(f"/games/{table_id}/replay/0").json()
    assert step["seats"] == game["seats"]
