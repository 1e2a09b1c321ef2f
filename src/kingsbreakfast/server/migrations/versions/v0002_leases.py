"""Table leases: one owning process per table in play, with an epoch for fencing.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("wanted_by", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_leases_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_leases"),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_leases_owner", table_name="leases")
    op.drop_table("leases")
