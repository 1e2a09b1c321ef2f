"""Deleting an account (docs/accounts.md, "Deleting an account").

The player asks with the password again (a stolen session alone cannot delete anyone), and
then, at once:

1. every game in play the account sits at is left by the rules of any leaver (a bot plays
   the seat to the end, the account ranks last if the game is rated), the seat showing the
   pseudonym (``Bot (was Former player 4821)``), never the old name; a table still in the
   lobby simply loses the player;
2. the database forgets the person (:mod:`.farewell_store`): every session of the account
   ends on every process, the e-mail address, the password and the rating go, and the
   name becomes the pseudonym in the account's games, results and chat lines;
3. the old name stays reserved for :data:`NAME_RESERVED_SECONDS` (so nobody can pass for the
   player who just left, in games still being talked about), then anyone may register it.

A banned account cannot log in, so it cannot ask; should a session outlive a ban, the
deletion is refused all the same (``403 banned``): a ban is not escaped by deleting the
account and coming back under the same name a month later. The operator erases a banned
account's data by hand when the law asks for it (docs/accounts.md).
"""

from __future__ import annotations

import logging
from typing import Final

from .account_store import Account
from .farewell_store import FarewellStore
from .lobby import LobbyError
from .master import Master
from .moderation import ModerationStore
from .site import Site
from .store import StorageError
from .tables import PLAYING

log = logging.getLogger("kingsbreakfast.server")

NAME_RESERVED_SECONDS: Final = 30 * 86_400.0
"""How long a deleted account's name stays reserved: 30 days."""


class Farewell:
    """Account deletion on one server process."""

    def __init__(self, site: Site, master: Master,
                 reserve_seconds: float = NAME_RESERVED_SECONDS) -> None:
        self.site = site
        self.master = master
        self.reserve_seconds = reserve_seconds
        self.store = FarewellStore(site.accounts.store.engine)

    async def delete(self, account: Account, password: object, address: str) -> str:
        """Delete the account (the password checked first); its pseudonym."""
        accounts = self.site.accounts
        await accounts.confirm_password(account, password, address)
        if await accounts.call(ModerationStore(accounts.store.engine).banned, account.id):
            raise LobbyError(403, "banned", "an operator banned this account")
        seats = await accounts.call(accounts.store.account_seats, account.id, 10_000)
        try:
            pseudonym = await accounts.call(
                self.store.depart, account.id, accounts.wall_clock(), self.reserve_seconds
            )
        except StorageError as error:
            if error.code == "no_account":
                raise LobbyError(401, "not_logged_in", "log in first") from None
            raise
        log.info("account %d deleted", account.id)
        for game_id, _seat, status in seats:
            if status in ("lobby", PLAYING):
                await self._leave(account, game_id, pseudonym)
        self._rename_in_memory(account.name, pseudonym)
        return pseudonym

    async def _leave(self, account: Account, game_id: str, pseudonym: str) -> None:
        """Leave one table as its lobby's leave route would, under the pseudonym."""
        accounts = self.site.accounts
        token = accounts.key.account_seat_token(account.id, game_id)
        try:
            actor = await self.master.held(game_id)
            table = actor.table
            seat = table.seat_of(token)
            if seat is None:
                return
            table.seats[seat].name = pseudonym  # what the freed seat keeps in play
            await self.site.leaving(table, seat)
            await self.master.leave(game_id, token)
            await accounts.call(accounts.store.disown_seat, game_id, seat)
        except (LobbyError, StorageError) as error:
            # the game ended meanwhile, or the table is gone: its stored names are renamed
            log.warning("table %s: the deleted account's seat not left (%s)", game_id, error)

    def _rename_in_memory(self, old_name: str, pseudonym: str) -> None:
        """The games this process holds in memory (finished ones, seats left earlier) show
        the pseudonym too: the old name was the account's alone (no other account reads
        like it, and no guest may sit under it). Another process's finished games in memory
        show the old name until it lets them go (they are read anew from the database)."""
        for actor in list(self.master.actors.values()):
            for seat in actor.table.seats:
                if seat.name == old_name:
                    seat.name = pseudonym
