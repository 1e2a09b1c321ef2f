"""A game starting from play now is told by push (the player may have left the waiting tab
in the background), to each account dealt in, on a real server; never by mail (a live game
is over before a mail is read)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.kb_play_now import Player, dealt, start_site
from server.kb_push import PushInbox


def test_play_now_deal_pushes_a_game_starting(tmp_path: Path) -> None:
    inbox = PushInbox().start()
    site = start_site("sqlite", tmp_path, None, extra=("--push-local-endpoints",))
    try:
        ann, guest = Player(site), Player(site)
        ann.register("Dealt Ann")
        status, _ = ann.call("POST", "/api/me/push", {**inbox.subscription("ann"),
                                                      "language": "de"})
        assert status == 200

        async def main() -> str:
            answers = [ann.play_now("Dealt Ann", 3), guest.play_now("Guest", 3)]
            assert all(status == 201 for status, _ in answers), answers
            table = answers[0][1]["table"]
            await asyncio.gather(ann.sit(table), guest.sit(answers[1][1]["table"]))
            await asyncio.gather(ann.state(dealt), guest.state(dealt))
            await ann.close()
            await guest.close()
            return str(table)

        table = asyncio.run(main())
        pushed = inbox.next()
        assert pushed.message["kind"] == "game_starting"
        assert pushed.message["url"] == f"/t/{table}"
        assert pushed.message["title"] == "Dein Spiel beginnt"
        assert inbox.empty()
    finally:
        site.stop()
        inbox.stop()
