"""Small modules, one idea each: no module of the package is over 500 lines (issue: a house
with no exception). A module that grows past it is split by idea, not trimmed of its
docstrings."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "kingsbreakfast"
LIMIT = 500


def test_no_module_is_over_500_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 100  # the package was found
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
