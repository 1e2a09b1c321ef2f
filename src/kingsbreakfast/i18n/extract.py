"""A Babel extractor for the browser client's string table.

The browser keeps its English sentences in ``web/static/strings/en.json`` (id → text); the
server hands each browser the same table translated from our catalogues with the context
``web:<id>``. This extractor puts those entries into ``messages.pot`` next to the Python
messages, so translators work in one catalogue for the terminal and the browser alike.
Referenced from ``babel.cfg``.
"""

from __future__ import annotations

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
