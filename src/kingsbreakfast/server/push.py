"""Web Push (RFC 8030) with VAPID (RFC 8292), through pywebpush.

The site's VAPID key pair is derived from a secret every process of the site shares (the
``vapid`` row of the site keys, made once at the first start), so every process signs as the
same sender and a browser's subscription works whichever process pushes. Each message is
encrypted to the browser's own keys (RFC 8291, ``aes128gcm``): the push service carries it
without reading it. pywebpush posts synchronously, so each push runs in a worker thread of
a bounded workshop, like :mod:`.mail`.

An endpoint is an address a player hands the server, which then posts to it: unless the
operator allows local endpoints (a push service of their own, or a test), it must be
``https`` on a public name, never an IP literal, ``localhost`` or a private address.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import socket
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from .lobby import LobbyError
from .notice_store import Device
from .workshops import Workshop

log = logging.getLogger("kingsbreakfast.server")

PUSH_TIMEOUT: Final = 10.0
TTL: Final = 24 * 3600
"""Seconds a push service keeps a message for a device that is off."""
MAX_ENDPOINT: Final = 1024
_ORDER: Final = int("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16)
"""The order of P-256's group: a private key is a number below it."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class PushSettings:
    contact: str = "mailto:noreply@localhost"
    """The VAPID ``sub`` claim: how a push service reaches the operator."""
    local_endpoints: bool = False
    """Allow ``http`` and loopback or private endpoints (a test, a push service of one's
    own); never on a public site."""


class Pusher:
    """Pushes of one site, seen from one process."""

    def __init__(self, secret: str, settings: PushSettings) -> None:
        number = int.from_bytes(bytes.fromhex(secret)[:32], "big") % (_ORDER - 1) + 1
        self._key = ec.derive_private_key(number, ec.SECP256R1())
        self._vapid = Vapid02(private_key=self._key)
        self.settings = settings
        self.public_key = _b64(self._key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
        """What a browser's ``pushManager.subscribe`` takes as ``applicationServerKey``."""
        self.workshop = Workshop("push", workers=2, waiting=256, retry_after=5.0)
        self.sent = 0

    def check_device(self, endpoint: object, p256dh: object, auth: object) -> None:
        """Refuse (422 ``bad_subscription``) what is not a browser's push subscription."""
        if not (isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)
                and len(endpoint) <= MAX_ENDPOINT and _good_keys(p256dh, auth)
                and self._good_endpoint(endpoint)):
            raise LobbyError(422, "bad_subscription", "this is not a push subscription")

    def _good_endpoint(self, endpoint: str) -> bool:
        try:
            parts = urlsplit(endpoint)
            host = parts.hostname or ""
            _ = parts.port
        except ValueError:
            return False
        if any(c.isspace() or not c.isprintable() for c in endpoint) or not host:
            return False
        if self.settings.local_endpoints:
            return parts.scheme in ("https", "http")
        host = host.lower().rstrip(".")  # "localhost." and "127.0.0.1." name the same
        if parts.scheme != "https" or host == "localhost" or host.endswith(".localhost"):
            return False
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return "." in host and not _ipv4_shorthand(host)  # a name, not an address
        return False

    def _public(self, endpoint: str) -> bool:
        """Every address the endpoint's name resolves to now is a public one: a name that
        points at this machine or its network (``127.0.0.1.nip.io``) is refused when the
        push is sent, whatever it resolved to when the browser subscribed."""
        if self.settings.local_endpoints:
            return True
        parts = urlsplit(endpoint)
        try:
            found = socket.getaddrinfo(parts.hostname or "", parts.port or 443,
                                       proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            return False
        return bool(found) and all(
            ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_global for info in found)

    def _post(self, device: Device, payload: str) -> int:
        """Send one message; the push service's status (0 when it could not be reached,
        or when its name leads to no public address)."""
        if not self._public(device.endpoint):
            return 0
        session = requests.Session()
        session.max_redirects = 0  # a push service answers; it never sends us elsewhere
        try:
            reply = webpush(
                {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh,
                                                       "auth": device.auth}},
                data=payload, vapid_private_key=self._vapid,
                vapid_claims={"sub": self.settings.contact}, timeout=PUSH_TIMEOUT, ttl=TTL,
                requests_session=session,
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else 0
            return int(status)
        except OSError:  # requests' own errors (no answer, a redirect) are OSErrors
            return 0
        finally:
            session.close()
        return int(getattr(reply, "status_code", 0))

    async def push(self, device: Device, message: dict[str, Any]) -> int:
        """One message to one device (its status; 0: not reached or too busy)."""
        payload = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        try:
            status = await self.workshop.run(self._post, device, payload)
        except LobbyError:  # the workshop is full: this push is dropped
            log.warning("push not sent: too many in hand")
            return 0
        if 200 <= status < 300:
            self.sent += 1
        else:
            log.info("push to %s answered %d", urlsplit(device.endpoint).hostname, status)
        return status

    def close(self) -> None:
        self.workshop.close()


def _ipv4_shorthand(host: str) -> bool:
    """What the C library reads as an IPv4 address though it is not written as four
    decimal numbers (``127.1``, ``0x7f.0.0.1``, ``017700000001``): a name only in looks."""
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True


def _good_keys(p256dh: str, auth: str) -> bool:
    """A P-256 public key (65 bytes, uncompressed) and a 16-byte secret, base64url."""
    try:
        point, secret = _unb64(p256dh), _unb64(auth)
    except ValueError:
        return False
    if len(point) != 65 or len(secret) != 16:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True
