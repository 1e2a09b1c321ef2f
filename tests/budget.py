"""How many examples a property test draws, relative to the active hypothesis profile.

A property's budget is written for the default profile (``max_examples=100``); the
``mutation`` profile (see tests/conftest.py and docs/testing.md) shrinks every budget in
proportion, because a mutation run executes the engine's tests once per mutant and two
shared cores cannot afford the full budget each time. The full budget stays the contract of
an ordinary run.
"""

from __future__ import annotations

from hypothesis import settings

DEFAULT_MAX_EXAMPLES = 100


def examples(full: int) -> int:
    """``full`` under the default profile, scaled down (never below 5) under a smaller one."""
    current = settings.default.max_examples
    if current >= DEFAULT_MAX_EXAMPLES:
        return full
    return max(5, full * current // DEFAULT_MAX_EXAMPLES)
