"""What a route needs from the app it serves: the registry of tables, the site (accounts,
seats held by cookie), the socket gate and the table openers' allowance. Each is set on
``app.state`` once by :func:`~kingsbreakfast.server.app.create_app`.

The dependencies are coroutines although they only read an attribute: FastAPI runs a plain
function dependency in a worker thread, a hand-off (and a wait for the interpreter lock)
on every request and play socket, for nothing."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import Depends
from fastapi.requests import HTTPConnection

from ..limits import Allowance, SocketGate
from ..master import Master
from ..site import Site


async def _master(connection: HTTPConnection) -> Master:
    return cast(Master, connection.app.state.master)


async def _site(connection: HTTPConnection) -> Site:
    return cast(Site, connection.app.state.site)


async def _gate(connection: HTTPConnection) -> SocketGate:
    return cast(SocketGate, connection.app.state.gate)


async def _openers(connection: HTTPConnection) -> Allowance:
    return cast(Allowance, connection.app.state.openers)


MasterDep = Annotated[Master, Depends(_master)]
SiteDep = Annotated[Site, Depends(_site)]
GateDep = Annotated[SocketGate, Depends(_gate)]
OpenersDep = Annotated[Allowance, Depends(_openers)]


def address(client: Any) -> str:
    """The peer's address (the proxy's view of it when uvicorn trusts the proxy)."""
    return str(client.host) if client is not None else "unknown"
