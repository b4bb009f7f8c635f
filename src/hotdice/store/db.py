"""Where the database lives and how to open it.

By default a SQLite file in the user's data folder (``platformdirs``), or in ``$HOTDICE_DATA_DIR`` when set
(tests, portable installs); any SQLAlchemy URL may be given instead (the web service's PostgreSQL).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from hotdice.store.models import Base

__all__ = ["DATA_DIR_ENV", "DB_FILE", "Store", "data_dir", "default_url"]

DATA_DIR_ENV = "HOTDICE_DATA_DIR"
DB_FILE = "hotdice.sqlite3"


def data_dir() -> Path:
    """The folder of the default database: ``$HOTDICE_DATA_DIR`` or the user's data folder."""
    folder = os.environ.get(DATA_DIR_ENV)
    return Path(folder) if folder else Path(user_data_dir("hotdice", appauthor=False))


def default_url() -> URL:
    return URL.create("sqlite", database=str(data_dir() / DB_FILE))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets a reader (``hotdice stats``) run while a game is being recorded; foreign keys are off by
    # default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """An open database: its engine and a session factory. Creates the tables it needs."""

    def __init__(self, url: str | URL | None = None) -> None:
        if url is None:
            data_dir().mkdir(parents=True, exist_ok=True)
            url = default_url()
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # Until migrations exist, the models are the schema.
        Base.metadata.create_all(self.engine)
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
