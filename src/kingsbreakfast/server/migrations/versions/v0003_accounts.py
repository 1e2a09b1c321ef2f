"""Accounts, their sessions and ratings, seats owned by accounts, game results, table chat,
rematches, stored turn clocks and the site key.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "site_keys",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_site_keys"),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("id_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_auth_sessions_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("id_hash", name="pk_auth_sessions"),
    )
    op.create_index("ix_auth_sessions_account_id", "auth_sessions", ["account_id"])
    op.create_table(
        "seat_accounts",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seat_accounts_game_id_games"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_seat_accounts_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat_accounts"),
    )
    op.create_index("ix_seat_accounts_account_id", "seat_accounts", ["account_id"])
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("num_seats", sa.SmallInteger(), nullable=False),
        sa.Column("place", sa.SmallInteger(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("favourite", sa.String(16), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_results_game_id_games"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_game_results_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("game_id", "account_id", name="pk_game_results"),
    )
    op.create_index("ix_game_results_account_id", "game_results", ["account_id"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_chat_messages_game_id_games"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("new_game_id", sa.String(32), nullable=False),
        sa.Column("votes", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rematches_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_rematches"),
    )
    op.create_table(
        "turn_clocks",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_turn_clocks_game_id_games"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_turn_clocks"),
    )


def downgrade() -> None:
    op.drop_table("turn_clocks")
    op.drop_table("rematches")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_game_results_account_id", table_name="game_results")
    op.drop_table("game_results")
    op.drop_index("ix_seat_accounts_account_id", table_name="seat_accounts")
    op.drop_table("seat_accounts")
    op.drop_index("ix_auth_sessions_account_id", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_table("accounts")
    op.drop_table("site_keys")
