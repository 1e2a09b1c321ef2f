"""The seat relay's own pieces, without a server: a state frame's view read back is the same
view (so the agent gets the tournament's request), and bad addresses are named."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app
from kingsbreakfast.cli.seat_relay import Address, table_address, view_from_dict
from kingsbreakfast.engine import State

runner = CliRunner()


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200)
)
def test_a_view_read_back_from_its_json_is_the_same_view(
    players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = State.new(players, rng)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    for seat in [*range(players), None]:
        view = state.view(seat)
        again = view_from_dict(view.to_dict())
        assert again == view
        assert again.to_dict() == view.to_dict()
        assert again.legal_actions() == view.legal_actions()


def test_the_invite_link_and_the_rest_address_name_the_table() -> None:
    assert table_address("http://127.0.0.1:8000/t/abc") == Address("http://127.0.0.1:8000", "abc")
    assert table_address("https://kb.example/api/tables/xyz/") == Address(
        "https://kb.example", "xyz"
    )
    secure = table_address("https://kb.example/t/xyz")
    assert secure is not None and secure.socket == "wss://kb.example/ws/tables/xyz"
    assert table_address("http://127.0.0.1:8000/") is None
    assert table_address("ftp://host/t/abc") is None
    assert table_address("not a url") is None


def test_a_bad_address_is_named_and_nothing_is_started() -> None:
    result = runner.invoke(app, ["agent", "http://127.0.0.1:1/lobby", "cmd:true", "--lang", "en"])
    assert result.exit_code == 2
    assert "is not a table's address" in result.output


def test_a_player_that_is_not_an_agent_is_refused() -> None:
    result = runner.invoke(app, ["agent", "http://127.0.0.1:1/t/abc", "random", "--lang", "en"])
    assert result.exit_code == 2
    assert "is not an agent" in result.output
