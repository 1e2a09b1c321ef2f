"""The view tensor's layout, as the project defines it once: the fields in order, each with
its size and scale. The JAX observation is written from this table, never from a copy."""

from __future__ import annotations

from kingsbreakfast.tensor import FIELDS
from kingsbreakfast.tensor import OBS_SIZE as SIZE

__all__ = ["FIELDS", "SIZE"]
