"""Hidden information: nothing a seat is sent depends on cards that seat may not see.

The strongest form (SERVER-SAFETY.md test 2): two games whose decks differ only in cards
hidden from seat S — dish cards other seats drew, and the leftover deck — played with the same
actions produce byte-identical frames for S (state frames, resyncs and error frames alike),
and byte-identical frames for a spectator, and identical server logs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kingsbreakfast.engine import DRAGON, Action, State
from server.kb_harness import Capture, act, make_master, seated_table


def hidden_positions(deck: tuple[int, ...], n: int, actions: list[Action], seat: int) -> list[int]:
    """Deck positions whose card ``seat`` never sees before the end: dish cards drawn by
    other seats and the cards left in the deck (R10)."""
    state = State(deck, n)
    hidden = []
    for action in actions:
        if action.kind == "draw":
            position = len(deck) - state.deck_size
            if state.to_move != seat and deck[position] != DRAGON:
                hidden.append(position)
        state.apply(action)
    assert state.is_over
    hidden.extend(p for p in range(len(deck) - state.deck_size, len(deck)) if deck[p] != DRAGON)
    return hidden


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def play_through_server(
    url: str, deck: tuple[int, ...], n: int, actions: list[Action], seat: int
) -> tuple[list[str], list[str], list[str], list[dict[str, Any]]]:
    """Play ``actions`` on ``deck`` with every seat human; return S's frames, a spectator's
    frames and the server log, with the table id replaced by a placeholder."""
    logger = logging.getLogger("kingsbreakfast.server")
    handler = Lines()
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        master = make_master(url, dealer=lambda _n: (deck, 0))
        await master.open()
        table, _ = await seated_table(master, n)
        conns = [Capture(s) for s in range(n)]
        watcher = Capture(None)
        for c in [*conns, watcher]:
            master.actor(table).attach(c)
        for action in actions:
            assert table.state is not None
            mover = table.state.to_move
            assert mover is not None
            if mover == seat:  # S also sends a stale move and an illegal one: errors too
                await act(master, table, conns[seat], action, version=table.version + 3)
                await act(master, table, conns[seat], Action.parse("pass"))
            await act(master, table, conns[mover], action)
        assert table.state is not None and table.state.is_over
        await master.close()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)

    def scrub(texts: list[str]) -> list[str]:
        return [t.replace(table.id, "TABLE") for t in texts]

    return (
        scrub(conns[seat].frames), scrub(watcher.frames), scrub(handler.lines),
        conns[seat].decoded(),
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    seat_pick=st.integers(0, 4),
    pair=st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)),
)
def test_decks_differing_in_hidden_cards_give_identical_frames(
    tmp_path_factory: Any, n: int, seed: int, seat_pick: int, pair: tuple[int, int]
) -> None:
    seat = seat_pick % n
    rng = random.Random(seed)
    game = State.new(n, rng)
    deck = game.initial_deck
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    actions = list(game.actions)
    hidden = hidden_positions(deck, n, actions, seat)
    candidates = [
        (i, j) for i in hidden for j in hidden if i < j and deck[i] != deck[j]
    ]
    assume(candidates)
    i, j = candidates[(pair[0] * 7919 + pair[1]) % len(candidates)]
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    other_deck = tuple(other)
    replayed = State(other_deck, n)
    for action in actions:
        replayed.play(action)  # the same moves stay legal: legality is public

    tmp = tmp_path_factory.mktemp("hidden")
    a_frames, a_watch, a_log, decoded = asyncio.run(
        play_through_server(f"sqlite:///{tmp / 'a.db'}", deck, n, actions, seat)
    )
    b_frames, b_watch, b_log, _ = asyncio.run(
        play_through_server(f"sqlite:///{tmp / 'b.db'}", other_deck, n, actions, seat)
    )
    # every frame before the final scoring (which shows every hand, R11) is the same bytes
    playing = [k for k, f in enumerate(decoded) if (f.get("view") or {}).get("to_move") is not None]
    # the greeting, then one per move but the last: no frame is sent twice (a refusal on a
    # version its socket holds gets the small error alone)
    assert len(playing) == len(actions)
    assert [a_frames[k] for k in playing] == [b_frames[k] for k in playing]
    assert len(a_frames) == len(b_frames)
    errors = [a_frames[k] for k, f in enumerate(decoded) if f["type"] == "error"]
    assert errors, "S's refused moves were answered"
    # the spectator never sees a drawn card, so its frames match up to the game over
    assert a_watch[:-1] == b_watch[:-1]
    assert a_log == b_log


def test_each_frame_is_exactly_the_engine_view_of_its_seat(sqlite_url: str) -> None:
    """Frames for every seat and a spectator carry the engine's view for that seat and
    nothing else: no other seat's drawn cards, no deck order, no generator."""

    async def main() -> None:
        master = make_master(sqlite_url, dealer=lambda n: (State.new(n, 99).initial_deck, 2))
        await master.open()
        table, _ = await seated_table(master, 4)
        conns = [Capture(s) for s in range(4)]
        watcher = Capture(None)
        for c in [*conns, watcher]:
            master.actor(table).attach(c)
        rng = random.Random(3)
        states = {0: table.state.clone() if table.state else None}
        while table.state is not None and not table.state.is_over:
            mover = table.state.to_move
            assert mover is not None
            await act(master, table, conns[mover], rng.choice(table.state.legal_actions()))
            states[table.version] = table.state.clone()
        for conn in [*conns, watcher]:
            for frame in conn.decoded():
                assert set(frame) == {"type", "you", "table", "version", "view", "score", "clock"}
                state = states[frame["version"]]
                assert state is not None
                assert frame["view"] == json.loads(json.dumps(state.view(conn.seat).to_dict()))
                if not state.is_over:
                    for number, hand in enumerate(frame["view"]["hands"]):
                        assert ("draws" in hand) == (number == conn.seat)
                    assert frame["score"] is None
                assert isinstance(frame["view"]["deck"], int)
                text = json.dumps(frame)
                assert "remaining" not in text and "initial_deck" not in text
        await master.close()

    asyncio.run(main())
