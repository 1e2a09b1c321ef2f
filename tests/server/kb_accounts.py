"""Helpers of the account tests: a browser-like client per player (its own cookie jar)
over one app, and the CSRF header a page would send."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from kingsbreakfast.server.proof import solve


class Player:
    """One browser: its cookies are swapped into the shared test client for each call."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar: dict[str, str] = {}

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        for name, value in self.jar.items():
            self.client.cookies.set(name, value)
        headers = dict(kwargs.pop("headers", {}))
        if method != "GET" and "kb_csrf" in self.jar and kwargs.pop("csrf", True):
            headers.setdefault("x-csrf-token", self.jar["kb_csrf"])
        kwargs.pop("csrf", None)
        reply = self.client.request(method, path, headers=headers, **kwargs)
        for cookie in self.client.cookies.jar:
            self.jar[cookie.name] = cookie.value or ""
        gone = {c.name for c in self.client.cookies.jar}
        for name in list(self.jar):
            if name not in gone:
                del self.jar[name]
        self.client.cookies.clear()
        return reply

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.call("POST", path, **kwargs)

    def register(self, name: str, password: str = "correct horse battery") -> Any:
        self.get("/api/account")  # the page's first call: the CSRF cookie
        body: dict[str, Any] = {"name": name, "password": password}
        asked = self.get("/api/account/challenge").json()
        if asked["bits"]:  # past the address's first few accounts of the hour (proof.py)
            body["proof"] = {"challenge": asked["challenge"],
                             "counter": solve(asked["challenge"], name, asked["bits"])}
        reply = self.post("/api/account/register", json=body)
        assert reply.status_code == 201, reply.text
        return reply

    def login(self, name: str, password: str = "correct horse battery") -> Any:
        if "kb_csrf" not in self.jar:
            self.get("/api/account")
        return self.post("/api/account/login", json={"name": name, "password": password})

    def me(self) -> Any:
        return self.get("/api/account").json()["account"]

    def websocket(self, path: str) -> Any:
        self.client.cookies.clear()
        for name, value in self.jar.items():
            self.client.cookies.set(name, value)
        return self.client.websocket_connect(path)
