"""The game compiled by numba: the rules, the built-in seats' policies, the card counter,
the master bot's network, the chef's search, and the loops that drive them over many games.

Below the bots (``pyproject.toml``'s layer contract): it reads the engine's constants and
the observation layout of :mod:`kingsbreakfast.tensor`, and nothing above them, so a bot
(the chef, :mod:`kingsbreakfast.bots.chef`) may play the compiled search and a simulator
(:mod:`kingsbreakfast.sim`) may drive the compiled games. Each module compiles its
functions on first use and keeps them in numba's cache (``NUMBA_CACHE_DIR``); nothing is
compiled, nor numba imported, when this package is imported.

:mod:`.games` holds the record of the games and the random streams, :mod:`.rules` the one
compiled copy of the rules (docs/architecture.md, *Copies of the rules*), held equal to the
engine by the differential tests in ``tests/sim``.
"""
