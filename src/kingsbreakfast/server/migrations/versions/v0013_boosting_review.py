"""Rated games need real games and real opponents: each result says whether its account
was established when the game began, whether it left early and why a game was not rated;
where accounts sat down from (a keyed digest) and the accounts flagged for boosting.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_results") as batch:
        batch.add_column(sa.Column("established", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("left_early", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("unrated", sa.String(16), nullable=False,
                                   server_default=""))
    op.create_table(
        "seat_addresses",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_seat_addresses_game_id_games"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_seat_addresses_account_id_accounts"),
        sa.PrimaryKeyConstraint("game_id", "account_id", name="pk_seat_addresses"),
    )
    op.create_table(
        "boosting_flags",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("flagged_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_boosting_flags_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", name="pk_boosting_flags"),
    )


def downgrade() -> None:
    op.drop_table("boosting_flags")
    op.drop_table("seat_addresses")
    with op.batch_alter_table("game_results") as batch:
        batch.drop_column("unrated")
        batch.drop_column("left_early")
        batch.drop_column("established")
