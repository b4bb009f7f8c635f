"""Storage: SQLAlchemy models of finished games and the database they live in."""

from hotdice.store.db import DATA_DIR_ENV, DB_FILE, Store, data_dir, default_url
from hotdice.store.models import NAME_LENGTH, Base, GameResult, RollCount

__all__ = [
    "DATA_DIR_ENV",
    "DB_FILE",
    "NAME_LENGTH",
    "Base",
    "GameResult",
    "RollCount",
    "Store",
    "data_dir",
    "default_url",
]
