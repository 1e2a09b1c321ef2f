"""The screens in the current language, and a switch to another one mid-game.

Key bindings are declared when a class is defined, before anyone has chosen a language, so
their descriptions are marked with ``N_`` and translated here when a screen is mounted or
the language changes. The English originals are remembered on the node, so switching
twice never translates a translation.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from textual.binding import Binding
from textual.dom import DOMNode

from kingsbreakfast.i18n import LANGUAGES, _, current_language, language, set_language

_ORIGINALS = "_kb_binding_descriptions"


def translate_bindings(node: DOMNode) -> None:
    """Give ``node``'s key bindings their descriptions in the current language."""
    table = node._bindings.key_to_bindings
    originals: dict[tuple[str, str], str] = getattr(node, _ORIGINALS, None) or {}
    if not originals:
        for key, bindings in table.items():
            for binding in bindings:
                originals[(key, binding.action)] = binding.description
        setattr(node, _ORIGINALS, originals)
    for key, bindings in table.items():
        table[key] = [_translated(key, binding, originals) for binding in bindings]


def _translated(key: str, binding: Binding, originals: dict[tuple[str, str], str]) -> Binding:
    english = originals.get((key, binding.action), binding.description)
    return replace(binding, description=_(english) if english else english)


def app_language(node: DOMNode) -> contextlib.AbstractContextManager[str]:
    """Within the block, the language the app speaks now (its ``language_code``).

    The language is a context variable, and each of Textual's message handlers runs in its
    node's own task, which keeps the context the node was mounted with: a widget redrawing
    itself on a resize would speak the language of the game's start, not the one ``L``
    switched to, without this."""
    code = getattr(node.app, "language_code", None)
    if isinstance(code, str):
        return language(code)
    return contextlib.nullcontext(current_language())


def next_language() -> str:
    """Switch to the next of our languages (in their fixed order) and return its code."""
    order = list(LANGUAGES)
    following = order[(order.index(current_language()) + 1) % len(order)]
    return set_language(following)


class TranslatedBindings:
    """Mixin for screens and apps: their key bindings in the current language once mounted.

    Textual calls every ``on_mount`` along the class hierarchy, so a screen's own
    ``on_mount`` still runs as well.
    """

    def on_mount(self) -> None:
        assert isinstance(self, DOMNode)
        translate_bindings(self)
