"""The adapters' one line when their extra is missing: which extra, and the pip command.

Imported first by each adapter module, so that ``import kingsbreakfast.interop.openspiel``
without open-spiel is a sentence a researcher can act on rather than a bare
``ModuleNotFoundError: No module named 'pyspiel'`` from deep inside the module.
"""

from __future__ import annotations

import importlib


class MissingExtraError(ModuleNotFoundError):
    """A :class:`ModuleNotFoundError` (code that catches that still does) with the fix."""


def require_extra(module: str, extra: str, *packages: str) -> None:
    """Raise :class:`MissingExtraError` when any of ``packages`` cannot be imported."""
    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError as error:
            raise MissingExtraError(
                f"{module} needs {package}, from the '{extra}' extra: "
                f"pip install 'kingsbreakfast[{extra}]'",
                name=package,
            ) from error
