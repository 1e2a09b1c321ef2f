"""Shared pieces of the browser tests: where chromium is, how it starts, screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("KINGSBREAKFAST_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = Path(os.environ.get("KINGSBREAKFAST_ARTIFACTS", "test-artifacts/web"))


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth + 1"
    ))
