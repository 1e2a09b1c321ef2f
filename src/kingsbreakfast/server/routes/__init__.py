"""The app's routes, one module per area, each an :class:`fastapi.APIRouter` that
:func:`~kingsbreakfast.server.app.create_app` includes: the lobby's tables
(:mod:`.tables`), what a seated player does beside moving (:mod:`.at_table`: chat, rematch,
hint), the play socket (:mod:`.play`), accounts and ratings (:mod:`.accounts`), the client's
strings and pages (:mod:`.pages`) and the operator's view (:mod:`.health`).

The routes reach the process's parts (registry of tables, site, limits) through the
dependencies of :mod:`.deps`, read from the app's state, so no route is a closure.
"""
