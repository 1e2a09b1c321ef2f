"""Attacks on notices (Web Push and their switches) against a real server on SQLite and
PostgreSQL: a push endpoint is an address a player hands the server, which then posts to
it, so every way of writing "this machine" or "my network" must be refused (server-side
request forgery); the switches and devices are the account's own, behind the CSRF check.
"""

from __future__ import annotations

import os
from pathlib import Path

from kingsbreakfast.server.notice_store import DEVICES, Device
from kingsbreakfast.server.push import Pusher, PushSettings
from server.kb_attack_people import (
    b64,
    code,
    keys,
    live_server,
    member,
    secrets_in,
    server_fixture,
)
from server.kb_live import LiveServer
from server.kb_push import PushInbox

server = server_fixture("attack-notices")


THIS_MACHINE = {
    "plain http": "http://push.example.com/x",
    "loopback": "https://127.0.0.1/x",
    "loopback with a port": "https://127.0.0.1:8443/x",
    "private network": "https://10.1.2.3/x",
    "link-local (cloud metadata)": "https://169.254.169.254/latest/meta-data",
    "IPv6 loopback": "https://[::1]/x",
    "IPv4 in IPv6": "https://[::ffff:127.0.0.1]/x",
    "localhost": "https://localhost/x",
    "a localhost subdomain": "https://admin.localhost/x",
    "a bare name": "https://intranet/x",
    "decimal address": "https://2130706433/x",
    "bad port": "https://push.example.com:99999/x",
    "a space": "https://push.example.com/a b",
    # found by this suite (server/push.py now refuses them):
    "localhost with a trailing dot": "https://localhost./x",
    "loopback with a trailing dot": "https://127.0.0.1./x",
    "short loopback": "https://127.1/x",
    "hex loopback": "https://0x7f.0.0.1/x",
    "octal loopback": "https://0177.0.0.1/x",
    "short private": "https://10.1/x",
}


def test_no_push_endpoint_may_point_at_this_machine_or_its_network(
    server: LiveServer,
) -> None:
    owner = member(server, "Pusher One")
    for label, endpoint in THIS_MACHINE.items():
        reply = owner.call("POST", "/api/me/push", {"endpoint": endpoint, "keys": keys()})
        assert code(reply) == (422, "bad_subscription"), label
        assert endpoint not in str(reply[1])  # the refusal never repeats it
    ok = owner.call("POST", "/api/me/push",
                    {"endpoint": "https://push.example.com/good", "keys": keys()})
    assert ok[0] == 200 and ok[1]["devices"] == 1
    assert secrets_in(ok[1]) == []  # the keys never come back


def test_a_name_that_leads_home_is_not_posted_to_when_the_push_goes() -> None:
    """A public-looking name can resolve to this machine (``127.0.0.1.nip.io``) or be made
    to later (DNS rebinding): the name is resolved again as each push is sent, and a
    push to a non-public address never leaves. The control: a site that allows local
    endpoints posts to the same inbox."""
    inbox = PushInbox().start()
    try:
        browser = inbox.subscription("home")
        device = Device(browser["endpoint"].replace("127.0.0.1", "localhost"),
                        browser["keys"]["p256dh"], browser["keys"]["auth"], "en")
        public = Pusher(os.urandom(32).hex(), PushSettings())
        assert public._post(device, '{"kind": "your_turn"}') == 0
        assert inbox.empty()
        local = Pusher(os.urandom(32).hex(), PushSettings(local_endpoints=True))
        assert 200 <= local._post(device, '{"kind": "your_turn"}') < 300
        assert inbox.next(timeout=20).message == {"kind": "your_turn"}
        public.close()
        local.close()
    finally:
        inbox.stop()


def test_huge_subscriptions_and_keys_are_refused(server: LiveServer) -> None:
    owner = member(server, "Pusher Two")
    long_endpoint = "https://push.example.com/" + "a" * 1100
    assert code(owner.call("POST", "/api/me/push",
                           {"endpoint": long_endpoint, "keys": keys()})) == (
        422, "bad_subscription")
    huge = {"endpoint": "https://push.example.com/x", "keys": {**keys(), "p256dh": "A" * 9000}}
    assert code(owner.call("POST", "/api/me/push", huge)) == (413, "body_too_big")
    for bad in ({"p256dh": "AAAA", "auth": keys()["auth"]},  # not a point
                {"p256dh": keys()["p256dh"], "auth": b64(os.urandom(64))},
                {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": keys()["auth"]},  # off curve
                {"p256dh": 5, "auth": None}):
        reply = owner.call("POST", "/api/me/push",
                           {"endpoint": "https://push.example.com/x", "keys": bad})
        assert code(reply) == (422, "bad_subscription"), bad
    assert owner.call("GET", "/api/me/notices")[1]["devices"] == 0


def test_a_thousand_devices_keep_only_the_newest_few(server: LiveServer) -> None:
    owner = member(server, "Pusher Three")
    for number in range(DEVICES + 15):
        status, body = owner.call("POST", "/api/me/push", {
            "endpoint": f"https://push.example.com/device/{number}", "keys": keys()})
        assert status == 200, body
    assert owner.call("GET", "/api/me/notices")[1]["devices"] == DEVICES


def test_switches_and_devices_need_the_pages_csrf_value_and_an_account(
    server: LiveServer,
) -> None:
    owner = member(server, "Pusher Four")
    before = owner.call("GET", "/api/me/notices")[1]
    forger = type(owner)(server, owner.address)  # another site's form: the cookie, no header
    forger.jar = {k: v for k, v in owner.jar.items() if k != "kb_csrf"}
    changes = {"switches": {"your_turn": {"push": False, "mail": False}}}
    assert forger.call("PUT", "/api/me/notices", changes)[0] == 403
    assert forger.call("POST", "/api/me/push", {
        "endpoint": "https://evil.example.com/x", "keys": keys()})[0] == 403
    assert owner.call("GET", "/api/me/notices")[1] == before
    guest = type(owner)(server, owner.address)
    guest.page()
    assert code(guest.call("PUT", "/api/me/notices", changes)) == (401, "not_logged_in")
    assert code(guest.call("POST", "/api/me/push", {
        "endpoint": "https://push.example.com/x", "keys": keys()})) == (401, "not_logged_in")


def test_switches_of_unknown_kinds_or_values_are_refused(server: LiveServer) -> None:
    owner = member(server, "Pusher Five")
    for bad in ({"switches": {"your_turn": {"sms": True}}},
                {"switches": {"__proto__": {"push": True}}},
                {"switches": {"your_turn": {"push": "yes"}}},
                {"switches": ["your_turn"]}, {"account_id": 1}):
        assert code(owner.call("PUT", "/api/me/notices", bad)) == (422, "bad_notices"), bad


def test_no_push_a_player_is_sent_carries_a_card_or_a_key(tmp_path: Path) -> None:
    """A challenge and a tournament round dealt, told by a real server to a real push
    service on loopback: the messages name people and a page, never a hand or a token."""
    inbox = PushInbox().start()
    live = live_server("sqlite", tmp_path, "--push-local-endpoints")
    try:
        ann, bob = member(live, "Told Ann"), member(live, "Told Bob")
        browser = inbox.subscription("bob-phone")
        assert bob.call("POST", "/api/me/push", browser)[0] == 200
        assert ann.call("POST", "/api/challenges", {"name": "Told Bob"})[0] == 201
        cup = ann.call("POST", "/api/tournaments", {
            "name": "Told Cup", "seats": 3, "bots": 2, "rounds": 1, "starts_in": 3600,
            "bot_level": "random"})[1]["id"]
        assert bob.call("POST", f"/api/tournaments/{cup}/entry")[0] == 201
        assert ann.call("POST", f"/api/tournaments/{cup}/start")[0] == 204
        told = [inbox.next(timeout=30), inbox.next(timeout=30)]
        assert {t.message["kind"] for t in told} == {"challenge", "game_starting"}
        for pushed in told:
            assert secrets_in(pushed.message) == []
            assert browser["keys"]["auth"] not in str(pushed.message)
    finally:
        live.stop()
        inbox.stop()
