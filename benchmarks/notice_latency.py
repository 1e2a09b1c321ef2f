"""How fast an absent player is brought back: a turn-based game of two accounts
and a bot on a real server process; Bob is away, and each time the turn comes to him the
time from the move that handed it over to the push message arriving (decrypted) at a push
service on loopback, and to the digest mail arriving at an SMTP server on loopback.

The mail digest normally waits (``--notice-digest-seconds``, 120 s by default) to gather a
player's other games; it is set to 0 here so the figure is the mail path itself. A game is
mailed once a day, so each game gives one mail figure and every Bob turn a push figure.

    python benchmarks/notice_latency.py --games 3 --turns 4
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server.kb_absent import one_game, verified
from server.kb_browser import Browser
from server.kb_live import LiveServer
from server.kb_mailbox import Mailbox
from server.kb_push import PushInbox


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    v = sorted(x * 1000 for x in values)
    return (f"n={len(v)} median {statistics.median(v):.1f} ms, min {v[0]:.1f}, "
            f"max {v[-1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=4, help="Bob's turns a game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        mailbox, inbox = Mailbox().start(), PushInbox().start()
        live = LiveServer(
            f"sqlite:///{folder}/notices.db", bot_delay=0.0, log_path=Path(folder) / "log",
            extra=(*mailbox.options(), "--push-local-endpoints",
                   "--notice-digest-seconds", "0"),
        ).start()
        try:
            ann, bob = Browser(live), Browser(live, "127.0.0.2")
            assert ann.register("Ann")[0] == 201 and bob.register("Bob")[0] == 201
            verified(mailbox, bob, "Bob")
            status, _ = bob.call("POST", "/api/me/push", {**inbox.subscription("bob"),
                                                         "language": "en"})
            assert status == 200
            pushes: list[float] = []
            mails: list[float] = []
            for _ in range(args.games):
                p, m = asyncio.run(one_game(live, ann, bob, inbox, mailbox, args.turns))
                pushes += p
                mails += m
        finally:
            live.stop()
            inbox.stop()
            mailbox.stop()
    print(f"move -> push received: {ms(pushes)}")
    print(f"move -> mail received: {ms(mails)} (digest wait 0 s; one mail per game per day)")


if __name__ == "__main__":
    main()
