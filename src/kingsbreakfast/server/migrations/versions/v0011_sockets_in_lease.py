"""A process's play sockets per address travel with its lease renewal: one column of its
``server_processes`` row instead of a table of rows deleted and written again every second.
They count while the process's lease runs, so a dead process's sockets stop counting with
its lease.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("server_processes") as batch:
        batch.add_column(sa.Column("sockets", sa.Text(), nullable=True))
    op.drop_table("address_sockets")


def downgrade() -> None:
    op.create_table(
        "address_sockets",
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("owner", "address", name="pk_address_sockets"),
    )
    with op.batch_alter_table("server_processes") as batch:
        batch.drop_column("sockets")
