"""One cookie read from the header (``sessions.cookie``) equals what Starlette's full parse
of every cookie gives for that name, whatever else the header holds (a guest's browser sends
a seat cookie for each table it played)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import HTTPConnection, cookie_parser

from kingsbreakfast.server.sessions import CSRF_COOKIE, SESSION_COOKIE, cookie, seat_cookie

NAMES = st.sampled_from([SESSION_COOKIE, CSRF_COOKIE, "kb_seat_abc", "kb_seat_ab", "kb_lang",
                         " kb_session", "xkb_session", "kb_session2", ""])
VALUES = st.text(alphabet=st.sampled_from('abcXYZ09-_="\\; \t,'), max_size=12)


def connection(header: str | None) -> HTTPConnection:
    headers = [] if header is None else [(b"cookie", header.encode("latin-1"))]
    return HTTPConnection({"type": "http", "headers": headers})


WANTED = st.sampled_from([SESSION_COOKIE, CSRF_COOKIE, "kb_seat_abc", "kb_seat_ab", "kb_lang"])


@given(st.lists(st.tuples(NAMES, VALUES), max_size=8), st.sampled_from(["; ", ";", " ; "]),
       WANTED)
def test_one_cookie_reads_as_the_full_parse(pairs: list[tuple[str, str]], separator: str,
                                            wanted: str) -> None:
    header = separator.join(f"{name}={value}" for name, value in pairs)
    assert cookie(connection(header), wanted) == cookie_parser(header).get(wanted)


def test_many_seat_cookies_and_the_one_asked_for() -> None:
    header = "; ".join(f"kb_seat_t{n}=token{n}" for n in range(300)) + '; kb_lang="de"'
    conn = connection(header)
    assert seat_cookie(conn, "t123") == "token123"
    assert cookie(conn, "kb_lang") == "de"  # quoted values are unquoted, as Starlette does
    assert cookie(conn, SESSION_COOKIE) is None
    assert seat_cookie(conn, "t300") is None


def test_no_header_and_a_later_cookie_of_the_same_name() -> None:
    assert cookie(connection(None), SESSION_COOKIE) is None
    assert cookie(connection("kb_session=a; kb_session=b"), SESSION_COOKIE) == "b"
