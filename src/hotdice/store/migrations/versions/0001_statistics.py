"""The statistics tables as first released: finished games and their roll counts, one player per file.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "game_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("player_name", sa.String(length=200), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("opponent", sa.String(length=200), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("termination", sa.String(length=16), nullable=False),
        sa.Column("turn_limit", sa.Integer(), nullable=True),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("best_bank", sa.Integer(), nullable=False),
        sa.Column("hot_dice", sa.Integer(), nullable=False),
        sa.Column("farkles", sa.Integer(), nullable=False),
        sa.Column("farkle_free_first", sa.Integer(), nullable=False),
        sa.Column("farkle_free_best", sa.Integer(), nullable=False),
        sa.Column("farkle_free_last", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("official", sa.Boolean(), nullable=False),
        sa.Column("official_day", sa.Date(), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.CheckConstraint(  # op.f: the name as written, not passed through the naming convention again
            "official_day IS NULL OR official_day = day", name=op.f("ck_game_results_official_day_is_day")
        ),
        sa.PrimaryKeyConstraint("id", name="pk_game_results"),
        sa.UniqueConstraint("official_day", name="uq_game_results_official_day"),
    )
    op.create_index("ix_game_results_mode", "game_results", ["mode"], unique=False)
    op.create_table(
        "roll_counts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("dice", sa.Integer(), nullable=False),
        sa.Column("rolls", sa.Integer(), nullable=False),
        sa.Column("farkles", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game_results.id"], name="fk_roll_counts_game_id_game_results", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "dice", name="pk_roll_counts"),
    )


def downgrade() -> None:
    op.drop_table("roll_counts")
    op.drop_index("ix_game_results_mode", table_name="game_results")
    op.drop_table("game_results")
