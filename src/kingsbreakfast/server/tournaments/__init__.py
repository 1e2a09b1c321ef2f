"""Tournaments: Swiss rounds and arenas played at ordinary tables.

The pure parts (who sits with whom, how a finished game scores, the standings) are
:mod:`.swiss`, :mod:`.arena` and :mod:`.standings`, and know nothing of the server; the
stored parts are :mod:`.models` and :mod:`.store`; :mod:`.director` advances every running
tournament from what is stored, so any process can take over after another one died.
docs/tournaments.md states the pairing, the scoring and the tie-breaks.
"""
