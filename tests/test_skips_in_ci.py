"""tests/conftest.py's promise, checked on a small suite of its own: a skip for something
missing is a skip locally, listed with its reason, and a failure naming what is missing when
``CI`` is set; the rest of the suite still runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SUITE = {
    "test_needs_an_extra.py": (
        "import pytest\n"
        "pytest.importorskip('kb_no_such_extra')\n"
        "def test_never_runs() -> None:\n"
        "    pass\n"
    ),
    "test_needs_a_service.py": (
        "import pytest\n"
        "def test_database() -> None:\n"
        "    pytest.skip('KB_FAKE_DATABASE_URL is not set')\n"
        "def test_plain() -> None:\n"
        "    assert 1 + 1 == 2\n"
        "@pytest.mark.xfail(reason='a known fault', strict=True)\n"
        "def test_expected_failure() -> None:\n"
        "    assert False\n"
    ),
}


def run_suite(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    for name, text in SUITE.items():
        (tmp_path / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )


def test_locally_a_skip_stays_a_skip_and_the_summary_says_why(tmp_path: Path) -> None:
    result = run_suite(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in result.stdout
    assert "skipped, and why" in result.stdout
    assert "1 × could not import 'kb_no_such_extra'" in result.stdout
    assert "1 × KB_FAKE_DATABASE_URL is not set" in result.stdout


def test_in_ci_a_skip_fails_naming_what_is_missing(tmp_path: Path) -> None:
    result = run_suite(tmp_path, ci=True)
    assert result.returncode != 0
    out = result.stdout
    assert "Missing: could not import 'kb_no_such_extra'" in out
    assert "Missing: KB_FAKE_DATABASE_URL is not set" in out
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in out  # the rest still ran
    assert "skipped" not in out.splitlines()[-1]

