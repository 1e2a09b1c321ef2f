"""``serve --workers N`` needs a database several processes can share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_several_workers_on_sqlite_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kingsbreakfast", "serve", "--workers", "2",
         "--db", f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "PostgreSQL" in result.stderr and "--workers 2" in result.stderr
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


def test_workers_serve_on_consecutive_ports_and_one_that_dies_comes_back() -> None:
    import os
    import signal
    import time
    import urllib.request

    import pytest

    from server.conftest import POSTGRES_URL
    from server.kb_cluster import port_range
    from server.kb_schema import empty_database

    if not POSTGRES_URL:
        pytest.skip("needs KINGSBREAKFAST_TEST_POSTGRES_URL (CI)")
    url = empty_database(POSTGRES_URL)
    first = port_range()[10]
    ports = (first, first + 1)
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "kingsbreakfast", "serve", "--workers", "2", "--port",
         str(first), "--log-level", "warning"],
        env={**os.environ, "KINGSBREAKFAST_DB": url}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )

    def answering(port: int) -> int | None:
        """The pid serving ``port`` once it answers the lobby (None while it does not)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                pass
        except OSError:
            return None
        for line in subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True,
                                   text=True).stdout.splitlines():
            if "pid=" in line:
                return int(line.split("pid=")[1].split(",")[0])
        return None

    def wait_for(port: int, not_pid: int | None = None) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pid = answering(port)
            if pid is not None and pid != not_pid:
                return pid
            time.sleep(0.2)
        raise AssertionError(f"nothing answers on {port}")

    try:
        pids = [wait_for(port) for port in ports]
        assert len(set(pids)) == 2 and supervisor.pid not in pids
        os.kill(pids[1], signal.SIGKILL)
        assert wait_for(ports[1], not_pid=pids[1]) != pids[1]  # started again
    finally:
        supervisor.send_signal(signal.SIGTERM)
        output = supervisor.communicate(timeout=60)[0].decode()
    assert supervisor.returncode == 0, output
    assert all(answering(port) is None for port in ports)  # every worker stopped with it
    assert "kingsbreakfast:kingsbreakfast@" not in output  # the password is never printed
