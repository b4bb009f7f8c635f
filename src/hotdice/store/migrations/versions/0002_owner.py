"""Whose result each game is: many web players share one database; "" is the terminal's own player.
The official daily result becomes unique per owner and day instead of per day.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # SQLite cannot drop a constraint in place: batch mode copies the table, rows and all.
    with op.batch_alter_table("game_results") as batch:
        batch.add_column(sa.Column("owner", sa.String(length=64), server_default="", nullable=False))
        batch.drop_constraint("uq_game_results_official_day", type_="unique")
        batch.create_unique_constraint("uq_game_results_owner_official_day", ["owner", "official_day"])
        batch.create_index("ix_game_results_owner", ["owner"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_results") as batch:
        batch.drop_index("ix_game_results_owner")
        batch.drop_constraint("uq_game_results_owner_official_day", type_="unique")
        batch.create_unique_constraint("uq_game_results_official_day", ["official_day"])
        batch.drop_column("owner")
