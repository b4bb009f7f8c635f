"""The tables of ``hotdice serve``: players without accounts, games, challenges, online tables, daily pars,
the server's own keys.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "web_players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_players"),
        sa.UniqueConstraint("token_hash", name="uq_web_players_token_hash"),
    )
    op.create_table(
        "web_daily_pars",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("day", name="pk_web_daily_pars"),
    )
    op.create_table(
        "web_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_web_secrets"),
    )
    op.create_table(
        "web_challenges",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("dice_key", sa.String(length=64), nullable=False),
        sa.Column("creator_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["creator_id"], ["web_players.id"], name="fk_web_challenges_creator_id_web_players"),
        sa.PrimaryKeyConstraint("code", name="pk_web_challenges"),
    )
    op.create_table(
        "web_games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.String(length=32), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("extra", sa.Text(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("official", sa.Boolean(), nullable=False),
        sa.Column("official_day", sa.Date(), nullable=True),
        sa.Column("challenge_code", sa.String(length=16), nullable=True),
        sa.Column("table_code", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_code"], ["web_challenges.code"], name="fk_web_games_challenge_code_web_challenges"
        ),
        sa.ForeignKeyConstraint(["owner_id"], ["web_players.id"], name="fk_web_games_owner_id_web_players"),
        sa.PrimaryKeyConstraint("id", name="pk_web_games"),
        sa.UniqueConstraint("owner_id", "challenge_code", name="uq_web_games_owner_challenge"),
        sa.UniqueConstraint("owner_id", "official_day", name="uq_web_games_owner_official_day"),
    )
    op.create_index("ix_web_games_challenge_code", "web_games", ["challenge_code"], unique=False)
    op.create_index("ix_web_games_day", "web_games", ["day"], unique=False)
    op.create_index("ix_web_games_owner_id", "web_games", ["owner_id"], unique=False)
    op.create_index("ix_web_games_table_code", "web_games", ["table_code"], unique=False)
    op.create_table(
        "web_tables",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("host_id", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("roll_off", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["web_games.id"], name="fk_web_tables_game_id_web_games"),
        sa.ForeignKeyConstraint(["host_id"], ["web_players.id"], name="fk_web_tables_host_id_web_players"),
        sa.PrimaryKeyConstraint("code", name="pk_web_tables"),
    )
    op.create_table(
        "web_table_seats",
        sa.Column("table_code", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["web_players.id"], name="fk_web_table_seats_player_id_web_players"),
        sa.ForeignKeyConstraint(
            ["table_code"], ["web_tables.code"], name="fk_web_table_seats_table_code_web_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("table_code", "seat", name="pk_web_table_seats"),
        sa.UniqueConstraint("table_code", "name", name="uq_web_table_seats_name"),
        sa.UniqueConstraint("table_code", "player_id", name="uq_web_table_seats_player"),
    )


def downgrade() -> None:
    # Referring tables first.
    for table in (
        "web_table_seats", "web_tables", "web_games", "web_challenges", "web_secrets", "web_daily_pars", "web_players"
    ):
        op.drop_table(table)
