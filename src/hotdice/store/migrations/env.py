"""Alembic's environment: migrations run on the connection that :mod:`hotdice.store.migrate` hands over,
inside its transaction (and, on PostgreSQL, under its advisory lock)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

import hotdice.store.web_models  # noqa: F401  (the web tables belong to the same metadata)
from hotdice.store.models import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("hotdice migrations run through hotdice.store.migrate, which passes a connection")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
