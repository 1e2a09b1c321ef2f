"""Shared pieces of the browser tests: where chromium is, how it starts, screenshots."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("KINGSBREAKFAST_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
PORTS = os.environ.get("KINGSBREAKFAST_TEST_PORTS", "")
"""``FIRST-LAST``: the ports test servers may listen on (on a machine shared with others);
empty for any free port."""
ARTIFACTS = Path(os.environ.get("KINGSBREAKFAST_ARTIFACTS", "test-artifacts/web"))


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


SIZES = {"": {"width": 1280, "height": 900}, "phone-": {"width": 390, "height": 844}}
"""The two screens every state is shown on: a desktop and a phone (``phone-`` in the name)."""


def shots(page: Any, stem: str, code: str) -> None:
    """The state on screen at both sizes, ``STEM-CODE.png`` and ``STEM-phone-CODE.png``; the
    page gets its own size back afterwards."""
    own = page.viewport_size
    for infix, size in SIZES.items():
        page.set_viewport_size(size)
        shot(page, f"{stem}-{infix}{code}")
    page.set_viewport_size(own)


def shots_in(page: Any, stem: str, codes: tuple[str, ...] = ("en", "de")) -> None:
    """:func:`shots` in each language, switched with the page's own language picker, and the
    page's language given back afterwards."""
    own = page.evaluate("document.documentElement.lang")
    for code in codes:
        _speak(page, code)
        shots(page, stem, code)
    _speak(page, own)


def _speak(page: Any, code: str) -> None:
    if page.evaluate("document.documentElement.lang") != code:
        page.select_option("#lang", code)
        page.wait_for_selector(f"html[lang={code}]")


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth + 1"
    ))


def server_port() -> int | None:
    """A free port from ``KINGSBREAKFAST_TEST_PORTS``, or None to let the server pick."""
    if not PORTS:
        return None
    first, last = (int(part) for part in PORTS.split("-"))
    for port in range(first, last + 1):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")
