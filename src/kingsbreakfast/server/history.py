""""My games": the tables an account sits at, running ones first (those where it is the
player's move before the others), then finished ones with their replay and record.

Seats are described by kind and bot level, not by an English bot name, so the page names
bots in the player's language.
"""

from __future__ import annotations

from typing import Any

from .account_store import Account
from .accounts import Accounts
from .restore import restore
from .tables import HUMAN, OPEN, OVER, PLAYING, Table


def seat_list(table: Table) -> list[dict[str, Any]]:
    return [
        {"kind": s.kind, "name": s.name if s.kind in (HUMAN, OPEN) else "",
         "level": table.bot_level}
        for s in table.seats
    ]


async def _table(accounts: Accounts, game_id: str, replay: bool) -> Table | None:
    """The table as this process holds it, else as the store has it (None: gone); a game
    in play is replayed to its present (``replay``), a finished one needs only its record."""
    held = accounts.master.actors.get(game_id)
    if held is not None:
        return held.table
    record = await accounts.call(accounts.master.storage.load, game_id)
    return None if record is None else restore(record, replay=replay)


async def my_games(accounts: Accounts, account: Account) -> dict[str, list[dict[str, Any]]]:
    running: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    for game_id, seat, status in await accounts.call(accounts.store.account_seats, account.id):
        table = await _table(accounts, game_id, replay=status != OVER)
        if table is None:
            continue
        entry: dict[str, Any] = {
            "id": game_id, "status": table.status, "seat": seat, "num_seats": table.num_seats,
            "seats": seat_list(table), "clock_seconds": table.clock_seconds,
            "your_move": bool(
                table.state is not None and not table.state.is_over
                and table.state.to_move == seat
            ),
            "deadline_ms": (
                int(table.deadline * 1000) if table.deadline is not None else None
            ),
        }
        if table.status == OVER:
            entry["replay"] = f"/replay/{game_id}"
            entry["record"] = f"/games/{game_id}/record"
            finished.append(entry)
        else:
            running.append(entry)
    running.sort(key=lambda e: not e["your_move"])  # stable: newest first within each
    return {"running": running, "finished": finished}


async def awaiting(accounts: Accounts, account: Account) -> list[dict[str, Any]]:
    """The account's games in play where it is the account's move, soonest deadline first:
    what the badge on every page counts. Only games in play are read (a finished game never
    waits), each from this process's memory when it holds the table, else from the store,
    so every process of a cluster answers alike."""
    waiting: list[dict[str, Any]] = []
    for game_id, seat, status in await accounts.call(accounts.store.account_seats, account.id):
        if status != PLAYING:
            continue
        table = await _table(accounts, game_id, replay=True)
        if table is None:
            continue
        state = table.state
        if state is None or state.is_over or state.to_move != seat:
            continue
        deadline = None if table.deadline is None else int(table.deadline * 1000)
        waiting.append({"id": game_id, "seat": seat, "deadline_ms": deadline})
    waiting.sort(key=lambda game: (game["deadline_ms"] is None, game["deadline_ms"] or 0))
    return waiting
