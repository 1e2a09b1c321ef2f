"""Sending mail (verification and password-reset links) through the operator's SMTP server.

smtplib talks to the server synchronously, so each mail is sent in a worker thread of its
own bounded workshop (:class:`~.workshops.Workshop`): a slow or absent mail server never
blocks the event loop, and a flood of requests cannot queue mails without end (past the
workshop's places the mail is refused with 503 ``busy``). Without ``--smtp-host`` the site
has no :class:`Mailer` and every route that would mail answers 503 ``mail_unavailable``.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Final

from .lobby import LobbyError
from .workshops import Workshop

log = logging.getLogger("kingsbreakfast.server")

SMTP_TIMEOUT: Final = 15.0
"""Seconds one conversation with the mail server may take before the mail is given up."""


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Where mail goes out (``kingsbreakfast serve --smtp-host … --mail-from …
    --public-url …``)."""

    host: str
    port: int
    sender: str
    public_url: str
    """The site's address as players reach it (``https://cards.example``): links in mails
    start with it, never with what a request's Host header claims."""

    security: str = "none"
    """``none`` (a relay on this machine), ``starttls`` (upgrade, port 587) or ``tls``
    (TLS from the first byte, port 465); with either, the server's certificate is checked
    against the system's authorities and the host name."""
    user: str = ""
    password: str = field(default="", repr=False)
    """The log-in at the SMTP server (none without ``user``); never in a log line."""

    def link(self, path: str) -> str:
        return self.public_url.rstrip("/") + path


class Mailer:
    """Mails sent one at a time, off the event loop."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings
        self.workshop = Workshop("mail", workers=1, waiting=32, retry_after=5.0)
        self.sent = 0

    def message(self, to: str, subject: str, body: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = format_datetime(datetime.now(UTC))
        message["Message-ID"] = make_msgid(domain=self.settings.sender.rsplit("@", 1)[-1])
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(body)
        return message

    def _send(self, message: EmailMessage) -> None:
        s = self.settings
        context = ssl.create_default_context() if s.security != "none" else None
        smtp = (
            smtplib.SMTP_SSL(s.host, s.port, timeout=SMTP_TIMEOUT, context=context)
            if s.security == "tls" else smtplib.SMTP(s.host, s.port, timeout=SMTP_TIMEOUT)
        )
        with smtp:
            if s.security == "starttls":  # refused (SMTPNotSupportedError) if not offered
                smtp.starttls(context=context)
            if s.user:
                smtp.login(s.user, s.password)
            smtp.send_message(message)

    async def send(self, to: str, subject: str, body: str) -> None:
        """Send one mail; 503 ``mail_failed`` when the mail server refused or was away."""
        message = self.message(to, subject, body)
        try:
            await self.workshop.run(self._send, message)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("mail not sent: %s", type(error).__name__)
            raise LobbyError(
                503, "mail_failed", "the mail could not be sent: try again later",
                retry_after=60,
            ) from None
        self.sent += 1

    def close(self) -> None:
        self.workshop.close()


def unavailable() -> LobbyError:
    return LobbyError(
        503, "mail_unavailable", "this site sends no mail: ask its operator for help",
    )
