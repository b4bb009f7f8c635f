"""Where the database lives and how to open it.

By default a SQLite file in the user's data folder (``platformdirs``), or in ``$HOTDICE_DATA_DIR`` when set
(tests, portable installs); any SQLAlchemy URL may be given instead (the web service's PostgreSQL). Opening
a database brings its schema to the newest migration (:mod:`hotdice.store.migrate`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from hotdice.store.migrate import SQLITE_BUSY_SECONDS, engine_url, upgrade

__all__ = ["DATA_DIR_ENV", "DB_FILE", "Store", "data_dir", "default_url"]

DATA_DIR_ENV = "HOTDICE_DATA_DIR"
DB_FILE = "hotdice.sqlite3"


def data_dir() -> Path:
    """The folder of the default database: ``$HOTDICE_DATA_DIR`` or the user's data folder."""
    folder = os.environ.get(DATA_DIR_ENV)
    return Path(folder) if folder else Path(user_data_dir("hotdice", appauthor=False))


def default_url() -> URL:
    return URL.create("sqlite", database=str(data_dir() / DB_FILE))


PING_AFTER_IDLE = 2.0  # seconds a pooled connection may rest before it is checked at its next use
_RESTED_SINCE = "hotdice_rested_since"


def _ping_after_rest(engine: Engine) -> None:
    """Check a pooled connection before use only when it has rested ``PING_AFTER_IDLE`` seconds: a dead one
    (the server restarted, a proxy cut it) is replaced before a request gets it. Checking at every use
    (``pool_pre_ping``) cost a round trip to the server in each game action, for connections that had just
    proved alive. SQLAlchemy's documented custom pessimistic check: raising DisconnectionError at checkout
    has the pool open a new connection."""

    @event.listens_for(engine, "checkin")
    def rested(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RESTED_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_RESTED_SINCE, None)
        if since is not None and time.monotonic() - since >= PING_AFTER_IDLE:
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as exc:
                raise DisconnectionError(f"a pooled connection is gone: {exc}") from exc


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (``hotdice stats``, other server processes) run while a game is being recorded, and
    # writers wait for each other (the busy timeout); foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """An open database, migrated to the newest schema: its engine and a session factory."""

    def __init__(self, url: str | URL | None = None) -> None:
        if url is None:
            data_dir().mkdir(parents=True, exist_ok=True)
            url = default_url()
        url = engine_url(url)
        upgrade(url)
        if url.get_backend_name() == "sqlite":
            self.engine: Engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url)
            _ping_after_rest(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new session; use it as a context manager and commit what should stay."""
        return self._sessions()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
