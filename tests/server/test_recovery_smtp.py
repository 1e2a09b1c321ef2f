"""The site's mail through an SMTP server that wants TLS and a log-in, as most do that are
not on the same machine: ``kingsbreakfast serve --smtp-security starttls|tls`` with
``KINGSBREAKFAST_SMTP_USER``/``_PASSWORD``, against aiosmtpd holding a certificate made
here (trusted through ``SSL_CERT_FILE``, as an operator's own authority would be)."""

from __future__ import annotations

import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from server.kb_browser import PASSWORD, Browser
from server.kb_live import LiveServer
from server.kb_mailbox import Mailbox

USER, SECRET = "kingsbreakfast", "mail-server-secret"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("smtp-tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


def check_login(server: Any, session: Any, envelope: Any, mechanism: str,
                auth_data: Any) -> AuthResult:
    good = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        USER.encode(), SECRET.encode()
    )
    return AuthResult(success=good)


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


@pytest.fixture
def served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, certificate: tuple[Path, Path]
) -> Iterator[Any]:
    """Start a mailbox with the given settings and a server sending to it."""
    started: list[Any] = []
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))

    def start(security: str, password: str, **settings: Any) -> tuple[Mailbox, LiveServer]:
        box = Mailbox(authenticator=check_login, auth_required=True, **settings).start()
        started.append(box)
        monkeypatch.setenv("KINGSBREAKFAST_SMTP_USER", USER)
        monkeypatch.setenv("KINGSBREAKFAST_SMTP_PASSWORD", password)
        live = LiveServer(
            f"sqlite:///{tmp_path / f'{len(started)}.db'}", log_path=tmp_path / "server.log",
            extra=(*box.options(), "--smtp-security", security),
        ).start()
        started.append(live)
        return box, live

    yield start
    for thing in reversed(started):
        thing.stop()


def set_address(live: LiveServer, name: str) -> tuple[int, Any]:
    player = Browser(live)
    assert player.register(name)[0] == 201
    return player.call(
        "PUT", "/api/me/email", {"address": f"{name.lower()}@example.org", "password": PASSWORD}
    )


def test_starttls_and_a_log_in(served: Any, certificate: tuple[Path, Path]) -> None:
    box, live = served("starttls", SECRET, tls_context=server_context(certificate),
                       require_starttls=True)
    assert set_address(live, "Ann")[0] == 200
    assert box.next().to == ["ann@example.org"]


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_tls_from_the_first_byte(served: Any, certificate: tuple[Path, Path]) -> None:
    # aiosmtpd counts only STARTTLS as TLS for AUTH; here every byte is TLS already
    box, live = served("tls", SECRET, ssl_context=server_context(certificate),
                       auth_require_tls=False)
    assert set_address(live, "Bea")[0] == 200
    assert box.next().to == ["bea@example.org"]


def test_no_mail_goes_without_the_tls_or_the_log_in_the_server_wants(
    served: Any, certificate: tuple[Path, Path]
) -> None:
    for security, password in (("none", SECRET), ("starttls", "a wrong password")):
        box, live = served(security, password, tls_context=server_context(certificate),
                           require_starttls=True, auth_require_tls=True)
        status, body = set_address(live, f"Cid{len(password)}")
        assert (status, body["error"]["code"]) == (503, "mail_failed"), security
        assert box.empty()


def test_serve_refuses_mail_settings_that_cannot_work() -> None:
    """Before any port opens: a mail server without a sender or a public address for the
    links, and a password that would go to another machine in clear."""
    import typer

    from kingsbreakfast.cli.serve_commands import ServeSettings, SmtpSecurity, check

    sending = {"smtp_host": "mail.example", "mail_from": "noreply@cards.example",
               "public_url": "https://cards.example"}
    for wrong in ({"mail_from": ""}, {"public_url": "cards.example"}, {"smtp_port": 0},
                  {"smtp_user": USER}):
        with pytest.raises(typer.Exit):
            check(ServeSettings(**{**sending, **wrong}))
    check(ServeSettings(**sending, smtp_user=USER, smtp_security=SmtpSecurity.STARTTLS))
    check(ServeSettings(**{**sending, "smtp_host": "127.0.0.1"}, smtp_user=USER))
