"""The notice routes: the switches, a device's push subscription (what is
refused, what is kept), the site's VAPID key, and the data download, which names a device
by its push service's host and never holds its keys."""

from __future__ import annotations

import base64
import json

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from kingsbreakfast.server.app import create_app
from kingsbreakfast.server.push import PushSettings
from server.kb_accounts import Player
from server.kb_push import PushInbox


def test_switches_and_subscriptions(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        guest = Player(client)
        assert guest.get("/api/me/notices").status_code == 401
        key = base64.urlsafe_b64decode(guest.get("/api/push/key").json()["key"] + "=")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)  # a P-256 point
        ann = Player(client)
        ann.register("Ann")
        mine = ann.get("/api/me/notices").json()
        assert mine["switches"]["your_turn"] == {"push": True, "mail": True}
        assert (mine["devices"], mine["mail"], mine["email_verified"]) == (0, False, False)
        changed = ann.call("PUT", "/api/me/notices", json={
            "switches": {"your_turn": {"mail": False}, "challenge": {"push": False}}})
        assert changed.status_code == 200
        switches = changed.json()["switches"]
        assert switches["your_turn"] == {"push": True, "mail": False}
        assert switches["challenge"] == {"push": False, "mail": True}
        for wrong in ({"switches": {"cards": {"mail": False}}},
                      {"switches": {"your_turn": {"pigeon": True}}},
                      {"switches": {"your_turn": {"mail": "no"}}}, {"switches": []}):
            refused = ann.call("PUT", "/api/me/notices", json=wrong)
            assert refused.json()["error"]["code"] == "bad_notices", wrong
        no_csrf = ann.call("PUT", "/api/me/notices", json={"switches": {}}, csrf=False)
        assert no_csrf.status_code == 403

        inbox = PushInbox()  # its keys; nothing is posted to it here
        browser = inbox.subscription("ann-phone")
        inbox.server.server_close()
        # a public site posts only to https on a public name: never loopback or http
        for endpoint in (browser["endpoint"], "https://127.0.0.1/push/x",
                         "https://localhost/push/x", "https://10.1.2.3/push",
                         "http://push.example/x", "https://push/x", "ftp://push.example/x"):
            refused = ann.post("/api/me/push", json={**browser, "endpoint": endpoint})
            assert refused.json()["error"]["code"] == "bad_subscription", endpoint
        bad_key = {**browser, "keys": {**browser["keys"], "p256dh": "AAAA"}}
        assert ann.post("/api/me/push", json=bad_key).json()["error"]["code"] == (
            "bad_subscription")
        good = {**browser, "endpoint": "https://push.example.net/send/ann-phone",
                "language": "hu"}
        assert ann.post("/api/me/push", json=good).json()["devices"] == 1
        assert ann.post("/api/me/push", json=good).json()["devices"] == 1  # the same device
        data = ann.get("/api/me/data").json()
        assert data["notices"]["push_devices"][0]["push_service"] == "push.example.net"
        assert data["notices"]["switches"]["your_turn"]["mail"] is False
        text = json.dumps(data)
        assert browser["keys"]["auth"] not in text and browser["keys"]["p256dh"] not in text
        assert "send/ann-phone" not in text
        gone = ann.call("DELETE", "/api/me/push", json={"endpoint": good["endpoint"]})
        assert gone.status_code == 204
        assert ann.get("/api/me/notices").json()["devices"] == 0


def test_an_operator_may_allow_local_endpoints(sqlite_url: str) -> None:
    app = create_app(sqlite_url, push=PushSettings(local_endpoints=True))
    with TestClient(app) as client:
        ann = Player(client)
        ann.register("Ann")
        inbox = PushInbox()
        browser = inbox.subscription("ann-phone")
        inbox.server.server_close()
        assert ann.post("/api/me/push", json=browser).json()["devices"] == 1
