"""Typed errors a player can read.

Every error carries a stable ``code`` and ``params`` so that a user interface can show it in
the player's language; ``str(error)`` is the English sentence, naming the rule it enforces.
"""

from __future__ import annotations

from typing import Any


class KingsBreakfastError(Exception):
    """Base of every error the project reports to a person, in every layer.

    It lives in the engine because the engine is the one package every other depends on:
    the lobby's, the wire protocol's, the storage's and the command line's errors derive
    from it and add only what their transport needs (an HTTP status, a close code), so a
    code and its params are translated in one place (``kingsbreakfast.i18n.errors``).
    """

    code: str = "error"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params

    @property
    def message(self) -> str:
        return str(self.args[0])


class SetupError(KingsBreakfastError, ValueError):
    """A game that cannot be set up: wrong player count, wrong deck, unknown variant."""

    code = "bad_setup"


class IllegalActionError(KingsBreakfastError, ValueError):
    """An action the rules do not allow now; the state is left exactly as it was."""

    code = "illegal_action"


class ActionFormatError(KingsBreakfastError, ValueError):
    """Text or a record object that does not describe any action at all."""

    code = "bad_action"


class RecordError(KingsBreakfastError, ValueError):
    """An invalid ``kingsbreakfast/1`` record.

    ``action_index`` is the 0-based index of the first offending action, or None when the
    fault lies outside the actions (the record format's ``replay`` contract).
    """

    code = "bad_record"

    def __init__(
        self,
        message: str,
        code: str | None = None,
        action_index: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message, code, **params)
        self.action_index = action_index
