"""The ASGI app: the lobby API and its schema, and bad input on the play socket."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.wire import (
    CLOSE_BAD_TOKEN,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    CLOSE_UNSUPPORTED,
    MAX_FRAME_BYTES,
)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as test_client:
        yield test_client


def new_table(client: TestClient, **fields: Any) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"name": "Ann", "bot_level": "random", **fields})
    assert reply.status_code == 201, reply.text
    return reply.json()


def closed_with(ws: Any) -> int:
    """Read until the server closes; the close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(200):
            ws.receive_text()
    return closed.value.code


def test_lobby_create_join_start_and_errors(client: TestClient) -> None:
    grant = new_table(client, seats=3)
    table_id, host = grant["table"]["id"], grant["token"]
    assert grant["invite"] == f"/t/{table_id}"
    assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
    bad = client.post(f"/api/tables/{table_id}/join", json={"name": "   "})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_name"
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != host
    refused = client.post(
        f"/api/tables/{table_id}/start", headers={"x-seat-token": joined["token"]}
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    assert client.get(f"/games/{table_id}/record").status_code == 409
    started = client.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": host})
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert [s["kind"] for s in started.json()["seats"]] == ["human", "human", "bot"]
    full = client.post(f"/api/tables/{table_id}/join", json={"name": "Cid"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/games/nope/record").status_code == 404
    left = client.post(f"/api/tables/{table_id}/leave", headers={"x-seat-token": "wrong"})
    assert left.status_code == 403
    lobby_text = client.get("/api/tables").text + client.get(f"/api/tables/{table_id}").text
    assert host not in lobby_text and joined["token"] not in lobby_text
    assert "deck\"" not in lobby_text.replace('"deck":', "")
    assert client.post("/api/tables", json={"name": "A", "seats": 6}).status_code == 422
    assert client.post("/api/tables", json={"name": "A", "bot_level": "god"}).status_code == 422
    assert client.post("/api/tables", json={"name": "A", "rules": {"x": 1}}).status_code == 422


def test_the_openapi_schema_describes_the_lobby(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert {"/api/tables", "/api/tables/{table_id}/join", "/games/{game_id}/record"} <= set(
        schema["paths"]
    )
    assert "SeatGrant" in schema["components"]["schemas"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(
    st.sampled_from(["name", "seats", "rules", "bot_level", "clock_seconds", "public", "x"]),
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.text(max_size=40)
    | st.dictionaries(st.text(max_size=10), st.integers(), max_size=2),
    max_size=6,
))
def test_any_lobby_request_gets_a_clean_answer(client: TestClient, body: dict[str, Any]) -> None:
    reply = client.post("/api/tables", json=body)
    assert reply.status_code in (201, 422)
    error = client.post("/api/tables/zzz/join", json=body)
    assert error.status_code in (404, 422)


def test_a_seat_plays_over_the_socket_and_a_spectator_watches(client: TestClient) -> None:
    grant = new_table(client, seats=3)
    table_id, token = grant["table"]["id"], grant["token"]
    client.post(f"/api/tables/{table_id}/start", headers={"x-seat-token": token})
    with client.websocket_connect(f"/ws/tables/{table_id}") as me, client.websocket_connect(
        f"/ws/tables/{table_id}"
    ) as watcher:
        me.send_json({"type": "hello", "token": token})
        watcher.send_json({"type": "hello", "token": None})
        frame = me.receive_json()
        assert frame["type"] == "state" and frame["you"] == 0
        seen = watcher.receive_json()
        assert seen["you"] is None
        assert all("draws" not in hand for hand in seen["view"]["hands"])
        for _ in range(400):  # play whenever it is our turn, until the game is over
            if frame["type"] == "state" and frame["view"]["to_move"] is None:
                break
            if frame["type"] == "state" and frame["view"]["to_move"] == 0:
                action = frame["view"]["legal"][0].split()
                body = {"type": action[0]}
                if action[0] == "take":
                    body["dish"] = action[1]
                elif action[0] == "feed":
                    body["dishes"] = action[1:]
                me.send_json({"type": "act", "version": frame["version"], "action": body})
            frame = me.receive_json()
        assert frame["view"]["to_move"] is None and frame["score"]["winners"]
    record = client.get(f"/games/{table_id}/record")
    assert record.status_code == 200 and len(record.json()["deck"]) == 110
    assert client.get(f"/games/{table_id}/replay/3").json()["step"] == 3


def test_bad_sockets_are_refused_and_other_tables_play_on(client: TestClient) -> None:
    grant = new_table(client, seats=3)
    table_id, token = grant["table"]["id"], grant["token"]
    other = new_table(client, seats=3)
    client.post(
        f"/api/tables/{other['table']['id']}/start", headers={"x-seat-token": other["token"]}
    )

    with client.websocket_connect("/ws/tables/nothing") as ws:
        assert ws.receive_json()["code"] == "no_table"
        assert closed_with(ws) == CLOSE_NO_TABLE
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # a wrong token: nothing
        ws.send_json({"type": "hello", "token": "stolen"})
        first = ws.receive_json()
        assert first["type"] == "error" and first["code"] == "bad_token"
        assert closed_with(ws) == CLOSE_BAD_TOKEN
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["code"] == "no_hello"
        assert closed_with(ws) == CLOSE_POLICY
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_bytes(b"\x00\x01")
        assert closed_with(ws) == CLOSE_UNSUPPORTED

    with client.websocket_connect(f"/ws/tables/{other['table']['id']}") as bystander:
        bystander.send_json({"type": "hello", "token": other["token"]})
        assert bystander.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "state"
            ws.send_text("this is not json")
            assert ws.receive_json()["code"] == "bad_json"
            ws.send_json({"type": "ping"})  # still connected after a bad frame
            assert ws.receive_json()["type"] == "pong"
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME_BYTES}))
            assert ws.receive_json()["code"] == "frame_too_big"
            assert closed_with(ws) == CLOSE_TOO_BIG
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # a flood
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "state"
            for _ in range(120):
                ws.send_text('{"type":"ping"}')
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):
                    codes.append(json.loads(ws.receive_text()).get("code"))
            assert closed.value.code == CLOSE_POLICY
            assert "rate_limited" in codes
        # the other table was never disturbed
        bystander.send_json({"type": "ping"})
        reply = bystander.receive_json()
        while reply["type"] != "pong":
            reply = bystander.receive_json()
        assert reply["type"] == "pong"
    status = client.get(f"/api/tables/{other['table']['id']}")
    assert status.status_code == 200


def test_the_browser_client_is_served(client: TestClient) -> None:
    page = client.get("/t/abc")
    # the page loads its modules from versioned URLs (server/web_assets.py)
    module = re.search(r'src="(/assets/[0-9a-f]{12}/app\.js)"', page.text)
    assert page.status_code == 200 and module is not None
    assert client.get(module.group(1)).status_code == 200
    for name in ("app.js", "strings.js", "cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_client_strings_come_in_every_language(client: TestClient) -> None:
    from kingsbreakfast.server.app import static_dir

    english = json.loads((static_dir() / "strings" / "en.json").read_text(encoding="utf-8"))
    codes = [entry["code"] for entry in client.get("/api/languages").json()]
    assert codes[0] == "en" and len(codes) >= 2
    for code in codes:
        catalog = client.get(f"/api/strings/{code}").json()
        assert set(catalog) == set(english)
        assert all(isinstance(text, str) and text for text in catalog.values())
    missing = client.get("/api/strings/xx")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_language"


def test_every_string_id_the_client_uses_is_in_the_catalogue() -> None:
    import re

    from kingsbreakfast.server.app import static_dir

    english = json.loads((static_dir() / "strings" / "en.json").read_text(encoding="utf-8"))
    source = (static_dir() / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\(\s*"([\w.]*\w)\"""", source))
    assert used and used <= set(english), sorted(used - set(english))
    # ids built from a prefix: every value they can take is in the catalogue
    for prefix, values in {
        "level.": ["random", "easy", "medium", "hard", "expert", "master", "chef"],
        "status.": ["lobby", "playing", "over"],
        "log.": ["draw", "place_dragon", "pass"],
        "dish.": ["bread", "cheese", "ham", "chicken", "fruit", "cake", "wine", "dragon"],
        "variant.": ["draw_or_feed", "must_draw"],
    }.items():
        assert all(prefix + v in english for v in values)


def test_the_browsers_language_and_the_rules_page(client: TestClient) -> None:
    """Until the player picks, the browser's Accept-Language chooses; the rules
    page comes in every language."""
    for header, code in (("de-CH,de;q=0.9,en;q=0.8", "de"), ("ja, vi;q=0.5", "vi"),
                         ("ja", "en"), ("fr-CA", "fr")):
        answer = client.get("/api/language", headers={"Accept-Language": header})
        assert answer.status_code == 200 and answer.json() == {"code": code}
    assert client.get("/api/language").json() == {"code": "en"}
    for code in ("en", "de", "hu", "fr", "vi"):
        page = client.get(f"/api/rules/{code}").json()
        assert page["language"] == code and page["html"].startswith("<h1>")
        assert "(R11" in page["html"]
    assert client.get("/api/rules/xx").status_code == 404
