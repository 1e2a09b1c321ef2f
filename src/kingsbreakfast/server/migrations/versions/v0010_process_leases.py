"""A lease per process instead of one per table: a process renews its own row in
``server_processes``; a table's lease row only names its owner and epoch, and is written
only when the table changes hands, so an idle table costs no database writes.

Tables held under the old per-table leases are let go (owner cleared): the processes
started on this schema adopt them as orphans.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_processes",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_processes"),
    )
    op.execute("UPDATE leases SET owner = NULL, wanted_by = NULL")
    with op.batch_alter_table("leases") as batch:
        batch.drop_column("expires_at")


def downgrade() -> None:
    with op.batch_alter_table("leases") as batch:
        batch.add_column(
            sa.Column("expires_at", sa.Float(), nullable=False, server_default="0")
        )
    op.execute("UPDATE leases SET owner = NULL, wanted_by = NULL")
    op.drop_table("server_processes")
