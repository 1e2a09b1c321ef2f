"""A push service on a free loopback port: what the game server pushes arrives here over
real HTTP, is decrypted with the subscription's own private key (RFC 8291, through
http_ece, as a browser would) and waits in a queue for the test to read.

Each :meth:`PushInbox.subscription` is a browser: a P-256 key pair and an auth secret made
here, and an endpoint on this server. ``gone`` endpoints answer 410, as a push service does
for a subscription the browser dropped; ``moved`` ones redirect to another endpoint (which a
server must not follow: it would post where a player pointed it).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Pushed:
    device: str
    headers: dict[str, str]
    message: dict[str, Any]
    raw: bytes
    at: float = field(default_factory=time.perf_counter)
    """When it arrived (for the latency benchmark)."""


class PushInbox:
    def __init__(self) -> None:
        self.box: queue.Queue[Pushed] = queue.Queue()
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.gone: set[str] = set()
        self.moved: dict[str, str] = {}
        inbox = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                device = self.path.rsplit("/", 1)[-1]
                if device in inbox.moved:  # sends the pusher to another endpoint
                    self.send_response(307)
                    self.send_header("location", f"/push/{inbox.moved[device]}")
                    self.end_headers()
                    return
                if device == "anything":  # takes whatever comes, unread
                    inbox.box.put(Pushed(device, {}, {}, body))
                    self.send_response(201)
                    self.end_headers()
                    return
                if device in inbox.gone or device not in inbox.keys:
                    self.send_response(410)
                    self.end_headers()
                    return
                key, auth = inbox.keys[device]
                plain = http_ece.decrypt(body, private_key=key, auth_secret=auth,
                                         version="aes128gcm")
                inbox.box.put(Pushed(device, {k.lower(): v for k, v in self.headers.items()},
                                     json.loads(plain), body))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> PushInbox:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, device: str) -> dict[str, Any]:
        """A new browser's ``PushSubscription.toJSON()``."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.keys[device] = (key, auth)
        point = key.public_key().public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"http://127.0.0.1:{self.port}/push/{device}",
                "keys": {"p256dh": b64(point), "auth": b64(auth)}}

    def next(self, timeout: float = 30.0) -> Pushed:
        return self.box.get(timeout=timeout)

    def empty(self) -> bool:
        return self.box.empty()
