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


def test_front_door_exports_resolve() -> None:
    """Every name the package promises is there, once: callers outside the engine may import
    nothing else (the import-linter contracts in pyproject.toml hold them to it)."""
    exported = kingsbreakfast.engine.__all__
    assert len(exported) == len(set(exported))
    missing = [name for name in exported if not hasattr(kingsbreakfast.engine, name)]
    assert missing == []


def test_exported_action_ids_are_the_documented_layout() -> None:
    """The ids the other packages branch on: draw (R7), place the drawn dragon (R7a), the
    feeds in R1 pair order (R8), pass (R5b)."""
    from kingsbreakfast.engine import (
        DRAW_ID,
        FEED_PAIRS,
        FIRST_FEED_ID,
        PASS_ID,
        PLACE_DRAGON_ID,
        Action,
    )

    assert Action(DRAW_ID) == Action.parse("draw")
    assert Action(PLACE_DRAGON_ID) == Action.parse("place_dragon")
    assert Action(PASS_ID) == Action.parse("pass")
    assert str(Action(FIRST_FEED_ID)) == "feed bread bread"
    assert str(Action(FIRST_FEED_ID + 1)) == "feed bread cheese"
    assert str(Action(PASS_ID - 1)) == "feed wine wine"
    assert FEED_PAIRS[1] == Action.parse("feed cheese bread").dishes


def _fields_of_own_classes(module: object) -> set[str]:
    """Every attribute name that a class defined in ``module`` (or one of its bases) declares:
    its slots, annotations and class attributes."""
    names: set[str] = set()
    for value in vars(module).values():
        if isinstance(value, type) and value.__module__ == getattr(module, "__name__", None):
            for klass in value.__mro__:
                names.update(getattr(klass, "__slots__", ()), vars(klass),
                              getattr(klass, "__annotations__", {}))
    return names


def test_no_engine_module_touches_another_class_s_private_fields() -> None:
    """A state's fields are written and read only by the class that declares them (and its
    subclass): a module that needs a state known only by its facts (a line of text, a world
    dealt from a view) builds a Position and asks State.from_position, so that a change to
    the state's layout is a change to state.py and reading.py alone."""
    import importlib

    foreign = []
    for path in sorted(ENGINE.glob("*.py")):
        name = "kingsbreakfast.engine" + ("" if path.stem == "__init__" else f".{path.stem}")
        own = _fields_of_own_classes(importlib.import_module(name))
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in own
            ):
                foreign.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    assert foreign == []
