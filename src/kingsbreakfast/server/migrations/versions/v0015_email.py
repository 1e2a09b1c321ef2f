"""An optional e-mail address per account (verified by a mailed link) and the links
mailed to accounts (verification and password reset), each stored as a keyed digest.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_emails",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("language", sa.String(8), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_account_emails_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", name="pk_account_emails"),
    )
    op.create_index("ix_account_emails_address", "account_emails", ["address"])
    op.create_table(
        "mail_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_mail_tokens_account_id_accounts"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_mail_tokens"),
    )
    op.create_index("ix_mail_tokens_account_id", "mail_tokens", ["account_id"])
    op.create_index("ix_mail_tokens_created_at", "mail_tokens", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_mail_tokens_created_at", "mail_tokens")
    op.drop_index("ix_mail_tokens_account_id", "mail_tokens")
    op.drop_table("mail_tokens")
    op.drop_index("ix_account_emails_address", "account_emails")
    op.drop_table("account_emails")
