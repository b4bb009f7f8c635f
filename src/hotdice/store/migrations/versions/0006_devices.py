"""One player on several devices (a person's devices, the link codes that add one), the friend challenges a
player opened, and "your games" read from indexes (a player's games by end and last change; their seats at
online tables).

Every person's device so far becomes the first device of their player, with the same token: nobody is signed out.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A database made from the models before migrations existed (stamped 0003 by its tables) may have them all.
    found = sa.inspect(op.get_bind())
    if "web_devices" not in found.get_table_names():
        _create_tables()
    indexes = {index["name"] for index in found.get_indexes("web_games")}
    if "ix_web_games_owner_over_updated" not in indexes:
        op.create_index("ix_web_games_owner_over_updated", "web_games", ["owner_id", "over", "updated_at"])
    if "ix_web_games_owner_id" in indexes:
        op.drop_index("ix_web_games_owner_id", table_name="web_games")
    if "ix_web_table_seats_player_id" not in {index["name"] for index in found.get_indexes("web_table_seats")}:
        op.create_index("ix_web_table_seats_player_id", "web_table_seats", ["player_id"])
    _first_devices()


def _create_tables() -> None:
    op.create_table(
        "web_devices",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("agent", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("signed_out_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["web_players.id"], name="fk_web_devices_player_id_web_players"),
        sa.PrimaryKeyConstraint("id", name="pk_web_devices"),
        sa.UniqueConstraint("token_hash", name="uq_web_devices_token_hash"),
    )
    op.create_index("ix_web_devices_player_id", "web_devices", ["player_id"])
    op.create_index("ix_web_devices_signed_out_at", "web_devices", ["signed_out_at"])
    op.create_table(
        "web_links",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("device_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["web_players.id"], name="fk_web_links_player_id_web_players"),
        sa.ForeignKeyConstraint(["device_id"], ["web_devices.id"], name="fk_web_links_device_id_web_devices"),
        sa.ForeignKeyConstraint(["claimed_by"], ["web_devices.id"], name="fk_web_links_claimed_by_web_devices"),
        sa.PrimaryKeyConstraint("code_hash", name="pk_web_links"),
    )
    op.create_index("ix_web_links_player_id", "web_links", ["player_id"])
    op.create_table(
        "web_challenges_seen",
        sa.Column("challenge_code", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["challenge_code"], ["web_challenges.code"],
                                name="fk_web_challenges_seen_challenge_code_web_challenges"),
        sa.ForeignKeyConstraint(["player_id"], ["web_players.id"], name="fk_web_challenges_seen_player_id_web_players"),
        sa.PrimaryKeyConstraint("challenge_code", "player_id", name="pk_web_challenges_seen"),
    )
    op.create_index("ix_web_challenges_seen_player_id", "web_challenges_seen", ["player_id"])


def _first_devices() -> None:
    """Each person without a device gets one: the device that made them, with its token (nobody signed out)."""
    bind = op.get_bind()
    players = sa.table("web_players", sa.column("id"), sa.column("token_hash"), sa.column("bot"),
                       sa.column("created_at"))
    devices = sa.table("web_devices", sa.column("id"), sa.column("player_id"), sa.column("token_hash"),
                       sa.column("agent"), sa.column("created_at"), sa.column("seen_at"))
    have = sa.select(devices.c.player_id)
    rows = bind.execute(sa.select(players.c.id, players.c.token_hash, players.c.created_at)
                        .where(players.c.bot == sa.false(), players.c.id.not_in(have))).all()
    if rows:
        op.bulk_insert(devices, [
            {"id": secrets.token_hex(16), "player_id": player, "token_hash": token_hash, "agent": "",
             "created_at": created, "seen_at": created}
            for player, token_hash, created in rows
        ])


def downgrade() -> None:
    op.drop_index("ix_web_table_seats_player_id", table_name="web_table_seats")
    op.create_index("ix_web_games_owner_id", "web_games", ["owner_id"])
    op.drop_index("ix_web_games_owner_over_updated", table_name="web_games")
    op.drop_index("ix_web_challenges_seen_player_id", table_name="web_challenges_seen")
    op.drop_table("web_challenges_seen")
    op.drop_index("ix_web_links_player_id", table_name="web_links")
    op.drop_table("web_links")
    op.drop_index("ix_web_devices_signed_out_at", table_name="web_devices")
    op.drop_index("ix_web_devices_player_id", table_name="web_devices")
    op.drop_table("web_devices")
