"""Everything the site holds about one account, as one JSON document the account may
download (``GET /api/me/data``): what a European site owes a person who asks (GDPR's right of
access and to data portability), read straight from every table that points at the account.

What it holds and shows: the account (name, when made, rating), its e-mail address, its
sessions (when each expires, never the session id), the tables it sat at, its results, the
games it left, the chat lines written from its seats, the reports it filed, an operator's
mute or ban, a boosting flag, and the keyed digests of the addresses it sat down from (the
site keeps no address itself). Only the account's own rows: another player's name appears
only where the account's own game or report names it, as on the site's pages. The password
is held as an argon2id hash and not given out (it is no use to anyone, and a leak of it would
let an attacker guess offline).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker

from .account_models import (
    AccountEmailRow,
    AccountRow,
    AuthSessionRow,
    BoostingFlagRow,
    ChatRow,
    GameResultRow,
    LeaverRow,
    SeatAccountRow,
    SeatAddressRow,
)
from .database import unit_of_work
from .models import GameRow
from .moderation_models import AccountStandingRow, ReportRow
from .notice_store import personal_notices
from .people import people_rows
from .tournaments.models import EntrantRow

FORMAT = "kingsbreakfast-account-data/1"


def _when(at: float | datetime | None) -> str | None:
    if at is None:
        return None
    moment = at if isinstance(at, datetime) else datetime.fromtimestamp(at, UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class PersonalData:
    """Reads one account's rows from every table that holds them."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def everything(self, account_id: int, now: float) -> dict[str, Any] | None:
        """The account's data as a JSON-ready document; None when there is no account."""
        with unit_of_work(self._sessions) as session:
            account = session.get(AccountRow, account_id)
            if account is None:
                return None
            email = session.get(AccountEmailRow, account_id)
            standing = session.get(AccountStandingRow, account_id)
            flag = session.get(BoostingFlagRow, account_id)
            mine = and_(SeatAccountRow.game_id == ChatRow.game_id,
                        SeatAccountRow.seat == ChatRow.seat,
                        SeatAccountRow.account_id == account_id)
            return {
                "format": FORMAT,
                "made_at": _when(now),
                "account": {
                    "name": account.name, "created_at": _when(account.created_at),
                    "mu": account.mu, "sigma": account.sigma,
                    "rated_games": account.rated_games, "opponents": account.opponents,
                    "password": "held as an argon2id hash, not given out",
                },
                "email": None if email is None else {
                    "address": email.address, "verified": email.verified,
                    "language": email.language,
                },
                "sessions": [
                    {"expires_at": _when(expires)} for expires in session.scalars(
                        select(AuthSessionRow.expires_at)
                        .where(AuthSessionRow.account_id == account_id,
                               AuthSessionRow.expires_at > now)
                        .order_by(AuthSessionRow.expires_at))
                ],
                "tables": [
                    {"game": game, "seat": seat, "status": status,
                     "created_at": _when(created)}
                    for game, seat, status, created in session.execute(
                        select(SeatAccountRow.game_id, SeatAccountRow.seat, GameRow.status,
                               GameRow.created_at)
                        .join(GameRow, GameRow.id == SeatAccountRow.game_id)
                        .where(SeatAccountRow.account_id == account_id)
                        .order_by(GameRow.created_at))
                ],
                "results": [
                    {"game": r.game_id, "seat": r.seat, "seats": r.num_seats,
                     "place": r.place, "won": r.won, "points": r.points,
                     "favourite": r.favourite, "rated": r.rated, "mu": r.mu,
                     "sigma": r.sigma, "finished_at": _when(r.finished_at),
                     "left_early": r.left_early, "unrated": r.unrated}
                    for r in session.scalars(
                        select(GameResultRow).where(GameResultRow.account_id == account_id)
                        .order_by(GameResultRow.finished_at))
                ],
                "games_left": [
                    {"game": r.game_id, "seat": r.seat, "at_move": r.version, "why": r.why}
                    for r in session.scalars(
                        select(LeaverRow).where(LeaverRow.account_id == account_id))
                ],
                "chat": [
                    {"game": r.game_id, "seat": r.seat, "name": r.name, "text": r.text,
                     "at": _when(r.at)}
                    for r in session.scalars(
                        select(ChatRow).join(SeatAccountRow, mine).order_by(ChatRow.id))
                ],
                "reports_filed": [
                    {"at": _when(r.at), "about": r.target_name, "game": r.game_id,
                     "chat_line": r.chat_id, "reason": r.reason,
                     "closed_at": _when(r.closed_at)}
                    for r in session.scalars(
                        select(ReportRow).where(ReportRow.reporter_account_id == account_id)
                        .order_by(ReportRow.at))
                ],
                "moderation": None if standing is None else {
                    "muted_until": _when(standing.muted_until or None),
                    "banned": standing.banned,
                },
                "boosting_flag": None if flag is None else {
                    "reason": flag.reason, "game": flag.game_id,
                    "flagged_at": _when(flag.flagged_at),
                },
                "tournaments": [
                    {"tournament": r.tournament_id, "entrant": r.number, "name": r.name,
                     "joined_at": _when(r.joined_at), "withdrawn": r.withdrawn}
                    for r in session.scalars(
                        select(EntrantRow).where(EntrantRow.account_id == account_id))
                ],
                "sat_down_from": sorted({
                    digest for digest in session.scalars(
                        select(SeatAddressRow.address)
                        .where(SeatAddressRow.account_id == account_id))
                }),
                **people_rows(session, account_id),
                "notices": personal_notices(session, account_id),
            }
