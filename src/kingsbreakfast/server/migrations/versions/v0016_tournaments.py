"""Tournaments (Swiss and arena), their entrants and the tables they dealt.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seats", sa.SmallInteger(), nullable=False),
        sa.Column("clock_seconds", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("rounds", sa.SmallInteger(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False, server_default="0"),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("director", sa.String(64), nullable=True),
        sa.Column("director_until", sa.Float(), nullable=False, server_default="0"),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_entrants_tournament_id_tournaments"),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_tournament_entrants"),
    )
    op.create_index("ix_tournament_entrants_account_id", "tournament_entrants",
                    ["account_id"])
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("seating", sa.Text(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("results", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_games_tournament_id_tournaments"),
        sa.PrimaryKeyConstraint("table_id", name="pk_tournament_games"),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_tournament_id", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entrants_account_id", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
