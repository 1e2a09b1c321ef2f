"""The words around the code stay true: rule numbers resolve, no citation leaves the repository.

Rule numbers are how code, tests, error messages and docs point at one another, so a number
cited anywhere must have its own section in ``docs/rules.md``. A docstring or comment that
points at a file the repository does not hold, or at a tracker entry, goes stale silently;
these tests make it fail loudly instead.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kingsbreakfast"
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"
THIS_FILE = Path(__file__).name

RULE_NUMBER = re.compile(r"\bR[0-9]{1,2}[a-z]?\b")
RULE_HEADING = re.compile(r"^#{2,6}\s+(R[0-9]+[a-z]?)\b")
OUTSIDE_FILE = re.compile(r"\b(?:RULES|DEVELOPERS)\.md\b")
TRACKER_NUMBER = re.compile(r"\bissues?\s*#?\s*\d+|\(#\d+\)|\bPR\s*#?\d+|(?<![\w&/])#\d+\b", re.I)
TEXT_SUFFIXES = {".py", ".md", ".po", ".pot", ".js", ".html", ".css", ".json", ".txt", ".toml"}


def python_files() -> list[Path]:
    return sorted([*SRC.rglob("*.py"), *(ROOT / "tests").rglob("*.py")])


def text_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
            yield path


def rule_headings(markdown: str) -> list[str]:
    return [m.group(1) for line in markdown.splitlines() if (m := RULE_HEADING.match(line))]


def prose(source: str) -> Iterator[tuple[int, str]]:
    """Docstrings and comments with their line numbers: the words, not the code."""
    for node in ast.walk(ast.parse(source)):
        # every bare string statement: module, class and function docstrings, and the
        # attribute docstrings written under an assignment
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def test_the_rules_reference_numbers_r1_to_r12_once_each() -> None:
    headings = rule_headings(RULES_DOC.read_text(encoding="utf-8"))
    assert len(headings) == len(set(headings)), f"a rule number has two sections: {headings}"
    assert {f"R{n}" for n in range(1, 13)} <= set(headings)


def test_every_rule_number_cited_in_the_package_has_a_section() -> None:
    sections = set(rule_headings(RULES_DOC.read_text(encoding="utf-8")))
    missing: dict[str, str] = {}
    tests = [path for path in sorted((ROOT / "tests").rglob("*.py")) if path.name != THIS_FILE]
    for path in [*text_files(SRC), *tests]:  # this file cites made-up numbers on purpose
        for number in RULE_NUMBER.findall(path.read_text(encoding="utf-8")):
            if number not in sections:
                missing.setdefault(number, str(path.relative_to(ROOT)))
    assert not missing, f"cited but not in docs/rules.md (number: first file): {missing}"


def test_the_variant_switches_are_documented_under_their_names() -> None:
    from kingsbreakfast.engine import Rules

    text = RULES_DOC.read_text(encoding="utf-8")
    variants = text.split("## Variants", 1)[1]
    for switch, default in Rules().to_dict().items():
        assert f"`{switch}`" in variants
        assert f"`{default}`" in variants


def test_no_docstring_or_comment_cites_a_file_outside_the_repository_or_a_tracker_entry() -> None:
    found = []
    for path in python_files():
        for line, words in prose(path.read_text(encoding="utf-8")):
            if OUTSIDE_FILE.search(words) or TRACKER_NUMBER.search(words):
                found.append(f"{path.relative_to(ROOT)}:{line}: {words.strip()[:80]}")
    assert not found, "\n".join(found)


def test_docs_and_settings_cite_only_what_the_repository_holds() -> None:
    pages = [ROOT / "README.md", ROOT / "pyproject.toml", *sorted(DOCS.glob("*.md"))]
    found = [
        str(page.relative_to(ROOT))
        for page in pages
        if OUTSIDE_FILE.search(text := page.read_text(encoding="utf-8")) or "/work/" in text
    ]
    assert not found


def test_the_architecture_page_names_only_modules_that_exist() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.py)`", text))
    assert named, "the architecture page should name the modules where each idea lives"
    missing = sorted(
        name
        for name in named
        if not (ROOT / name if name.startswith(("tests/", "benchmarks/")) else SRC / name).is_file()
    )
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"
    for package in sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()):
        assert f"{package}/" in text, f"docs/architecture.md does not place {package}/"


COMPILED = re.compile(
    r"^\s*(?:from|import)\s+(?:numba|jax)\b|@(?:uncounted|small)\b|\bnjit\(", re.M
)
"""Code that numba or JAX compiles: it cannot call the engine, so it may carry a copy."""


def opening_comment(script: str) -> str:
    """The ``//`` lines a browser module opens with: where it says what it is (a module that
    reckons by a rule cites it there)."""
    lines = script.splitlines()
    return "\n".join(line for line in lines[: next(
        (i for i, line in enumerate(lines) if not line.startswith("//")), len(lines)
    )])


def rule_copies() -> list[tuple[str, str]]:
    """(where, held equal by) of each row of the architecture page's table of copies."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Copies of the rules", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")]
    return [(cells[2], cells[4]) for cells in rows[1:] if len(cells) == 6]


def test_every_copy_of_the_rules_is_listed_with_a_test_that_exists() -> None:
    copies = rule_copies()
    assert len(copies) >= 5, "the table of copies of the rules is missing or unreadable"
    listed = " ".join(where for where, _ in copies)
    for _, tests in copies:
        named = re.findall(r"`(tests/[\w/]+\.py)`", tests)
        assert named, f"a copy of the rules without a test: {tests.strip()}"
        missing = [name for name in named if not (ROOT / name).is_file()]
        assert not missing, f"the table of copies names tests that do not exist: {missing}"
    compiled = [
        path.relative_to(SRC).as_posix()
        for path in sorted(SRC.rglob("*.py"))
        if COMPILED.search(path.read_text(encoding="utf-8"))
    ]
    c_files = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "benchmarks").rglob("*.c"))
    ]
    browser = [
        path.relative_to(SRC).as_posix()
        for path in sorted((SRC / "web" / "static").rglob("*.js"))
        if RULE_NUMBER.search(opening_comment(path.read_text(encoding="utf-8")))
    ]
    assert compiled and c_files and browser
    unlisted = [name for name in [*compiled, *c_files, *browser] if f"`{name}`" not in listed]
    assert not unlisted, f"copies of the rules not in docs/architecture.md's table: {unlisted}"


def test_the_architecture_page_gives_the_layers_of_the_contract() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in settings["tool"]["importlinter"]["contracts"]
                    if c["id"] == "layers")
    assert "ignore_imports" not in contract, "the layer contract declares no exception"
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    bullet = text.split("- **layers** — the rows above, top to bottom:", 1)[1].split(".", 1)[0]
    assert re.findall(r"`([^`]+)`", bullet) == contract["layers"]
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    named = {name.strip() for row in contract["layers"] for name in row.split("|")}
    assert packages - set(contract["exhaustive_ignores"]) <= named | {"__main__"}


def test_the_formatter_is_not_run_as_the_architecture_page_says() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert "`ruff format` is not used" in text
    runs = [ROOT / ".ci" / "run", *sorted((ROOT / "scripts").glob("*.sh"))]
    assert all(path.is_file() for path in runs)
    assert [path.name for path in runs if "ruff format" in path.read_text(encoding="utf-8")] == []


def test_the_readme_and_the_engine_page_lead_to_both_references() -> None:
    for page in (ROOT / "README.md", DOCS / "engine.md"):
        text = page.read_text(encoding="utf-8")
        assert "rules.md" in text and "architecture.md" in text, page.name


def test_the_checks_themselves_catch_what_they_are_for() -> None:
    stale = '"""Scores as in RULES.md (issue 4)."""\nx = 1  # see #12\n'
    assert [bool(OUTSIDE_FILE.search(w) or TRACKER_NUMBER.search(w)) for _, w in prose(stale)] \
        == [True, True]
    assert not TRACKER_NUMBER.search("colour #fff and seat 2 of 4; R12 ties")
    assert rule_headings("## R5 · Turns\n### R5a · Empty\nR6 in prose\n") == ["R5", "R5a"]
    assert RULE_NUMBER.findall("R5–R8, R7a, ruling R5b, R13; not XR1 or R2D2") == [
        "R5", "R8", "R7a", "R5b", "R13",
    ]
