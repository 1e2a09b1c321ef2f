"""``scripts/test.sh`` run by a normal user stops at once with one line saying it needs root
for the test services, instead of ending in apt's errors after minutes of pip."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_normal_user_is_told_up_front_that_the_services_need_root() -> None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root to become a normal user (setpriv)")
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
         "bash", str(ROOT / "scripts" / "test.sh")],
        capture_output=True, text=True, check=False, env={"PATH": os.environ["PATH"]},
        cwd="/",
    )
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "needs root" in line and "sudo bash scripts/test.sh" in line
