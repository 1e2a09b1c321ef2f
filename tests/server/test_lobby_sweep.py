"""The lobby sweep on a real database: a table that never started is discarded with every row
that points at it (a seat an account owned, a chat line), and a table the database will not
let go is skipped while the others are still swept (one such table used to stop every later
sweep)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import func, select, text

from kingsbreakfast.server.account_models import ChatRow, SeatAccountRow
from kingsbreakfast.server.account_store import AccountStore
from kingsbreakfast.server.expiry import sweep
from kingsbreakfast.server.master import Master
from kingsbreakfast.server.storage import Storage
from kingsbreakfast.server.store import SeatRecord


def test_a_discarded_lobby_table_takes_the_rows_pointing_at_it(db_url: str) -> None:
    storage = Storage(db_url)
    storage.migrate()
    try:
        storage.create_game("waiting", num_seats=3,
                            rules={"empty_table": "draw_or_feed", "dragon_min_on_table": 1},
                            bot_level="easy", clock_seconds=None, public=False,
                            seats=[SeatRecord(n, "open", "", None) for n in range(3)])
        accounts = AccountStore(storage.engine)
        kim = accounts.create_account("Kim", "kim", "kim", "not a hash")
        accounts.own_seat("waiting", 0, kim.id)
        with storage.engine.begin() as connection:
            connection.execute(ChatRow.__table__.insert().values(  # type: ignore[attr-defined]
                game_id="waiting", seat=0, name="Kim", text="anyone?", at=0.0))
        assert storage.discard_lobby("waiting") is True
        assert storage.load("waiting") is None
        with storage.engine.connect() as connection:
            for row in (SeatAccountRow, ChatRow):
                assert connection.execute(select(func.count()).select_from(row)).scalar() == 0
    finally:
        storage.dispose()


def test_the_sweep_goes_on_past_a_table_the_database_keeps(tmp_path: Path) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'games.db'}")
        master = Master(storage, bot_delay=0.0)
        await master.open()
        kept, kept_token = (await master.create_table(
            "Ann", seats=3, rules={}, bot_level="easy", clock_seconds=None, public=True))[::2]
        other, other_token = (await master.create_table(
            "Bob", seats=3, rules={}, bot_level="easy", clock_seconds=None, public=True))[::2]
        with storage.engine.begin() as connection:  # the database refuses to let one go
            connection.execute(text(
                "CREATE TRIGGER keep_one BEFORE DELETE ON games WHEN old.id = :id "
                "BEGIN SELECT RAISE(ABORT, 'kept'); END".replace(":id", f"'{kept.id}'")))
        await master.leave(kept.id, kept_token)
        await master.leave(other.id, other_token)  # both hostless: both due
        now = max(a.active_at for a in master.actors.values())
        for _round in range(2):  # the refused table does not stop this sweep, nor the next
            assert await sweep(list(master.actors.values()), 60.0, now) == (
                [other.id] if _round == 0 else [])
        assert set(master.tables) == {kept.id}
        assert storage.load(other.id) is None
        await master.close()

    asyncio.run(main())
