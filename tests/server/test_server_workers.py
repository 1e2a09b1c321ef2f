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
