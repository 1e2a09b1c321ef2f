"""The server tests' client is the one Starlette recommends: its TestClient on httpx2.

With plain httpx, importing the test client warns that this is deprecated (a
``StarletteDeprecationWarning``, a UserWarning, so ``-W error::DeprecationWarning`` alone
would not see it); the test extra installs httpx2, and importing the client must stay silent.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def _import_silently(prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{prelude}import warnings; warnings.simplefilter('error'); import fastapi.testclient"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)


def test_the_test_client_imports_without_a_deprecation() -> None:
    pytest.importorskip("httpx2", reason="httpx2 (the test extra) carries the test client")
    done = _import_silently()
    assert done.returncode == 0, done.stderr


def test_without_httpx2_the_same_import_fails() -> None:
    # with httpx it warns (an error here), without it Starlette asks for httpx2
    done = _import_silently("import sys; sys.modules['httpx2'] = None; ")
    assert done.returncode != 0 and "httpx2" in done.stderr
