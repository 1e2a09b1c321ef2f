"""Moderation: reports of players and chat lines, accounts muted or banned, chat lines hidden
by an operator, and the audit log of operator actions.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_standing",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("muted_until", sa.Float(), nullable=False, server_default="0"),
        sa.Column("banned", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_account_standing_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", name="pk_account_standing"),
    )
    op.create_table(
        "hidden_chat",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("hidden_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["chat_id"], ["chat_messages.id"],
                                name="fk_hidden_chat_chat_id_chat_messages"),
        sa.PrimaryKeyConstraint("chat_id", name="pk_hidden_chat"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("reporter_account_id", sa.Integer(), nullable=True),
        sa.Column("reporter_address", sa.String(64), nullable=False),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("target_account_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("outcome", sa.String(200), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(["reporter_account_id"], ["accounts.id"],
                                name="fk_reports_reporter_account_id_accounts"),
        sa.ForeignKeyConstraint(["target_account_id"], ["accounts.id"],
                                name="fk_reports_target_account_id_accounts"),
        sa.ForeignKeyConstraint(["chat_id"], ["chat_messages.id"],
                                name="fk_reports_chat_id_chat_messages"),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_at", "reports", ["at"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("operator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("detail", sa.String(500), nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("id", name="pk_moderation_log"),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_at", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_reports_at", table_name="reports")
    op.drop_table("reports")
    op.drop_table("hidden_chat")
    op.drop_table("account_standing")
