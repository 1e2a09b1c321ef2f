"""An account's e-mail address and a forgotten password, against a real ``kingsbreakfast
serve`` mailing through a real SMTP server on loopback, on SQLite and on PostgreSQL: the
verification link verifies, "forgot password" tells nothing about who has an account, a
reset link works once and logs every device out, and the mail limits hold (OWASP ASVS V2,
V3; docs/accounts.md)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingsbreakfast.server.accounts import FREE_FAILURES
from server.conftest import POSTGRES_URL
from server.kb_browser import PASSWORD, Browser
from server.kb_live import LiveServer
from server.kb_mailbox import Mailbox
from server.kb_schema import empty_database

NEW_PASSWORD = "a brand new breakfast"
_hosts = itertools.count(10)


def machine(server: LiveServer) -> Browser:
    """A browser on a loopback address of its own (the per-address limits stay apart)."""
    number = next(_hosts)
    return Browser(server, f"127.0.{number // 250}.{number % 250 + 2}")


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox
) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("recovery")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'games.db'}"
    elif POSTGRES_URL:
        url = empty_database(POSTGRES_URL)
    else:
        pytest.skip("KINGSBREAKFAST_TEST_POSTGRES_URL is not set (CI sets it)")
    live = LiveServer(url, log_path=folder / "server.log", extra=mailbox.options()).start()
    yield live
    live.stop()
    assert mailbox.empty(), "a mail nobody expected"


def with_verified_address(server: LiveServer, mailbox: Mailbox, name: str) -> Browser:
    player = machine(server)
    assert player.register(name)[0] == 201
    status, body = player.call(
        "PUT", "/api/me/email", {"address": f" {name}@Example.ORG ", "password": PASSWORD}
    )
    assert status == 200, body
    assert body["email"] == {"address": f"{name.lower()}@example.org", "verified": False}
    mail = mailbox.next()
    assert mail.to == [f"{name.lower()}@example.org"]
    reader = machine(server)
    reader.page()
    assert reader.call("POST", "/api/email/verify", {"token": mail.token})[0] == 200
    assert player.call("GET", "/api/me/email")[1]["email"]["verified"] is True
    return player


def forgot(
    server: LiveServer, who: str, browser: Browser | None = None
) -> tuple[int, object]:
    """The status and body of a "forgot password" (less the asking page's own CSRF value)."""
    asker = browser or machine(server)
    asker.page()
    status, body = asker.call("POST", "/api/password/forgot", {"who": who})
    if isinstance(body, dict):
        body.pop("csrf", None)
    return status, body


def test_the_verification_link_verifies_once_and_the_address_stays_private(
    server: LiveServer, mailbox: Mailbox
) -> None:
    ann = machine(server)
    assert ann.register("Ann")[0] == 201
    odd = ann.call("PUT", "/api/me/email", {"address": "ann at home", "password": PASSWORD})
    assert odd[1]["error"]["code"] == "bad_email"
    header = {"address": "a@b.c\r\nBcc: x@y.z", "password": PASSWORD}
    assert ann.call("PUT", "/api/me/email", header)[0] == 422
    for wrong in ({"address": "ann@example.org"}, {"address": "", "password": "not it"}):
        refused = ann.call("PUT", "/api/me/email", wrong)  # a stolen session is not enough
        assert (refused[0], refused[1]["error"]["code"]) == (403, "bad_password_old")
    german = ann.call("PUT", "/api/me/email",
                      {"address": "ann@old.example", "language": "de", "password": PASSWORD})
    assert german[0] == 200
    assert mailbox.next().message["Subject"] == "Bestätige deine E-Mail-Adresse für King Lui"
    hungarian = ann.call("PUT", "/api/me/email",
                         {"address": "Ann@Example.org", "password": PASSWORD},
                         {"accept-language": "hu-HU,hu;q=0.9"})
    assert hungarian[0] == 200
    mail = mailbox.next()
    assert mail.message["Subject"] == "Erősítsd meg az e-mail-címedet a King's Breakfast játékhoz"
    assert mail.to == ["ann@example.org"] and mail.message["To"] == "ann@example.org"
    (link,) = mail.links
    assert link.startswith("https://cards.example/verify-email#")
    assert PASSWORD not in mail.text and "Ann" in mail.text and "old.example" not in mail.text
    stranger = machine(server)
    stranger.page()
    assert stranger.call("POST", "/api/email/verify", {"token": "x" * 43})[0] == 400
    assert stranger.call("POST", "/api/email/verify", {"token": mail.token})[0] == 200
    again = stranger.call("POST", "/api/email/verify", {"token": mail.token})
    assert again[0] == 400 and again[1]["error"]["code"] == "bad_link"
    assert ann.call("GET", "/api/me/email")[1]["email"] == {
        "address": "ann@example.org", "verified": True,
    }
    moved = {"address": "ann@new.example", "password": PASSWORD}
    assert ann.call("PUT", "/api/me/email", moved)[0] == 200
    both = sorted((mailbox.next(), mailbox.next()), key=lambda m: m.to)
    assert [m.to for m in both] == [["ann@example.org"], ["ann@new.example"]]
    notice = both[0]  # the verified address is told it is not the account's any more
    assert notice.message["Subject"] == "Az e-mail-címed megváltozott a King's Breakfast játékban"
    assert notice.links == [] and "new.example" not in notice.text
    seen = [stranger.call("GET", "/api/players/Ann")[1], ann.call("GET", "/api/account")[1]]
    assert "example.org" not in str(seen)
    assert stranger.call("GET", "/api/me/email")[0] == 401


def test_forgot_password_answers_the_same_whoever_is_asked_for(
    server: LiveServer, mailbox: Mailbox
) -> None:
    with_verified_address(server, mailbox, "Bea")
    unverified = machine(server)
    assert unverified.register("Cid")[0] == 201
    cid = {"address": "cid@example.org", "password": PASSWORD}
    assert unverified.call("PUT", "/api/me/email", cid)[0] == 200
    mailbox.next()  # Cid's verification mail, never opened
    answers = [forgot(server, who) for who in (
        "Nobody at all", "nobody@example.org", "Cid", "cid@example.org", "not an address@",
    )]
    known = forgot(server, "bea@example.org")
    assert answers == [known] * len(answers)
    assert known[0] == 202
    mail = mailbox.next()  # only Bea's (a verified address) comes
    assert mail.to == ["bea@example.org"]
    (link,) = mail.links
    assert link.startswith("https://cards.example/reset#")
    # a fence: another reset mail comes next, so none went to Cid or to nobody
    forgot(server, "Bea")
    assert mailbox.next().to == ["bea@example.org"]


def test_a_reset_link_works_once_and_logs_every_device_out(
    server: LiveServer, mailbox: Mailbox
) -> None:
    dan = with_verified_address(server, mailbox, "Dan")
    phone = machine(server)
    assert phone.login("Dan")[0] == 200
    forgetful = machine(server)  # the owner guessed until held back, then asked
    for n in range(FREE_FAILURES + 1):
        assert forgetful.login("Dan", f"was it this one {n}")[0] == 401
    assert forgetful.login("Dan")[0] == 401  # held back even with the right one
    assert forgot(server, "  DAN ")[0] == 202
    token = mailbox.next().token
    stranger = machine(server)
    stranger.page()
    short = stranger.call("POST", "/api/password/reset", {"token": token, "password": "short"})
    assert short[1]["error"]["code"] == "bad_password"  # refused before the link is spent
    reset = stranger.call("POST", "/api/password/reset",
                          {"token": token, "password": NEW_PASSWORD})
    assert reset[0] == 200
    assert NEW_PASSWORD not in str(reset[1]) and "kb_session" not in stranger.jar
    for old in (dan, phone):  # every old session ends
        status, body = old.call("GET", "/api/me/games")
        assert (status, body["error"]["code"]) == (401, "not_logged_in")
    notice = mailbox.next()  # the verified address is told, with no link
    assert notice.to == ["dan@example.org"] and notice.links == []
    assert notice.message["Subject"] == "Your King's Breakfast password was changed"
    twice = stranger.call("POST", "/api/password/reset",
                          {"token": token, "password": "yet another one"})
    assert twice[0] == 400 and twice[1]["error"]["code"] == "bad_link"
    assert machine(server).login("Dan")[0] == 401
    assert forgetful.login("Dan", NEW_PASSWORD)[0] == 200  # the hold ended with the reset


def test_the_reset_mails_are_limited_per_account_and_per_asker(
    server: LiveServer, mailbox: Mailbox
) -> None:
    with_verified_address(server, mailbox, "Eve")
    with_verified_address(server, mailbox, "Fay")
    for _ in range(3):
        assert forgot(server, "Eve")[0] == 202
        assert mailbox.next().to == ["eve@example.org"]
    assert forgot(server, "eve@example.org")[0] == 202  # the same answer, and no mail:
    forgot(server, "Fay")  # the next mail to come is Fay's
    assert mailbox.next().to == ["fay@example.org"]
    asker = machine(server)
    answers = [forgot(server, "Nobody at all", asker)[0] for _ in range(6)]
    assert answers == [202] * 5 + [429]
    assert forgot(server, "Fay", asker)[0] == 429  # per address, whoever is asked for


@pytest.mark.parametrize("server", ["postgresql"], indirect=True)  # SQLite: one process
def test_two_processes_count_the_asking_together(
    request: pytest.FixtureRequest, server: LiveServer, mailbox: Mailbox,
    tmp_path: Path,
) -> None:
    """On PostgreSQL every process counts one client address's asking together: five from
    one machine spread over two processes, then the sixth is refused on either."""
    other = LiveServer(server.db_url, log_path=tmp_path / "other.log",
                       extra=mailbox.options()).start()
    try:
        host = machine(server).address
        here, there = Browser(server, host), Browser(other, host)
        answers = [forgot(server, "Nobody at all", (here, there)[n % 2])[0] for n in range(6)]
        assert answers == [202] * 5 + [429]
        assert forgot(other, "Nobody at all", there)[0] == 429
    finally:
        other.stop()
