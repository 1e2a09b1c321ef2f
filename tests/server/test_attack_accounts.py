"""Attacks on accounts, against a real ``kingsbreakfast serve`` on loopback: impostor names
(look-alike letters from other scripts, case, width, stacked accents, names of nothing),
and password guessing that tries to learn which names exist or to lock their owners out.
The several machines of an attack are several loopback source addresses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kingsbreakfast.server.accounts import FREE_FAILURES
from server.kb_browser import Browser
from server.kb_live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("attack-accounts")
    live = LiveServer(
        f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, log_path=folder / "server.log",
    ).start()
    yield live
    live.stop()


IMPOSTORS = {
    "Greek alpha": "\u0391nn", "Cyrillic A": "\u0410nn", "lower case": "ann",
    "upper case": "ANN", "full width": "\uff21\uff4e\uff4e", "accent on top": "Ann\u0301",
}
NOTHING = {
    "Hangul filler only": "\u3164", "three fillers": "\u3164\u3164\u3164",
    "trailing braille blank": "Zed\u2800", "trailing emoji selector": "Zed\ufe0f",
    "lone combining accent": "\u0301", "accent after a space": "Zed \u0301",
}


def test_impostor_names_cannot_register(server: LiveServer) -> None:
    assert Browser(server).register("Ann")[0] == 201
    for label, name in IMPOSTORS.items():
        status, body = Browser(server).register(name)
        assert (status, body["error"]["code"]) == (409, "name_taken"), label
    for label, name in NOTHING.items():
        status, body = Browser(server).register(name)
        assert (status, body["error"]["code"]) == (422, "unreadable_name"), label


def test_a_lock_names_nobody_and_locks_no_owner_out(server: LiveServer) -> None:
    assert Browser(server).register("Owner")[0] == 201
    guesser = Browser(server, "127.0.0.2")
    wrong = [guesser.login("Owner", f"guess number {n}") for n in range(FREE_FAILURES)]
    held = guesser.login("Owner")  # the right password, from the guessing machine
    unknown = guesser.login("Nobody has this name")
    assert {s for s, _ in wrong} == {held[0]} == {unknown[0]} == {401}
    assert held[1] == unknown[1] == wrong[0][1]  # the very same body: nothing told
    assert Browser(server, "127.0.0.3").login("Owner")[0] == 200  # the owner elsewhere


def test_a_name_guessed_from_many_machines_still_lets_its_owner_in(server: LiveServer) -> None:
    assert Browser(server).register("Target")[0] == 201
    machines = [Browser(server, f"127.0.1.{n}") for n in range(1, 25)]
    for machine in machines:  # one or two guesses each, as a botnet would
        assert machine.login("Target", "guess one")[0] == 401
    assert machines[-1].login("Target")[0] == 401  # slowed: one free failure each now
    assert Browser(server, "127.0.2.1").login("Target")[0] == 200
