"""The database schema is the Alembic history in ``hotdice/store/migrations``, brought to its head whenever a
database is opened (:func:`upgrade`).

Several processes may open one database at once (``hotdice serve --workers``, or a statistics command while
the server runs), so the upgrade is one transaction taken under a lock: PostgreSQL's advisory lock, or
SQLite's write lock (``BEGIN IMMEDIATE``); whoever comes second finds the head and has nothing to do.

Databases made before migrations existed (tables, no ``alembic_version``) are stamped with the revision
their tables match, then upgraded by the same revisions as everyone else, rows and all.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Connection, Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.pool import NullPool

__all__ = ["MIGRATIONS", "config", "current", "engine_url", "head", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")
ADVISORY_LOCK = 0x686F7464696365  # "hotdice": the key every process takes around an upgrade on PostgreSQL
SQLITE_BUSY_SECONDS = 30.0  # how long a SQLite connection waits for another process's write lock

# Before migrations, the tables were made from the models of the day; what they match, by revision.
STATISTICS, OWNER, WEB_TABLES = "0001", "0002", "0003"


def engine_url(url: str | URL) -> URL:
    """``url`` with a driver the package installs: plain ``postgresql://`` (or ``postgres://``) means psycopg 3."""
    url = make_url(url)
    if url.drivername in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    return url


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, made in code (no ``alembic.ini``); migrations run on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def head() -> str:
    """The revision the models are at."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    if revision is None:
        raise RuntimeError(f"no migrations in {MIGRATIONS}")
    return revision


def current(connection: Connection) -> str | None:
    """The revision the database is at; None before any migration."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(url: str | URL) -> None:
    """Bring the database at ``url`` to the head revision, adopting one made before migrations."""
    engine = _migration_engine(url)
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
            _adopt(connection)
            command.upgrade(config(connection), "head")
    finally:
        engine.dispose()


def _adopt(connection: Connection) -> None:
    """Stamp a database made before migrations with the revision its tables are at."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables or "game_results" not in tables:
        return
    columns = {column["name"] for column in inspect(connection).get_columns("game_results")}
    if "web_players" in tables:
        revision = WEB_TABLES
    elif "owner" in columns:
        revision = OWNER
    else:
        revision = STATISTICS
    command.stamp(config(connection), revision)


def _migration_engine(url: str | URL) -> Engine:
    """An engine for one upgrade. On SQLite, SQLAlchemy says when transactions begin (the driver would not
    put DDL in one) and takes the write lock at once; foreign keys stay off, as SQLite asks while a migration
    copies a table (dropping the old copy would otherwise cascade into the rows that refer to it)."""
    url = engine_url(url)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, poolclass=NullPool)
    engine = create_engine(url, poolclass=NullPool, connect_args={"timeout": SQLITE_BUSY_SECONDS})

    @event.listens_for(engine, "connect")
    def _driver_leaves_transactions_to_us(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA journal_mode=WAL")

    @event.listens_for(engine, "begin")
    def _take_the_write_lock(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
