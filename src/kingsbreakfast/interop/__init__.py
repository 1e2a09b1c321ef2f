"""King's Breakfast for the tools game-AI researchers already use.

- :mod:`.openspiel` registers the pyspiel game ``python_kings_breakfast`` (extra ``openspiel``);
- :mod:`.pettingzoo` is the AEC environment ``kings_breakfast_v0`` (extra ``rl``);
- :mod:`.gymnasium` is the single-agent ``KingsBreakfast-v0`` against bots (extra ``rl``);
- :mod:`.encoding` is the one tensor of a player's view all three share (standard library).

Every adapter plays through the rules engine and only translates; none re-implements a rule.
Importing this package imports none of the heavy optional packages.
"""
