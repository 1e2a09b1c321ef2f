"""The server's refusals are the project's one error type: a stable code, English words and
parameters, plus what the transport needs (an HTTP status, a WebSocket close code)."""

from __future__ import annotations

import pytest

from kingsbreakfast.engine import KingsBreakfastError
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.server.master import LobbyError, clean_name
from kingsbreakfast.server.storage import StorageError
from kingsbreakfast.server.wire import (
    CLOSE_BAD_TOKEN,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    MAX_FRAME_BYTES,
    ProtocolError,
    parse_message,
)


def test_a_lobby_refusal_carries_its_status_code_message_and_params() -> None:
    with pytest.raises(LobbyError) as refused:
        clean_name("x" * 40)
    error = refused.value
    assert isinstance(error, KingsBreakfastError)
    assert (error.status, error.code) == (422, "bad_name")
    assert error.params == {"limit": 32} and "1 to 32" in error.message
    assert str(error) == error.message


def test_a_refused_frame_carries_code_params_and_the_close_code() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message("x" * (MAX_FRAME_BYTES + 1))
    error = refused.value
    assert isinstance(error, KingsBreakfastError)
    assert error.code == "frame_too_big" and error.params == {"limit": MAX_FRAME_BYTES}
    assert error.close == CLOSE_TOO_BIG


@pytest.mark.parametrize(
    ("code", "close"),
    [("bad_token", CLOSE_BAD_TOKEN), ("frame_too_big", CLOSE_TOO_BIG), ("bad_json", CLOSE_POLICY)],
)
def test_the_close_code_follows_from_the_fault(code: str, close: int) -> None:
    assert ProtocolError(code, "words").close == close


def test_a_storage_fault_has_one_stable_code_whatever_the_database_said() -> None:
    error = StorageError("the database refused the change: IntegrityError")
    assert isinstance(error, KingsBreakfastError)
    assert error.code == "storage_unavailable" and error.params == {}
    assert "IntegrityError" in error.message


def test_errors_without_a_translation_are_explained_in_english() -> None:
    error = LobbyError(409, "not_over", "the record is served once the game is over")
    assert explain(error) == "the record is served once the game is over"
