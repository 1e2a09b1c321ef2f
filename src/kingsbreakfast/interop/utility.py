"""What a finished game is worth to each seat: :mod:`kingsbreakfast.tensor.utility`, defined
there once for the adapters and the compiled vector environment alike."""

from __future__ import annotations

from kingsbreakfast.tensor.utility import MAX_POINTS, UTILITIES, bounds, check_utility, utilities

__all__ = ["MAX_POINTS", "UTILITIES", "bounds", "check_utility", "utilities"]
