"""An outside agent takes a seat on a real server through ``kingsbreakfast agent``: the
example shell agent plays one seat to the end of the game, bots the others, and what the
agent was sent never holds another seat's drawn cards (docs/rules.md, *Who sees what*)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kingsbreakfast.engine import Action, replay
from server.kb_cluster import port_range
from server.kb_live import LiveServer

ROOT = Path(__file__).resolve().parents[2]
AGENT = ROOT / "examples" / "draw_agent.sh"


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    # zombie_grace 0: the host's seat, never connected, is played by a bot at once
    live = LiveServer(
        sqlite_url, bot_delay=0.002, zombie_grace=0.0, port=port_range()[0],
        log_path=tmp_path / "server.log",
    ).start()
    try:
        yield live
    finally:
        live.stop()


def relay(
    server: LiveServer, table_id: str, transcript: Path, *extra: str
) -> subprocess.Popen[str]:
    """The relay command, its agent writing every request it reads to ``transcript``."""
    agent = f"sh -c {shlex.quote(f'tee -a {transcript} | sh {AGENT}')}"
    return subprocess.Popen(
        [sys.executable, "-m", "kingsbreakfast", "agent", f"{server.base}/t/{table_id}",
         f"cmd:{agent}", "--agent-timeout", "20", "--lang", "en", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "KINGSBREAKFAST_LANG": "en"},
    )


def wait_for(check: Any, what: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)  # polling the REST API, bounded: the relay is another process
    raise AssertionError(f"timed out waiting for {what}")


def requests(transcript: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in transcript.read_text().splitlines() if line.strip()]


def check_only_own_cards(sent: list[dict[str, Any]], seat: int) -> None:
    assert sent, "the agent was never asked for a move"
    for request in sent:
        assert request["protocol"] == "kingsbreakfast-agent/1"
        assert request["seat"] == seat
        view = request["view"]
        assert view["seat"] == seat and view["to_move"] == seat
        assert [str(a) for a in request["legal_text"]] == view["legal"]
        for number, hand in enumerate(view["hands"]):
            if number != seat:
                assert "draws" not in hand, f"seat {number}'s drawn cards reached the agent"
        assert "draws" in view["hands"][seat]


def test_an_agent_joins_by_invite_and_plays_its_seat_to_the_end(
    server: LiveServer, tmp_path: Path
) -> None:
    status, grant = server.request(
        "POST", "/api/tables", {"name": "Host", "seats": 4, "bot_level": "random"}
    )
    assert status == 201
    table_id, host_token = grant["table"]["id"], grant["token"]
    transcript = tmp_path / "agent-in.jsonl"
    process = relay(server, table_id, transcript, "--name", "Shell agent")
    try:
        def agent_seated() -> bool:
            seats = server.get(f"/api/tables/{table_id}")["seats"]
            return any(s["name"] == "Shell agent" and s["connected"] for s in seats)

        wait_for(agent_seated, "the agent to take its seat")
        assert server.request("POST", f"/api/tables/{table_id}/start", token=host_token)[0] == 200
        out, err = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "Seat 2 taken" in out
    assert "The game is over." in out
    assert "Final scoring" in out
    sent = requests(transcript)
    check_only_own_cards(sent, seat=1)
    # the finished game is archived; the agent drew whenever it could (R7), and every move
    # it was asked for is in the record under its seat
    record = server.get(f"/games/{table_id}/record")
    assert record["players"][1] == "Shell agent"
    game = replay(record)
    assert game.is_over
    own = [turn.action for turn in game.view(None).history if turn.seat == 1]
    assert len(own) == len(sent)
    assert Action.parse("draw") in own


def test_an_agent_holding_the_host_token_starts_the_game(
    server: LiveServer, tmp_path: Path
) -> None:
    status, grant = server.request(
        "POST", "/api/tables", {"name": "Agent", "seats": 3, "bot_level": "random"}
    )
    assert status == 201
    transcript = tmp_path / "agent-in.jsonl"
    process = relay(server, grant["table"]["id"], transcript, "--token", grant["token"],
                    "--start")
    try:
        out, err = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "taken" not in out  # the token's seat is used, no seat joined
    assert "The game is over." in out
    check_only_own_cards(requests(transcript), seat=0)


def test_the_agent_plays_on_after_the_server_restarts(
    sqlite_url: str, tmp_path: Path
) -> None:
    port = port_range()[1]
    log = tmp_path / "server.log"
    first = LiveServer(sqlite_url, bot_delay=0.05, port=port, log_path=log).start()
    second: LiveServer | None = None
    transcript = tmp_path / "agent-in.jsonl"
    process: subprocess.Popen[str] | None = None
    try:
        status, grant = first.request(
            "POST", "/api/tables", {"name": "Agent", "seats": 3, "bot_level": "random"}
        )
        assert status == 201
        process = relay(first, grant["table"]["id"], transcript, "--token", grant["token"],
                        "--start", "--retries", "40")
        wait_for(lambda: transcript.exists() and len(requests(transcript)) >= 2,
                 "the agent's first moves")
        first.kill9()  # mid-game: the relay loses its socket and keeps trying
        second = LiveServer(sqlite_url, bot_delay=0.05, port=port, log_path=log).start()
        out, err = process.communicate(timeout=180)
        record = second.get(f"/games/{grant['table']['id']}/record")
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.communicate()
        first.stop()
        if second is not None:
            second.stop()
    assert process.returncode == 0, err
    assert "connecting again" in err
    assert "The game is over." in out
    sent = requests(transcript)
    check_only_own_cards(sent, seat=0)
    own = [turn for turn in replay(record).view(None).history if turn.seat == 0]
    assert len(own) >= 2 and len(sent) >= len(own)


def test_a_token_that_holds_no_seat_is_named(server: LiveServer, tmp_path: Path) -> None:
    status, grant = server.request("POST", "/api/tables", {"name": "Host", "seats": 3})
    assert status == 201
    process = relay(server, grant["table"]["id"], tmp_path / "in.jsonl", "--token", "nope")
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "holds no seat" in err
