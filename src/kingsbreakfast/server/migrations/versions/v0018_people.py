"""People: follows (two make friends), blocks, when each account was last seen, and
challenges to a table.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def _pair(table: str, first: str, second: str) -> None:
    op.create_table(
        table,
        sa.Column(first, sa.Integer(), nullable=False),
        sa.Column(second, sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint([first], ["accounts.id"], name=f"fk_{table}_{first}_accounts"),
        sa.ForeignKeyConstraint([second], ["accounts.id"],
                                name=f"fk_{table}_{second}_accounts"),
        sa.PrimaryKeyConstraint(first, second, name=f"pk_{table}"),
    )
    op.create_index(f"ix_{table}_{second}", table, [second])


def upgrade() -> None:
    _pair("follows", "follower_id", "followed_id")
    _pair("blocks", "blocker_id", "blocked_id")
    op.create_table(
        "account_seen",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_account_seen_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", name="pk_account_seen"),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("from_id", sa.Integer(), nullable=False),
        sa.Column("to_id", sa.Integer(), nullable=False),
        sa.Column("seats", sa.SmallInteger(), nullable=False),
        sa.Column("clock_seconds", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("made_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["from_id"], ["accounts.id"],
                                name="fk_challenges_from_id_accounts"),
        sa.ForeignKeyConstraint(["to_id"], ["accounts.id"], name="fk_challenges_to_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])
    op.create_index("ix_challenges_table_id", "challenges", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_challenges_table_id", table_name="challenges")
    op.drop_index("ix_challenges_to_id", table_name="challenges")
    op.drop_index("ix_challenges_from_id", table_name="challenges")
    op.drop_table("challenges")
    op.drop_table("account_seen")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followed_id", table_name="follows")
    op.drop_table("follows")
