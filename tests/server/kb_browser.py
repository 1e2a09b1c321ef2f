"""A browser-like HTTP client of a real server process: its own cookie jar, the CSRF header
a page sends, and a loopback source address of its own (127.0.0.1, 127.0.0.2, …), so one
test can be several machines for the server's per-address rules."""

from __future__ import annotations

import http.client
import json
from http.cookies import SimpleCookie
from typing import Any

from kingsbreakfast.server.proof import solve
from server.kb_live import LiveServer

PASSWORD = "correct horse battery"


class Browser:
    def __init__(self, server: LiveServer, address: str = "127.0.0.1") -> None:
        self.server = server
        self.address = address
        self.jar: dict[str, str] = {}

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.server.port, timeout=20, source_address=(self.address, 0)
        )
        sent = {"content-type": "application/json", **(headers or {})}
        if self.jar:
            sent["cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        if method != "GET" and "kb_csrf" in self.jar:
            sent["x-csrf-token"] = self.jar["kb_csrf"]
        try:
            connection.request(method, path, None if body is None else json.dumps(body), sent)
            reply = connection.getresponse()
            raw = reply.read()
            for header in reply.headers.get_all("set-cookie") or []:
                cookie = SimpleCookie(header)
                for name, morsel in cookie.items():
                    if morsel["max-age"] == "0" or not morsel.value:
                        self.jar.pop(name, None)
                    else:
                        self.jar[name] = morsel.value
            kind = reply.headers.get("content-type", "")
            return reply.status, json.loads(raw) if raw and "json" in kind else raw
        finally:
            connection.close()

    def page(self) -> None:
        """The page's first call: the CSRF cookie."""
        if "kb_csrf" not in self.jar:
            self.call("GET", "/api/account")

    def register(self, name: str, password: str = PASSWORD) -> tuple[int, Any]:
        """Register as the page's form does: with the proof of work the server asks for
        (none for an address's first few accounts of the hour, server/proof.py)."""
        self.page()
        body: dict[str, Any] = {"name": name, "password": password}
        status, asked = self.call("GET", "/api/account/challenge")
        if status == 200 and asked["bits"]:
            body["proof"] = {"challenge": asked["challenge"],
                             "counter": solve(asked["challenge"], name, asked["bits"])}
        return self.call("POST", "/api/account/register", body)

    def login(self, name: str, password: str = PASSWORD) -> tuple[int, Any]:
        self.page()
        return self.call("POST", "/api/account/login", {"name": name, "password": password})
