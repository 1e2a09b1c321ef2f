"""Play now's pool of waiting groups moves into the database: every process of a site
matches from one pool, and a seat is only reserved until its player's socket arrives.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "waiting_groups",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seats", sa.SmallInteger(), nullable=False),
        sa.Column("speed", sa.String(8), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_waiting_groups"),
    )
    op.create_table(
        "waiting_players",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("avoids", sa.Text(), nullable=False),
        sa.Column("reserved_at", sa.Float(), nullable=False),
        sa.Column("present", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_waiting_players"),
    )
    op.create_index("ix_waiting_players_account_id", "waiting_players", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_waiting_players_account_id", "waiting_players")
    op.drop_table("waiting_players")
    op.drop_table("waiting_groups")
