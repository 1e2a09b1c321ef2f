"""The engine stands alone: standard library only, and nothing else of the project."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import kingsbreakfast.engine

ENGINE = Path(kingsbreakfast.engine.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_imports_only_the_standard_library() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name} imports {name}"
            )
