"""Daily seeds (RULES.md, "Modes"): the day of the daily game and the key of its dice, the same for everyone
on a UTC day."""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import UTC, date, datetime

__all__ = ["DAILY_KEY_ENV", "DEFAULT_DAILY_KEY", "daily_day", "daily_seed"]

DAILY_KEY_ENV = "HOTDICE_DAILY_KEY"
# Not a secret: it lets the daily game be played offline, and anyone can read it here. A server that wants
# the day's dice to stay unknown until the day sets HOTDICE_DAILY_KEY to a key of its own.
DEFAULT_DAILY_KEY = b"hotdice daily dice, offline default key (not secret)"


def daily_day(now: datetime | None = None) -> date:
    """The day of the daily game at ``now``: the UTC date, which changes at midnight UTC."""
    now = datetime.now(UTC) if now is None else now
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("the time of a daily game needs a time zone, e.g. datetime.now(UTC)")
    return now.astimezone(UTC).date()


def daily_seed(day: date, key: bytes | None = None) -> bytes:
    """HMAC-SHA256(key, "daily/YYYY-MM-DD"): the dice key of that day's game."""
    if key is None:
        key = os.environ.get(DAILY_KEY_ENV, "").encode() or DEFAULT_DAILY_KEY
    return hmac.new(key, f"daily/{day.isoformat()}".encode(), hashlib.sha256).digest()
