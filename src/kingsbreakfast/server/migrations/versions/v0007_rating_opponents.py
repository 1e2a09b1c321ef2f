"""Accounts count the different accounts they have played rated games against: a rating is
provisional until it has enough of them (``ratings.py``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("opponents", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.execute(
        "UPDATE accounts SET opponents = (SELECT count(DISTINCT o.account_id) "
        "FROM game_results AS me JOIN game_results AS o "
        "ON o.game_id = me.game_id AND o.account_id <> me.account_id "
        "WHERE me.account_id = accounts.id AND me.rated AND o.rated)"
    )


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("opponents")
