"""Deleted accounts: the pseudonym each goes by, and its old name's reservation.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "departures",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("look_alike", sa.String(255), nullable=False),
        sa.Column("deleted_at", sa.Float(), nullable=False),
        sa.Column("name_free_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_departures_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", name="pk_departures"),
        sa.UniqueConstraint("number", name="uq_departures_number"),
    )
    op.create_index("ix_departures_look_alike", "departures", ["look_alike"])
    op.create_index("ix_departures_name_free_at", "departures", ["name_free_at"])


def downgrade() -> None:
    op.drop_index("ix_departures_name_free_at", "departures")
    op.drop_index("ix_departures_look_alike", "departures")
    op.drop_table("departures")
