"""Notices: per-account switches per kind and channel, Web Push subscriptions, and the
log of notice mails (one per account, game and day).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notice_switches",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("on", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_notice_switches_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", "kind", "channel", name="pk_notice_switches"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_push_subscriptions_account_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_push_subscriptions"),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "notice_mails",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_by", sa.String(32), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_notice_mails_account_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_notice_mails"),
        sa.UniqueConstraint("account_id", "game_id", "day", name="uq_notice_mails_account_id"),
    )
    op.create_index("ix_notice_mails_account_id", "notice_mails", ["account_id"])
    op.create_index("ix_notice_mails_created_at", "notice_mails", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_notice_mails_created_at", "notice_mails")
    op.drop_index("ix_notice_mails_account_id", "notice_mails")
    op.drop_table("notice_mails")
    op.drop_index("ix_push_subscriptions_account_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notice_switches")
