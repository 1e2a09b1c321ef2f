"""Credentials carried by cookies: the account session, seat tokens, and the CSRF check.

A session cookie is a random id signed with the site key (so a forged cookie is refused
without a database read) and stored server-side only as its SHA-256 digest (so logging out,
or changing the password, ends it everywhere). Cookies are HttpOnly (no script reads them),
SameSite=Lax, and Secure whenever the request came over TLS. A seat a logged-in player holds
has a token derived from the site key, the account and the table: any device the player logs
in from can act for it, and no token is ever stored in clear.

CSRF: every state-changing call that a cookie authenticates must repeat, in the
``X-CSRF-Token`` header, the value of the ``kb_csrf`` cookie (double submit: another site can
make the browser send the cookie, but cannot read it to write the header), and must not come
from another origin. Calls that carry their seat token in a header need no such check: a
browser never adds that header on its own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from .lobby import LobbyError

SESSION_COOKIE: Final = "kb_session"
CSRF_COOKIE: Final = "kb_csrf"
CSRF_HEADER: Final = "x-csrf-token"
SEAT_COOKIE: Final = "kb_seat_"
SESSION_SECONDS: Final = 30 * 24 * 3600
SEAT_COOKIE_SECONDS: Final = 60 * 24 * 3600


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


class Keys:
    """What the site key signs and derives."""

    def __init__(self, key: str) -> None:
        self._key = key.encode("utf-8")

    def _mac(self, purpose: str, value: str) -> str:
        return hmac.new(self._key, f"{purpose}\n{value}".encode(), hashlib.sha256).hexdigest()

    def sign(self, value: str) -> str:
        return f"{value}.{self._mac('session', value)[:32]}"

    def unsign(self, signed: str | None) -> str | None:
        if not signed or "." not in signed or len(signed) > 200:
            return None
        value, mac = signed.rsplit(".", 1)
        if not hmac.compare_digest(mac, self._mac("session", value)[:32]):
            return None
        return value

    def account_seat_token(self, account_id: int, game_id: str) -> str:
        """The token of the seat an account holds at a table (one seat per account)."""
        return self._mac("seat", f"{account_id}:{game_id}")[:43]

    def address_digest(self, address: str) -> str:
        """What the boosting review keeps of where an account sat down from: equal for one
        address, and no way back to it without the site key."""
        return self._mac("address", address)[:32]

    def rematch_token(self, game_id: str, old_token_hash: str) -> str:
        """A guest's token at a rematch table, from the digest of their old seat's token:
        the server can make it for every seat at once, and hands it only to whoever shows
        the old token."""
        return self._mac("rematch", f"{game_id}:{old_token_hash}")[:43]


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def _secure(connection: HTTPConnection) -> bool:
    return connection.url.scheme in ("https", "wss")


def set_cookie(
    response: Response, connection: HTTPConnection, name: str, value: str, max_age: int,
    *, http_only: bool = True, path: str = "/",
) -> None:
    response.set_cookie(
        name, value, max_age=max_age, path=path, httponly=http_only, samesite="lax",
        secure=_secure(connection),
    )


def clear_cookie(
    response: Response, connection: HTTPConnection, name: str, path: str = "/"
) -> None:
    response.delete_cookie(
        name, path=path, httponly=True, samesite="lax", secure=_secure(connection)
    )


PLAY_NOW_PATH: Final = "/api/play-now"
"""Where a seat cookie also goes while its play-now table waits for strangers: asking again
must find the seat this browser already waits in."""


def seat_paths(table_id: str) -> tuple[str, str]:
    """Where a guest's seat cookie for a table goes: that table's calls and its socket, and
    nowhere else. A guest who has played a hundred tables sends each seat cookie only to
    its own table, not all hundred with every request (which would also run into the
    browser's cookie limit per site and the proxy's header limit)."""
    return f"/api/tables/{table_id}", f"/ws/tables/{table_id}"


def set_seat_cookie(
    response: Response, connection: HTTPConnection, table_id: str, token: str,
    waiting: float | None = None,
) -> None:
    """The seat's cookies; with ``waiting`` (the seconds a play-now table waits for
    strangers) one for play now too, which expires soon after the wait is over."""
    for path in seat_paths(table_id):
        set_cookie(response, connection, seat_cookie_name(table_id), token,
                   SEAT_COOKIE_SECONDS, path=path)
    if waiting is not None:
        set_cookie(response, connection, seat_cookie_name(table_id), token,
                   int(waiting) + 60, path=PLAY_NOW_PATH)


def clear_seat_cookie(response: Response, connection: HTTPConnection, table_id: str) -> None:
    """Every cookie of the seat, and one a browser may hold for the whole site."""
    for path in (*seat_paths(table_id), PLAY_NOW_PATH, "/"):
        clear_cookie(response, connection, seat_cookie_name(table_id), path)


def csrf_value(request: Request) -> tuple[str, bool]:
    """The request's CSRF value, or a fresh one (True) to set. Scripts may read it (that is
    its point); it grants nothing by itself."""
    value = request.cookies.get(CSRF_COOKIE)
    if not value or len(value) > 100:
        return secrets.token_urlsafe(24), True
    return value, False


def set_csrf(response: Response, request: Request, value: str) -> None:
    set_cookie(response, request, CSRF_COOKIE, value, SESSION_SECONDS, http_only=False)


def same_origin(connection: HTTPConnection) -> bool:
    """No Origin header (not a browser's cross-site call), or the server's own."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    host = connection.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


def check_csrf(request: Request) -> None:
    """Refuse a state-changing call a cookie authenticates unless it proves it came from
    our own page."""
    cookie = request.cookies.get(CSRF_COOKIE) or ""
    header = request.headers.get(CSRF_HEADER) or ""
    if not same_origin(request) or not cookie or not hmac.compare_digest(cookie, header):
        raise LobbyError(
            403, "csrf_failed",
            "this call must come from the game's own page (reload it and try again)",
        )


def seat_cookie_name(game_id: str) -> str:
    return SEAT_COOKIE + game_id


def seat_cookie(connection: HTTPConnection, game_id: str) -> str | None:
    value = connection.cookies.get(seat_cookie_name(game_id))
    return value if value and len(value) <= 64 else None
