"""Accounts that left a game in play (or stayed away past their clock): they rank last when
the game is rated.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_leavers",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("why", sa.String(16), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_leavers_game_id_games"),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_game_leavers_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("game_id", "account_id", name="pk_game_leavers"),
    )


def downgrade() -> None:
    op.drop_table("game_leavers")
