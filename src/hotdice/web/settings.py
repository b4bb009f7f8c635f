"""Settings of the web service, read from the environment once, when the app is made."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import URL

from hotdice.play.daily import DAILY_KEY_ENV
from hotdice.store import DB_FILE, data_dir

__all__ = ["DATABASE_URL_ENV", "DEVICE_KEY_ENV", "REDIS_URL_ENV", "Rate", "Settings"]

DATABASE_URL_ENV = "HOTDICE_DATABASE_URL"
DEVICE_KEY_ENV = "HOTDICE_DEVICE_KEY"
MIN_DEVICE_KEY = 32  # characters: a shorter key could be guessed, and with it any device's cookie made
REDIS_URL_ENV = "HOTDICE_REDIS_URL"
_RATE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*/\s*s\s+burst\s+(\d+)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Rate:
    """A token bucket: up to ``burst`` requests at once, then ``per_second`` on average."""

    per_second: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"5/s burst 40"``; ``"off"`` means no limit."""
        if text.strip().lower() == "off":
            return None
        found = _RATE.fullmatch(text)
        rate = None if found is None else cls(float(found[1]), int(found[2]))
        if rate is None or not (math.isfinite(rate.per_second) and rate.per_second > 0 and rate.burst >= 1):
            raise ValueError(f"a rate limit reads like '5/s burst 40' or 'off', not {text!r}")
        return rate


# A player at the table makes a few actions a second at most, the computer's moves one every 350 ms or more;
# a club's players may share one address; a script that drops its cookie is a new device at each request.
PLAYER_RATE = Rate(5, 40)
ADDRESS_RATE = Rate(50, 300)
NEW_DEVICE_RATE = Rate(1, 60)
# Claims of link codes, per address and per device: ten tries, then one a minute (a code has 80 bits).
LINK_CLAIM_RATE = Rate(1 / 60, 10)
MAX_BODY = 16 * 1024  # the largest body the API takes (eight names and a rules string) is under 2 KiB
# A browser opens up to six connections to a site and keeps one WebSocket per screen; a club behind one address
# has a few dozen players. A request head (at most 16 KiB of headers) arrives in well under a second.
CONNECTIONS_PER_ADDRESS = 256
WEBSOCKETS_PER_ADDRESS = 64
HEAD_TIMEOUT = 5.0  # seconds


@dataclass(frozen=True)
class Settings:
    """Where the data lives: ``database_url``, or else SQLite in ``data_dir`` (the statistics database)."""

    data_dir: Path
    database_url: str | None = None
    redis_url: str | None = None  # live updates between server processes through Redis (hotdice.web.hub)
    daily_key: bytes | None = None  # None: a key the server makes once and keeps in its database
    device_key: bytes | None = None  # signs the device cookies; None: one kept in the database, as the daily key
    player_rate: Rate | None = PLAYER_RATE  # per device (cookie); None: no limit
    address_rate: Rate | None = ADDRESS_RATE  # per client address
    new_device_rate: Rate | None = NEW_DEVICE_RATE  # requests without a signed device cookie, per address
    link_claim_rate: Rate | None = LINK_CLAIM_RATE  # claims of link codes, per address and per device
    max_body: int = MAX_BODY  # bytes
    connections_per_address: int | None = CONNECTIONS_PER_ADDRESS  # open HTTP connections; None: no cap
    websockets_per_address: int | None = WEBSOCKETS_PER_ADDRESS  # open WebSockets, of the forwarded client too
    head_timeout: float = HEAD_TIMEOUT  # seconds a connection has to send a whole request head

    @classmethod
    def from_env(cls) -> Settings:
        """``HOTDICE_DATA_DIR``, ``_DATABASE_URL``, ``_REDIS_URL``, ``_DAILY_KEY``, ``_DEVICE_KEY`` and the
        limits (README)."""

        def rate(name: str, default: Rate) -> Rate | None:
            text = os.environ.get(name, "").strip()
            return Rate.parse(text) if text else default

        def cap(name: str, default: int) -> int | None:
            text = os.environ.get(name, "").strip()
            if text.lower() == "off":
                return None
            if text and not (text.isdigit() and int(text) > 0):
                raise ValueError(f"{name} is a whole number above 0 or 'off', not {text!r}")
            return int(text) if text else default

        max_body = os.environ.get("HOTDICE_MAX_BODY", "").strip()
        if max_body and not (max_body.isdigit() and int(max_body) > 0):
            raise ValueError(f"HOTDICE_MAX_BODY is a number of bytes, not {max_body!r}")
        device_key = os.environ.get(DEVICE_KEY_ENV, "").strip()
        if device_key and len(device_key) < MIN_DEVICE_KEY:
            raise ValueError(f"{DEVICE_KEY_ENV} has at least {MIN_DEVICE_KEY} characters (it has {len(device_key)})")
        head_timeout = os.environ.get("HOTDICE_HEAD_TIMEOUT", "").strip()
        try:
            seconds = float(head_timeout) if head_timeout else HEAD_TIMEOUT
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"HOTDICE_HEAD_TIMEOUT is a number of seconds, not {head_timeout!r}")
        settings = cls(
            data_dir=data_dir(),
            database_url=os.environ.get(DATABASE_URL_ENV) or None,
            redis_url=os.environ.get(REDIS_URL_ENV) or None,
            daily_key=os.environ.get(DAILY_KEY_ENV, "").encode() or None,
            device_key=device_key.encode() or None,
            player_rate=rate("HOTDICE_RATE_PLAYER", PLAYER_RATE),
            address_rate=rate("HOTDICE_RATE_ADDRESS", ADDRESS_RATE),
            new_device_rate=rate("HOTDICE_RATE_NEW_DEVICE", NEW_DEVICE_RATE),
            link_claim_rate=rate("HOTDICE_RATE_LINK_CLAIM", LINK_CLAIM_RATE),
            max_body=int(max_body) if max_body else MAX_BODY,
            connections_per_address=cap("HOTDICE_CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS),
            websockets_per_address=cap("HOTDICE_WEBSOCKETS_PER_ADDRESS", WEBSOCKETS_PER_ADDRESS),
            head_timeout=seconds,
        )
        off = os.environ.get("HOTDICE_RATE_LIMITS", "").strip().lower() == "off"
        return settings.unlimited() if off else settings

    def unlimited(self) -> Settings:
        """These settings without rate limits: for load tests, and for tests that ask faster than a person."""
        return replace(self, player_rate=None, address_rate=None, new_device_rate=None, link_claim_rate=None)

    def url(self) -> str | URL:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite", database=str(self.data_dir / DB_FILE))
