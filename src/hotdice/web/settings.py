"""Settings of the web service, read from the environment once, when the app is made."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import URL

from hotdice.modes import DAILY_KEY_ENV
from hotdice.store import DB_FILE, data_dir

__all__ = ["DATABASE_URL_ENV", "Settings"]

DATABASE_URL_ENV = "HOTDICE_DATABASE_URL"


@dataclass(frozen=True)
class Settings:
    """Where the data lives: ``database_url``, or else SQLite in ``data_dir`` (the statistics database)."""

    data_dir: Path
    database_url: str | None = None
    daily_key: bytes | None = None  # None: a key the server makes once and keeps in its database

    @classmethod
    def from_env(cls) -> Settings:
        """``HOTDICE_DATA_DIR``, ``HOTDICE_DATABASE_URL`` and ``HOTDICE_DAILY_KEY``."""
        return cls(
            data_dir=data_dir(),
            database_url=os.environ.get(DATABASE_URL_ENV) or None,
            daily_key=os.environ.get(DAILY_KEY_ENV, "").encode() or None,
        )

    def url(self) -> str | URL:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite", database=str(self.data_dir / DB_FILE))
