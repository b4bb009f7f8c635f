"""Bot tokens (programs playing online tables through the API): a bot flag on web players, and the tokens
their owners made.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A database made from the models before migrations existed (stamped 0003 by its tables) may have both.
    found = sa.inspect(op.get_bind())
    if "bot" not in {c["name"] for c in found.get_columns("web_players")}:
        with op.batch_alter_table("web_players") as batch:
            batch.add_column(sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()))
    if "web_bot_tokens" in found.get_table_names():
        return
    op.create_table(
        "web_bot_tokens",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("owner_id", sa.String(length=32), nullable=False),
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["web_players.id"], name="fk_web_bot_tokens_owner_id_web_players"),
        sa.ForeignKeyConstraint(["bot_id"], ["web_players.id"], name="fk_web_bot_tokens_bot_id_web_players"),
        sa.PrimaryKeyConstraint("id", name="pk_web_bot_tokens"),
    )
    op.create_index("ix_web_bot_tokens_owner_id", "web_bot_tokens", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_web_bot_tokens_owner_id", table_name="web_bot_tokens")
    op.drop_table("web_bot_tokens")
    with op.batch_alter_table("web_players") as batch:
        batch.drop_column("bot")
