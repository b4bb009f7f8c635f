"""A web player who chose no name is stored without one (worded when shown, in the language of whoever looks):
the default names earlier versions stored in the page's language, "Player" and "Joueur", become "".

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

_PLAYERS = sa.table("web_players", sa.column("name", sa.String))
STORED_DEFAULTS = ("Player", "Joueur")  # home.default_name in English and French, as earlier versions stored it


def upgrade() -> None:
    op.execute(_PLAYERS.update().where(_PLAYERS.c.name.in_(STORED_DEFAULTS)).values(name=""))


def downgrade() -> None:
    op.execute(_PLAYERS.update().where(_PLAYERS.c.name == "").values(name=STORED_DEFAULTS[0]))
