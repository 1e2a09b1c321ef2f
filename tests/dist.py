"""The sdist and the wheel the release tests read: the files scripts/test.sh built and checked
with twine (``KINGSBREAKFAST_DIST``), or, in a plain pytest run, built here once with
``python -m build``, exactly as a release builds them."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIST_VAR = "KINGSBREAKFAST_DIST"


@cache
def _folder() -> Path:
    given = os.environ.get(DIST_VAR)
    if given and list(Path(given).glob("*.whl")) and list(Path(given).glob("*.tar.gz")):
        return Path(given)
    pytest.importorskip("build", reason="build (the test extra) makes the sdist and wheel")
    folder = Path(tempfile.mkdtemp(prefix="kingsbreakfast-dist-"))
    atexit.register(shutil.rmtree, folder, True)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(folder), str(ROOT)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return folder


def wheel() -> Path:
    (found,) = _folder().glob("kingsbreakfast-*.whl")
    return found


def sdist() -> Path:
    (found,) = _folder().glob("kingsbreakfast-*.tar.gz")
    return found
