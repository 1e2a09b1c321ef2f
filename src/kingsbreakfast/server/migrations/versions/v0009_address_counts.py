"""Per-address counts shared by the processes of one site: events in windows (tables
opened, failed log-ins, registrations) and play sockets held on each process.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "address_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_address_events"),
    )
    op.create_index("ix_address_events_kind_address_at", "address_events",
                    ["kind", "address", "at"])
    op.create_table(
        "address_sockets",
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("owner", "address", name="pk_address_sockets"),
    )


def downgrade() -> None:
    op.drop_table("address_sockets")
    op.drop_index("ix_address_events_kind_address_at", table_name="address_events")
    op.drop_table("address_events")
