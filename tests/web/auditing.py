"""Accessibility audits in the browser tests: axe-core run inside the page under test."""

from __future__ import annotations

from typing import Any

import pytest


def axe_violations(page: Any) -> list[str]:
    """Every axe-core violation on the page as it stands, one readable line each (empty when
    the page passes). The WCAG 2.x A and AA rules and axe's best practices all count."""
    sync_axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    options = {
        "resultTypes": ["violations"],
        # experimental in axe, but WCAG 2.5.3: a control's visible words are in its name
        "rules": {"label-content-name-mismatch": {"enabled": True}},
    }
    results = sync_axe.Axe().run(page, options=options)
    lines = []
    for violation in results.response["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
        lines.append(
            f"{violation['id']} ({len(violation['nodes'])}): {violation['help']} at {targets}"
        )
    return lines


def assert_accessible(page: Any, where: str) -> None:
    found = axe_violations(page)
    assert found == [], f"axe on {where}:\n" + "\n".join(found)
