"""Databases for tests: a fresh SQLite file, or a fresh PostgreSQL database made for one test and dropped after.

The ``database_url`` fixture runs a test once per backend. PostgreSQL is expected at
``$HOTDICE_TEST_POSTGRES`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``, the server CI
runs on); if it cannot be reached the PostgreSQL runs fail loudly. Developers without PostgreSQL set
``HOTDICE_TEST_NO_POSTGRES=1``: the PostgreSQL runs are then not generated at all.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from hotdice.store.migrate import engine_url

__all__ = ["BACKENDS", "NO_POSTGRES_ENV", "POSTGRES_ENV", "database_url", "fresh_database", "fresh_postgres_database"]

POSTGRES_ENV = "HOTDICE_TEST_POSTGRES"
NO_POSTGRES_ENV = "HOTDICE_TEST_NO_POSTGRES"
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"

BACKENDS = ["sqlite"] if os.environ.get(NO_POSTGRES_ENV, "") not in ("", "0") else ["sqlite", "postgresql"]


def _server() -> URL:
    return engine_url(os.environ.get(POSTGRES_ENV) or DEFAULT_POSTGRES)


def fresh_postgres_database() -> Iterator[str]:
    """Create a database of our own on the test server, yield its URL, then drop it (closing leftover
    connections, e.g. of a killed server process)."""
    server = _server()
    name = f"hotdice_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(server, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # any driver error: say plainly what is missing
        admin.dispose()
        pytest.fail(
            f"PostgreSQL is not reachable at {server.render_as_string()} ({type(exc).__name__}: {exc}); "
            f"start it, point {POSTGRES_ENV} at one, or set {NO_POSTGRES_ENV}=1 to test SQLite only",
            pytrace=False,
        )
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def fresh_database(backend: str, directory: Path) -> Iterator[str]:
    """The URL of an empty database of ``backend``: a SQLite file in ``directory``, or a PostgreSQL database."""
    if backend == "sqlite":
        yield URL.create("sqlite", database=str(directory / "hotdice-test.sqlite3")).render_as_string()
    else:
        yield from fresh_postgres_database()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database of its own for this test: SQLite, then PostgreSQL."""
    yield from fresh_database(request.param, tmp_path)
