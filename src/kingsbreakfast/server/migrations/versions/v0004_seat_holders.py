"""Who held each seat of a game, and from which version: seats change hands during play
(a player leaves, a bot keeps the seat, the host lets someone new sit), and the game's
history keeps every holder.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_holders",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("since", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seat_holders_game_id_games"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", "number", name="pk_seat_holders"),
    )


def downgrade() -> None:
    op.drop_table("seat_holders")
