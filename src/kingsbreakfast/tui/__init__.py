"""The terminal game: full-screen (Textual) and plain line-by-line play.

Only ``app``, ``screens``, ``widgets`` and ``replay_app`` import Textual; the plain mode and
everything it uses work without it.
"""
