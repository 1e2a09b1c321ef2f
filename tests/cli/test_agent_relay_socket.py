"""The relay against a scripted play socket on loopback: it comes back when the server asks
(1012: the table moved; 1013: try later), plays the fallback for an agent that does not
answer in time and says so, and stops with the reason on a close that is final."""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.server import ServerConnection, serve

from kingsbreakfast.bots.outside import outside_bot
from kingsbreakfast.cli.seat_relay import Address, Relay, SeatClosed
from kingsbreakfast.engine import Action, State

Script = Callable[[ServerConnection, int], None]
"""What the scripted server does with its n-th connection (counted from 0)."""


def frames(seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A state frame where ``seat`` is to move, and a final one (game over, with scores)."""
    rng = random.Random(5)
    state = State.new(3, rng, first_cook=seat)
    table = {"status": "playing", "host": 0, "seats": [{"name": n} for n in "ABC"]}
    turn = {"type": "state", "you": seat, "version": 3, "table": table,
            "view": state.view(seat).to_dict(), "score": None, "clock": None}
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(seat)
    score = view.score()
    assert score is not None
    final = {"type": "state", "you": seat, "version": 99, "table": {**table, "status": "over"},
             "view": view.to_dict(), "score": score.to_dict(), "clock": None}
    return turn, final


@contextmanager
def scripted(script: Script) -> Iterator[tuple[Address, list[dict[str, Any]]]]:
    """A play socket on a free loopback port that says hello back by ``script``; yields its
    address and every client message it received."""
    received: list[dict[str, Any]] = []
    count = [0]
    lock = threading.Lock()

    def handler(connection: ServerConnection) -> None:
        with lock:
            number = count[0]
            count[0] += 1
        received.append(json.loads(connection.recv(timeout=10)))
        script(connection, number)

    with serve(handler, "127.0.0.1", 0) as server:
        port = server.socket.getsockname()[1]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield Address(f"http://127.0.0.1:{port}", "T1"), received
        finally:
            server.shutdown()
            thread.join(10)


def write_agent(tmp_path: Path, body: str) -> str:
    path = tmp_path / "agent.py"
    path.write_text(body)
    return f"cmd:{sys.executable} {path}"


SILENT = "import sys\nfor line in sys.stdin:\n    pass\n"
LAST_LEGAL = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    print(json.dumps({'id': r['id'], 'action': r['legal'][-1]}), flush=True)\n"
)


@pytest.mark.parametrize("code", [1012, 1013])
def test_the_relay_comes_back_when_asked_and_plays_on(code: int, tmp_path: Path) -> None:
    turn, final = frames(1)

    def script(connection: ServerConnection, number: int) -> None:
        if number == 0:
            connection.close(code, "come back")
            return
        connection.send(json.dumps(turn))
        act = json.loads(connection.recv(timeout=30))
        assert act["type"] == "act"
        connection.send(json.dumps(final))
        connection.recv(timeout=10)  # until the relay closes

    retries: list[int | None] = []
    with scripted(script) as (address, received):
        relay = Relay(address, "tok", outside_bot(write_agent(tmp_path, LAST_LEGAL), 20),
                      on_retry=lambda c, attempt: retries.append(c))
        last = relay.run()
    assert retries == [code]
    assert last["score"] == final["score"]
    hellos = [m for m in received if m["type"] == "hello"]
    assert len(hellos) == 2 and all(h["token"] == "tok" for h in hellos)
    assert relay.played.moves == 1 and relay.played.forfeits == 0


def test_a_silent_agent_forfeits_to_the_lowest_legal_action(tmp_path: Path) -> None:
    turn, final = frames(0)
    acts: list[dict[str, Any]] = []

    def script(connection: ServerConnection, number: int) -> None:
        connection.send(json.dumps(turn))
        acts.append(json.loads(connection.recv(timeout=30)))
        connection.send(json.dumps(final))
        connection.recv(timeout=10)

    forfeits: list[tuple[int, str, Action]] = []
    with scripted(script) as (address, _received):
        relay = Relay(address, "tok", outside_bot(write_agent(tmp_path, SILENT), 0.3),
                      on_forfeit=lambda seat, reason, action: forfeits.append(
                          (seat, reason, action)))
        relay.run()
    lowest = min(Action.parse(text) for text in turn["view"]["legal"])
    assert [a["action"] for a in acts] == [lowest.to_record()]
    assert acts[0]["version"] == turn["version"]
    assert len(forfeits) == 1
    seat, reason, action = forfeits[0]
    assert (seat, action) == (0, lowest) and "no answer within" in reason


@pytest.mark.parametrize("code", [4003, 4004, 1008])
def test_a_final_close_stops_the_relay_with_its_code(code: int, tmp_path: Path) -> None:
    def script(connection: ServerConnection, number: int) -> None:
        connection.close(code, "no")

    with scripted(script) as (address, received):
        relay = Relay(address, "tok", outside_bot(write_agent(tmp_path, SILENT), 1))
        with pytest.raises(SeatClosed) as caught:
            relay.run()
    assert caught.value.code == code
    assert len(received) == 1  # not tried again
