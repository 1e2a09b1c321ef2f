"""``kingsbreakfast serve`` refuses bounds and log settings that cannot work, before it
opens a port, each with a reason and exit status 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kingsbreakfast.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(("args", "reason"), [
    (["--log-level", "loud"], "--log-level must be one of: critical, error, warning, info"),
    (["--sockets-per-address", "0"], "the connection and table limits must be more than 0"),
    (["--sockets-per-table", "0"], "the connection and table limits must be more than 0"),
    (["--tables-per-minute", "0"], "the connection and table limits must be more than 0"),
    (["--lobby-expiry", "-1"], "--lobby-expiry must not be negative"),
    (["--db-idle-timeout", "-1"], "the database timeouts must not be negative"),
    (["--db-lock-timeout", "-0.5"], "the database timeouts must not be negative"),
])
def test_bad_bounds_exit_2_with_a_reason(args: list[str], reason: str) -> None:
    result = runner.invoke(app, ["--lang", "en", "serve", *args])
    assert result.exit_code == 2
    assert reason in result.output
