"""A Babel extractor for the browser client's string table.

The browser keeps its English sentences in ``web/static/strings/en.json`` (id → text); the
server hands each browser the same table translated from our catalogues with the context
``web:<id>``. This extractor puts those entries into ``messages.pot`` next to the Python
messages, so translators work in one catalogue for the terminal and the browser alike.
Referenced from ``babel.cfg``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Collection, Iterator, Mapping
from typing import IO


def web_strings(
    fileobj: IO[bytes],
    keywords: Mapping[str, object],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Yield each entry of the JSON table as ``pgettext("web:<id>", text)``."""
    text = fileobj.read().decode("utf-8")
    table = json.loads(text)
    lines = text.splitlines()
    for key, english in table.items():
        number = next(
            (i + 1 for i, line in enumerate(lines) if f'"{key}"' in line), 1
        )
        yield number, "pgettext", (f"web:{key}", english), [f"browser string {key}"]


HELP_CALLS = frozenset({"Option", "Argument", "Typer", "command", "callback"})
"""The typer calls whose ``help=`` text is shown by ``--help``."""


def cli_help(
    fileobj: IO[bytes],
    keywords: Mapping[str, object],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """The command line's messages: every ``_()`` as usual, and besides them what ``--help``
    shows, which typer takes from plain strings: each ``help=`` of an option, an argument or
    the app, and the docstring of each function made a command.

    The command line translates those texts when it is built (``cli.main.build_command``),
    so one catalogue serves the help and the rest of the program.
    """
    import ast
    import inspect

    from babel.messages.extract import extract_python

    source = fileobj.read()
    # babel's own extractor, whose annotations are narrower than what it yields
    yield from extract_python(  # type: ignore[misc]
        io.BytesIO(source), keywords, comment_tags, options  # type: ignore[arg-type]
    )
    tree = ast.parse(source)
    commands: set[str] = set()
    for node in ast.walk(tree):
        # app.command(...)(function) registers a command; so does @app.command()
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Call)
                and isinstance(node.func.func, ast.Attribute)
                and node.func.func.attr in ("command", "callback")
                and node.args and isinstance(node.args[0], ast.Name)):
            commands.add(node.args[0].id)
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
            and d.func.attr in ("command", "callback") for d in node.decorator_list
        ):
            commands.add(node.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else (
                node.func.id if isinstance(node.func, ast.Name) else "")
            if name in HELP_CALLS:
                for keyword in node.keywords:
                    value = keyword.value
                    if (keyword.arg == "help" and isinstance(value, ast.Constant)
                            and isinstance(value.value, str)):
                        yield value.lineno, "", value.value, ["command-line help"]
        elif isinstance(node, ast.FunctionDef) and node.name in commands:
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.lineno, "", inspect.cleandoc(doc), ["command-line help"]
