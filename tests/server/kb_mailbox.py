"""A real SMTP server on a free loopback port (aiosmtpd): what the game server mails arrives
here, is parsed, and waits in a queue for the test to read."""

from __future__ import annotations

import queue
import re
import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from server.kb_live import free_port

LINK = re.compile(r"https?://\S+")


@dataclass(frozen=True)
class Mail:
    to: list[str]
    message: EmailMessage
    at: float = field(default_factory=time.perf_counter)
    """When it arrived (for the latency benchmarks)."""

    @property
    def text(self) -> str:
        body = self.message.get_body(("plain",))
        assert body is not None
        return str(body.get_content())  # type: ignore[attr-defined]

    @property
    def links(self) -> list[str]:
        return LINK.findall(self.text)

    @property
    def token(self) -> str:
        """The token in the mail's one link (its fragment)."""
        (link,) = self.links
        return link.split("#", 1)[1]


class _Handler:
    def __init__(self, box: queue.Queue[Mail]) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.box.put(Mail(list(envelope.rcpt_tos), message))
        return "250 OK"


class Mailbox:
    """``settings`` go to aiosmtpd's server as they are (TLS, a required log-in)."""

    def __init__(self, **settings: Any) -> None:
        self.box: queue.Queue[Mail] = queue.Queue()
        self.port = free_port()
        self._controller = Controller(
            _Handler(self.box), hostname="127.0.0.1", port=self.port, **settings
        )

    def start(self) -> Mailbox:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def next(self, timeout: float = 30.0) -> Mail:
        """The next mail to arrive (a failure when none comes within ``timeout``)."""
        return self.box.get(timeout=timeout)

    def empty(self) -> bool:
        return self.box.empty()

    def options(self, public_url: str = "https://cards.example") -> tuple[str, ...]:
        """``kingsbreakfast serve``'s options that send mail here."""
        return ("--smtp-host", "127.0.0.1", "--smtp-port", str(self.port),
                "--mail-from", "noreply@cards.example", "--public-url", public_url)
