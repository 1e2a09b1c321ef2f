"""Accounts get the key of how their name looks (the UTS 39 confusable skeleton, folded;
``names.look_alike_key``), unique, so no new name reads like one already taken.

Accounts made before this revision keep their names: where two of them already look alike,
every one but the oldest gets a key no name can produce (an SOH and its id), so each can
still log in by its name while nobody can register a third one like them.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kingsbreakfast.server.names import look_alike_key

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("look_alike", sa.String(255), nullable=True))
    accounts = sa.table(
        "accounts", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
        sa.column("look_alike", sa.String()),
    )
    connection = op.get_bind()
    taken: set[str] = set()
    for account_id, name in connection.execute(
        sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)
    ).all():
        key = look_alike_key(name)[:240]
        if key in taken:
            key = f"{key}\x01{account_id}"
        taken.add(key)
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(look_alike=key)
        )
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("look_alike", existing_type=sa.String(255), nullable=False)
        batch.create_unique_constraint("uq_accounts_look_alike", ["look_alike"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_look_alike", type_="unique")
        batch.drop_column("look_alike")
