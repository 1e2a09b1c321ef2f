"""Every refusal the server sends, pinned whole: the error frame's code, English message,
params and version, and the code and params of each refused client frame. A refusal for the
wrong reason (say, an illegal move reported as a stale version) fails here."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kingsbreakfast.engine import Action, State
from kingsbreakfast.server.wire import MAX_FRAME_BYTES, Act, Hello, ProtocolError, parse_message
from server.kb_harness import Capture, act, make_master, seated_table

SEED = 7


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, SEED).initial_deck, 0


def error(code: str, message: str, params: dict[str, Any], version: int) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "params": params,
            "version": version}


def test_each_refusal_of_a_move_is_one_exact_frame(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer)
        await master.open()
        table, _ = await seated_table(master, 3)
        conns = [Capture(seat) for seat in range(3)]
        spectator, stranger = Capture(None), Capture(0)
        for conn in [*conns, spectator]:
            master.actor(table).attach(conn)
        state = table.state
        assert state is not None and state.to_move == 0
        version = table.version

        await act(master, table, spectator, "draw")
        assert spectator.errors() == [
            error("spectator", "spectators cannot play", {}, version)
        ]
        await act(master, table, stranger, "draw")  # never attached: its token holds nothing
        assert stranger.errors() == [
            error("bad_token", "this token no longer holds a seat", {}, version)
        ]
        await act(master, table, conns[1], "draw")
        assert conns[1].errors() == [
            error("not_your_turn", "it is not your turn", {"to_move": 0}, version)
        ]
        # the client's version is current: the small error alone, no state frame (a refusal
        # answered with a full view was a 25-fold amplifier)
        assert conns[1].decoded()[-1]["type"] == "error"
        # a version the client claims but does not hold: its connection was sent the current
        # state already, so the answer is still the small error alone
        # (and the same refusal at the same version is counted, not told again)
        before = len(conns[1].frames)
        assert await master.actor(table).receive(conns[1], Act(version + 3, Action.parse("draw")))
        assert conns[1].decoded()[before:] == []
        # a connection not yet sent the current version gets it, once
        late = Capture(1)
        # in the table without its greeting frame
        master.actor(table).audience.connections.add(late)
        await act(master, table, late, "draw", version=version + 3)
        await act(master, table, late, "draw", version=version + 3)
        assert [f["type"] for f in late.decoded()] == ["error", "state"]
        master.actor(table).audience.connections.discard(late)
        absent = next(d for d in range(7) if state.table[d] == 0)
        name = Action.take(absent).to_record()["dish"]
        await act(master, table, conns[0], Action.take(absent), version=version + 5)
        assert conns[0].errors() == [
            error("dish_not_on_table", f"{name} is not on the table (R6)", {"dish": name},
                  version)
        ]
        await act(master, table, conns[0], "draw", version=version + 1)
        assert conns[0].errors()[-1] == error(
            "stale_version", "the game moved on since you chose this move",
            {"yours": version + 1, "current": version}, version,
        )
        await master.actor(table).receive(conns[0], Hello(None))
        assert conns[0].errors()[-1] == error(
            "already_greeted", "this connection already said hello", {}, version
        )
        assert table.version == version  # nothing refused was applied
        await master.close()

    asyncio.run(main())


def test_a_move_before_the_start_and_after_the_end(sqlite_url: str) -> None:
    async def main() -> None:
        master = make_master(sqlite_url, dealer=fixed_dealer)
        await master.open()
        lobby, _ = await seated_table(master, 3, start=False)
        early = Capture(0)
        master.actor(lobby).attach(early)
        await act(master, lobby, early, "draw")
        assert early.errors() == [
            error("not_started", "the game has not started yet", {}, lobby.version)
        ]

        table, _ = await seated_table(master, 3)
        conns = [Capture(seat) for seat in range(3)]
        for conn in conns:
            master.actor(table).attach(conn)
        assert table.state is not None
        while not table.state.is_over:
            seat = table.state.to_move
            assert seat is not None
            await act(master, table, conns[seat], table.state.legal_actions()[0])
        await act(master, table, conns[0], "pass")
        assert conns[0].errors() == [
            error("game_over", "the game is over", {}, table.version)
        ]
        await master.close()

    asyncio.run(main())


FRAMES = {
    "not json": ("{", "bad_json", {}, "the frame is not JSON text (or nests too deep)"),
    "not an object": ("[]", "not_object", {}, "a message must be a JSON object"),
    "unknown type": (
        '{"type": "eat"}', "unknown_type",
        {"expected": ["act", "hello", "ping", "seat_answer", "sync"]},
        "'type' must be one of act, hello, ping, seat_answer, sync",
    ),
    "unknown field": (
        '{"type": "ping", "x": 1}', "unknown_field", {"field": "x"},
        "unknown field 'x' in a ping message",
    ),
    "version as text": (
        '{"type": "act", "version": "3", "action": {"type": "draw"}}', "bad_version_field", {},
        "'version' must be the whole number of the state you saw",
    ),
    "token as a number": (
        '{"type": "hello", "token": 5}', "bad_token_field", {},
        "'token' must be a seat token (text) or null",
    ),
    "action without a dish": (
        '{"type": "act", "version": 0, "action": {"type": "take", "dish": "pizza"}}',
        "bad_action", {"dish": "pizza"},
        "'pizza' is not a dish (dishes: bread, cheese, ham, chicken, fruit, cake, wine)",
    ),
    "too big": (
        " " * (MAX_FRAME_BYTES + 1), "frame_too_big", {"limit": MAX_FRAME_BYTES},
        f"a frame may hold at most {MAX_FRAME_BYTES} bytes",
    ),
}


@pytest.mark.parametrize(("text", "code", "params", "message"), FRAMES.values(),
                         ids=FRAMES.keys())
def test_each_refused_frame_has_its_code_and_params(
    text: str, code: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message(text)
    assert (refused.value.code, refused.value.params, refused.value.message) == (
        code, params, message
    )
    json.dumps(refused.value.params)  # params travel in a frame: JSON values only
