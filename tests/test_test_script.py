"""``scripts/test.sh`` run by a normal user stops at once with one line saying it needs root
for the test services, instead of ending in apt's errors after minutes of pip."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_normal_user_is_told_up_front_that_the_services_need_root() -> None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root to become a normal user (setpriv)")
    # a copy the normal user can read: a checkout under /root (a newcomer's, as root) is
    # closed to everyone else, and the script's first check needs nothing beside it
    scratch = Path(tempfile.mkdtemp(prefix="kingsbreakfast-test-sh-"))
    try:
        (scratch / "scripts").mkdir()
        shutil.copy(ROOT / "scripts" / "test.sh", scratch / "scripts" / "test.sh")
        for path in (scratch, scratch / "scripts", scratch / "scripts" / "test.sh"):
            path.chmod(0o755)
        done = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
             "bash", str(scratch / "scripts" / "test.sh")],
            capture_output=True, text=True, check=False, env={"PATH": os.environ["PATH"]},
            cwd="/",
        )
    finally:
        shutil.rmtree(scratch)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "needs root" in line and "sudo bash scripts/test.sh" in line
