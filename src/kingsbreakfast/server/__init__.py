"""Play online: the authoritative table actors, their wire protocol, storage and ASGI app.

The server is the only place that holds a game's :class:`~kingsbreakfast.engine.State`; every
client, human or bot, is sent a :class:`~kingsbreakfast.engine.View` built for its own seat.
The deck, the remaining deck and any random generator stay here until the game is over.

Import :func:`create_app` from :mod:`kingsbreakfast.server.app` (it pulls in FastAPI, so this
package's ``__init__`` stays free of web imports).
"""
