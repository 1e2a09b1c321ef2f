"""Wrong passwords are counted per typed name and address (``login_failures``), not on the
account: a lock then holds one address back from one name, never the owner elsewhere, and
an unknown name is counted like a real one.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name_key", "address", name="pk_login_failures"),
    )
    op.create_index("ix_login_failures_since", "login_failures", ["since"])
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("failures")
        batch.drop_column("locked_until")


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("failures", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("locked_until", sa.Float(), nullable=False,
                                   server_default="0"))
    op.drop_index("ix_login_failures_since", table_name="login_failures")
    op.drop_table("login_failures")
