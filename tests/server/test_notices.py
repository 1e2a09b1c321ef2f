"""Notices: an absent player brought back by Web Push and by mail.

Everything real: a push service on loopback that decrypts each message with the
subscription's own private key (:mod:`server.kb_push`), an SMTP server (aiosmtpd,
:mod:`server.kb_mailbox`), the game's tables and database (SQLite and PostgreSQL). The
process's clock is a test's own, so a turn-based clock runs low without waiting hours.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from kingsbreakfast.engine import State
from kingsbreakfast.server.mail import Mailer, MailSettings
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.notice_store import Device
from kingsbreakfast.server.notices import Notices
from kingsbreakfast.server.push import PushSettings
from kingsbreakfast.server.site import Site
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import StorageError
from kingsbreakfast.server.tables import Table
from server.kb_harness import Capture, act, seated_table, until
from server.kb_mailbox import Mailbox
from server.kb_push import Pushed, PushInbox

HOUR = 3600


def fixed_dealer(n: int) -> tuple[tuple[int, ...], int]:
    return State.new(n, 8).initial_deck, 0  # seat 0 (Ann) moves first


@pytest.fixture
def inbox() -> Iterator[PushInbox]:
    box = PushInbox().start()
    yield box
    box.stop()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


@dataclass
class Process:
    master: Master
    site: Site
    notices: Notices

    async def close(self) -> None:
        await self.notices.close()
        await self.master.close()
        self.site.close()

    async def settled(self) -> None:
        """Every notice this process started has gone out (or was held back)."""
        n = self.notices
        await until(lambda: not n._tasks and not n._digests)


async def open_process(url: str, clock: list[float], mailbox: Mailbox) -> Process:
    master = Master(Storage(url), bot_delay=0.0, dealer=fixed_dealer,
                    wall_clock=lambda: clock[0])
    site = Site(master)
    mail = MailSettings("127.0.0.1", mailbox.port, "noreply@cards.example",
                        "https://cards.example")
    notices = Notices(site, Mailer(mail), PushSettings(local_endpoints=True),
                      digest_seconds=0.0, sweep_seconds=HOUR)
    await master.open()
    await site.open()
    await notices.open()
    return Process(master, site, notices)


async def account(p: Process, name: str, lang: str, clock: list[float]) -> int:
    """An account with a verified address (``name@example.org``, mails in ``lang``)."""
    store, emails = p.site.accounts.store, p.notices.emails
    made = await p.site.accounts.call(store.create_account, name, name.lower(), name.lower(),
                                      "not a hash")
    address = f"{name.lower()}@example.org"
    await p.site.accounts.call(emails.set_email, made.id, address, lang)
    digest = f"{name:x<64}"
    await p.site.accounts.call(emails.add_token, digest, made.id, "verify", address,
                               clock[0], clock[0] + HOUR, 5, 5)
    assert await p.site.accounts.call(emails.verify, digest, clock[0])
    return made.id


async def subscribe(p: Process, who: int, inbox: PushInbox, device: str, lang: str) -> None:
    sub = inbox.subscription(device)
    await p.site.accounts.call(p.notices.store.subscribe, who, Device(
        sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], lang), 0.0)


async def table_of_two(p: Process, ann: int, bob: int) -> tuple[Table, Capture]:
    """A turn-based table (an hour a move) of Ann, at it, Bob, away, and a bot; dealt."""
    table, tokens = await seated_table(p.master, humans=2, seats=3, start=False,
                                       clock_seconds=HOUR)
    for seat, who in enumerate((ann, bob)):
        await p.site.accounts.call(p.site.accounts.store.own_seat, table.id, seat, who)
    here = Capture(0)
    p.master.actor(table).attach(here)
    await p.master.start(table.id, tokens[0])
    return table, here


async def to_move(p: Process, table: Table) -> int:
    """The next person to move (the bot's moves played meanwhile), once every notice of the
    last move went out."""
    await until(lambda: table.state is not None and table.state.to_move in (0, 1))
    await p.settled()
    assert table.state is not None and table.state.to_move is not None
    return table.state.to_move


async def play_first(p: Process, table: Table, conn: Capture) -> None:
    state = table.state
    assert state is not None
    await act(p.master, table, conn, state.legal_actions()[0])


async def bob_moves(p: Process, table: Table) -> None:
    """Bob comes back, plays his move and leaves again."""
    conn = Capture(1)
    actor = p.master.actor(table)
    actor.attach(conn)
    await play_first(p, table, conn)
    actor.detach(conn)


async def turns_of_bob(p: Process, table: Table, here: Capture, turns: int,
                       inbox: PushInbox | None) -> list[Pushed]:
    """Play until Bob had ``turns`` turns (Ann plays hers at once); what each brought."""
    told: list[Pushed] = []
    while len(told) < turns:
        if await to_move(p, table) == 0:
            await play_first(p, table, here)
            continue
        if inbox is not None:
            told.append(await asyncio.to_thread(inbox.next))
        else:
            told.append(Pushed("", {}, {}, b""))
        await bob_moves(p, table)
    return told


def test_an_absent_player_is_pushed_each_turn_and_mailed_once_a_day(
    db_url: str, inbox: PushInbox, mailbox: Mailbox
) -> None:
    clock = [1_000_000.0]

    async def main() -> None:
        p = await open_process(db_url, clock, mailbox)
        ann, bob = await account(p, "Ann", "en", clock), await account(p, "Bob", "de", clock)
        await subscribe(p, bob, inbox, "bob-phone", "de")
        await subscribe(p, ann, inbox, "ann-laptop", "en")
        table, here = await table_of_two(p, ann, bob)
        told = await turns_of_bob(p, table, here, 3, inbox)
        await to_move(p, table)
        assert inbox.empty()
        assert {t.device for t in told} == {"bob-phone"}
        # in Bob's language, with the table's link and nothing of anyone's cards
        assert told[0].message == {
            "kind": "your_turn", "title": "Dein Zug",
            "body": "Du bist am Zug in deinem Spiel mit Ann.",
            "url": f"/t/{table.id}", "tag": f"kb:/t/{table.id}",
        }
        vapid = told[0].headers["authorization"]
        assert vapid.startswith("vapid t=") and f"k={p.notices.pusher.public_key}" in vapid  # type: ignore[union-attr]
        mail = await asyncio.to_thread(mailbox.next)
        assert mail.to == ["bob@example.org"]
        assert mail.links == [f"https://cards.example/t/{table.id}",
                              "https://cards.example/account"]
        assert mailbox.empty()  # three turns, one game, one day: one mail
        clock[0] += 86_400.0  # the next day, the same game mails again
        await turns_of_bob(p, table, here, 1, inbox)
        assert (await asyncio.to_thread(mailbox.next)).to == ["bob@example.org"]
        await p.close()

    asyncio.run(main())


def test_switched_off_nothing_goes_and_a_low_clock_is_told_once(
    db_url: str, inbox: PushInbox, mailbox: Mailbox
) -> None:
    clock = [1_000_000.0]

    async def main() -> None:
        p = await open_process(db_url, clock, mailbox)
        ann, bob = await account(p, "Ann", "en", clock), await account(p, "Bob", "fr", clock)
        await subscribe(p, bob, inbox, "bob-phone", "fr")
        await p.site.accounts.call(p.notices.store.set_switches, bob, {
            ("your_turn", "push"): False, ("your_turn", "mail"): False,
            ("clock_low", "mail"): False,
        })
        table, here = await table_of_two(p, ann, bob)
        await turns_of_bob(p, table, here, 2, None)  # no push awaited: none may come
        while await to_move(p, table) == 0:
            await play_first(p, table, here)
        assert inbox.empty() and mailbox.empty()
        assert table.deadline is not None
        clock[0] = table.deadline - HOUR * 0.25 - 1  # not yet low: more than a quarter left
        assert p.notices.check_clocks() == 0
        clock[0] = table.deadline - 600  # ten minutes left of the hour
        assert p.notices.check_clocks() == 1
        assert p.notices.check_clocks() == 0  # once a turn
        await p.settled()
        low = await asyncio.to_thread(inbox.next)
        assert low.message["kind"] == "clock_low" and low.message["url"] == f"/t/{table.id}"
        assert low.message["body"] == ("Il vous reste moins de 1 heure pour jouer dans votre "
                                       "partie avec Ann.")
        assert inbox.empty() and mailbox.empty()  # its mail is switched off
        await p.close()

    asyncio.run(main())


def test_a_challenge_and_a_game_starting_and_a_device_that_is_gone(
    db_url: str, inbox: PushInbox, mailbox: Mailbox
) -> None:
    clock = [1_000_000.0]

    async def main() -> None:
        p = await open_process(db_url, clock, mailbox)
        ann, bob = await account(p, "Ann", "hu", clock), await account(p, "Bob", "vi", clock)
        await subscribe(p, bob, inbox, "bob-phone", "vi")
        await subscribe(p, bob, inbox, "bob-old-laptop", "en")
        inbox.gone.add("bob-old-laptop")
        await subscribe(p, bob, inbox, "bob-tablet", "vi")
        inbox.moved["bob-tablet"] = "anything"  # followed, it would arrive there
        await p.notices.challenge_made(ann, bob, "https://evil.example/challenges/abc?x=1")
        pushed = await asyncio.to_thread(inbox.next)
        assert pushed.message == {"kind": "challenge", "title": "Một lời thách đấu",
                                  "body": "Ann thách đấu bạn một ván.",
                                  "url": "/challenges/abc", "tag": "kb:/challenges/abc"}
        await p.settled()
        mail = await asyncio.to_thread(mailbox.next)
        assert mail.links == ["https://cards.example/challenges/abc",
                              "https://cards.example/account"]
        devices = await p.site.accounts.call(p.notices.store.devices, bob)
        assert [d.endpoint.rsplit("/", 1)[1] for d in devices] == ["bob-phone", "bob-tablet"]
        assert inbox.empty()  # the gone one is forgotten; the redirect was not followed
        table, _here = await table_of_two(p, ann, bob)
        await p.notices.game_starting(table, mail=False)
        started = await asyncio.to_thread(inbox.next)
        assert started.message["kind"] == "game_starting"
        assert started.message["body"] == "Ván của bạn với Ann đang bắt đầu."
        await p.settled()
        assert mailbox.empty()
        await p.close()

    asyncio.run(main())


def test_two_processes_mail_a_game_once(
    postgres_url: str, inbox: PushInbox, mailbox: Mailbox
) -> None:
    """Two processes of one site tell the same player of the same game at the same moment
    (each through its own connections to the database): one mail, by the claimed row."""
    clock = [1_000_000.0]

    async def main() -> None:
        first = await open_process(postgres_url, clock, mailbox)
        second = await open_process(postgres_url, clock, mailbox)
        ann, bob = (await account(first, "Ann", "en", clock),
                    await account(first, "Bob", "en", clock))
        table, _here = await table_of_two(first, ann, bob)
        for _ in range(3):
            await asyncio.gather(first.notices.your_turn(table, 1),
                                 second.notices.your_turn(table, 1))
        await first.settled()
        await second.settled()
        assert (await asyncio.to_thread(mailbox.next)).to == ["bob@example.org"]
        assert mailbox.empty()
        await second.close()
        await first.close()

    asyncio.run(main())


def test_a_notice_that_fails_is_logged_and_one_cut_off_at_closing_is_closed(
    db_url: str, mailbox: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    """A notice runs in the background, so nobody waits for its error: a storage error is a
    warning and anything else an error in the log. A notice still waiting for its first step
    when the process closes is closed with its task, not left 'never awaited'."""
    clock = [1_000_000.0]
    started: list[str] = []

    async def refused() -> None:
        raise StorageError("the database went away")

    async def broken() -> None:
        raise ValueError("a bug in a notice")

    async def never_reached() -> None:
        started.append("ran")

    async def main() -> None:
        p = await open_process(db_url, clock, mailbox)
        p.notices._start(refused())
        p.notices._start(broken())
        await p.settled()
        p.notices._start(never_reached())
        await p.close()  # before the loop gives the new task its first step

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with caplog.at_level(logging.WARNING, logger="kingsbreakfast.server"):
            asyncio.run(main())
        gc.collect()
    assert started == []
    assert not [w for w in caught if "never awaited" in str(w.message)]
    logged = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert (logging.WARNING, "notice not sent: the database went away") in logged
    failed = [r for r in caplog.records if r.getMessage() == "notice failed"]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR
    assert isinstance(failed[0].exc_info and failed[0].exc_info[1], ValueError)
