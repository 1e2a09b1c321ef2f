"""The benchmark scripts can start where the tests run: every module a script imports at its
top is installed by the test command (or is one of the project's own helpers).

The issues' figures are measured with these scripts, so a dependency renamed or dropped
elsewhere (the test client moving from ``httpx`` to ``httpx2``) must fail here, not when
somebody next measures. Imports made inside functions are the script's optional parts
(``torch`` for a training experiment) and are not checked.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
LOCAL = {path.stem for path in SCRIPTS} | {
    path.name for path in (ROOT / "tests").iterdir() if path.is_dir()
} | {path.stem for path in (ROOT / "tests").glob("*.py")}
"""Names a script finds beside it or in ``tests/`` (which some put on their path)."""


def top_level_imports(path: Path) -> set[str]:
    """The packages a script imports when it starts (module level, ``try`` blocks included:
    a guarded import still names what the script expects)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    body = list(tree.body)
    while body:
        node = body.pop(0)
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Try) or (
            isinstance(node, ast.If) and not _is_type_checking(node)
        ):
            body.extend(node.body)
    return names


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def test_there_are_scripts_to_check() -> None:
    assert len(SCRIPTS) > 20
    assert "httpx2" in top_level_imports(ROOT / "benchmarks" / "server_load.py")


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_every_module_a_benchmark_imports_is_installed(script: Path) -> None:
    missing = sorted(
        name for name in top_level_imports(script)
        if name not in LOCAL and name not in sys.stdlib_module_names
        and importlib.util.find_spec(name) is None
    )
    assert not missing, f"{script.name} imports what the test command does not install: {missing}"


def test_a_missing_module_is_found(tmp_path: Path) -> None:
    script = tmp_path / "probe.py"
    script.write_text("import os\nimport httpx_gone_for_good\ntry:\n    import alsogone\n"
                      "except ImportError:\n    pass\n\ndef later():\n    import notchecked\n")
    assert top_level_imports(script) == {"os", "httpx_gone_for_good", "alsogone"}
