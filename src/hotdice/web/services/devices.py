"""One player on several devices: a link code made on one device makes another browser the same player; the
player lists their devices and signs any of them out. No password anywhere: a device is its cookie's token.

- A code is 80 random bits (16 letters and digits of base32, shown in four groups), kept only as its SHA-256,
  valid :data:`LINK_MINUTES`, used up by its first claim, refused once the device that made it is signed out.
  A player has at most :data:`LIVE_LINKS` codes alive at once; claims are rate-limited per address and per
  device in front of the app (:mod:`hotdice.web.limits`).
- Claiming gives the browser a new device token of the player (a new cookie). The device the browser was leaves
  it: signed out, with the player it was and that player's games (a player with no device left).
- Signing out a device gives its row a random token hash: its token names nobody from then on (its browser
  starts again as a new player); this process forgets at once the players it knew by device, the others
  within :data:`hotdice.web.services.players.FRESH_SECONDS`.

SECURITY.md, section 10, says what someone who sees a code can and cannot do.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from ua_parser import parse

from hotdice.store.web_models import WebDevice, WebLink, WebPlayer
from hotdice.web.db import Database, hold
from hotdice.web.errors import Conflict, Forbidden, Gone, NotFound, TooMany
from hotdice.web.memo import Recent
from hotdice.web.services.players import AGENT_LENGTH, new_token, token_hash

__all__ = [
    "LINK_MINUTES", "LIVE_LINKS", "Browser", "Claimed", "DeviceEntry", "Link", "browser", "claim", "devices_of",
    "make_link", "seen", "sign_out",
]  # fmt: skip

LINK_MINUTES = 10
LIVE_LINKS = 5  # codes of one player alive at once
CODE_BYTES = 10  # 80 bits: 16 characters of base32
_CODE = re.compile(r"[A-Z2-7]{16}")
SEEN_EVERY = timedelta(minutes=15)  # a device's "last seen" is written at most this often by a process
_SEEN: Recent[str, datetime] = Recent(100_000)  # when this process last wrote a device's "last seen"


def _aware(at: datetime) -> datetime:
    """A stored time with its zone: UTC, which SQLite gives back without it."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Link:
    code: str  # shown once, in four groups of four: only its hash is kept
    expires_at: datetime


@dataclass(frozen=True)
class Claimed:
    player: WebPlayer
    token: str  # the browser's new device token: its new cookie
    device: str  # its id


@dataclass(frozen=True)
class Browser:
    """What a User-Agent says of a device: its browser and its system (each "" when it does not say)."""

    browser: str
    system: str


@dataclass(frozen=True)
class DeviceEntry:
    id: str
    browser: str
    system: str
    first_seen: datetime
    last_seen: datetime
    current: bool  # the device asking


# Base32 has no 0, 1 or 8: typed for the letters they look like, they are read as those letters.
_LOOKALIKES = str.maketrans("018", "OIB")


def _plain(code: str) -> str:
    """A code as typed (any case, with or without its dashes and spaces, 0, 1 or 8 for O, I or B) in its stored
    form."""
    return re.sub(r"[\s-]", "", code).upper().translate(_LOOKALIKES)


def _shown(code: str) -> str:
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _device(session: Session, token: str) -> WebDevice | None:
    """The device of a token, if it is a person's device not signed out."""
    return session.scalar(select(WebDevice).where(WebDevice.token_hash == token_hash(token),
                                                  WebDevice.signed_out_at.is_(None)))


def make_link(session: Session, token: str, now: datetime) -> Link:
    """A new link code of the device ``token``'s player, valid :data:`LINK_MINUTES`."""
    device = _device(session, token)
    if device is None:  # a bot's token, or a browser that has not played yet: it is nobody to link
        raise Forbidden.said("error.link_no_player")
    hold(session, WebPlayer, device.player_id)  # two asks at once count each other
    alive = session.scalars(
        select(WebLink.expires_at).where(WebLink.player_id == device.player_id, WebLink.expires_at > now,
                                         WebLink.claimed_at.is_(None)).order_by(WebLink.expires_at)
    ).all()
    if len(alive) >= LIVE_LINKS:
        wait = max(1, int((_aware(alive[0]) - now).total_seconds()) + 1)
        raise TooMany.said("error.link_too_many", count=LIVE_LINKS, seconds=wait).waiting(wait)
    code = base64.b32encode(secrets.token_bytes(CODE_BYTES)).decode()
    expires = now + timedelta(minutes=LINK_MINUTES)
    session.add(WebLink(code_hash=_code_hash(code), player_id=device.player_id, device_id=device.id,
                        created_at=now, expires_at=expires))
    return Link(_shown(code), expires)


def claim(session: Session, code: str, token: str, agent: str, now: datetime) -> Claimed:
    """The browser of ``token`` becomes the player of ``code`` on a new device; the code is used up."""
    plain = _plain(code)
    if _CODE.fullmatch(plain) is None:
        raise NotFound.said("error.link_unknown")
    hashed = _code_hash(plain)
    if session.get(WebLink, hashed) is None:
        raise NotFound.said("error.link_unknown")
    hold(session, WebLink, hashed)  # one claim at a time: the second reads the first's
    link = session.get(WebLink, hashed, populate_existing=True)
    assert link is not None
    maker = session.get(WebDevice, link.device_id)
    if link.claimed_at is not None:
        raise Gone.said("error.link_used")
    if _aware(link.expires_at) <= now:
        raise Gone.said("error.link_expired")
    if maker is None or maker.signed_out_at is not None:
        raise Gone.said("error.link_signed_out")
    was = _device(session, token)
    if was is not None and was.player_id == link.player_id:
        raise Conflict.said("error.link_same_player")
    if was is not None:
        _sign_out(session, was, now)
    fresh = new_token()
    device = WebDevice(id=secrets.token_hex(16), player_id=link.player_id, token_hash=token_hash(fresh),
                       agent=agent[:AGENT_LENGTH], created_at=now, seen_at=now)
    session.add(device)
    session.flush()
    link.claimed_at, link.claimed_by = now, device.id
    player = session.get(WebPlayer, link.player_id)
    assert player is not None
    return Claimed(player, fresh, device.id)


@lru_cache(maxsize=1024)
def browser(agent: str) -> Browser:
    """The browser and system a User-Agent names (ua-parser's families; "Other" is said as nothing)."""
    found = parse(agent)
    name = found.user_agent.family if found.user_agent is not None else ""
    system = found.os.family if found.os is not None else ""
    return Browser("" if name == "Other" else name, "" if system == "Other" else system)


def devices_of(session: Session, token: str) -> list[DeviceEntry]:
    """The devices of the asking device's player not signed out, the one asking first, then the latest seen."""
    asking = _device(session, token)
    if asking is None:
        return []
    rows = session.scalars(select(WebDevice).where(WebDevice.player_id == asking.player_id,
                                                   WebDevice.signed_out_at.is_(None)))
    entries = []
    for row in rows:
        named = browser(row.agent)
        entries.append(DeviceEntry(row.id, named.browser, named.system, _aware(row.created_at), _aware(row.seen_at),
                                   row.id == asking.id))
    return sorted(entries, key=lambda e: (not e.current, -e.last_seen.timestamp(), e.id))


def _sign_out(session: Session, device: WebDevice, now: datetime) -> None:
    """Its token names nobody from now on: its browser's next request makes a new player of that token."""
    player = session.get(WebPlayer, device.player_id)
    assert player is not None
    if player.token_hash == device.token_hash:  # the device that made the player: its token is kept there too
        player.token_hash = token_hash(new_token())
    device.signed_out_at = now
    device.token_hash = token_hash(new_token())  # nobody holds this one


def sign_out(session: Session, token: str, device_id: str, now: datetime) -> None:
    """Sign out one of the asking player's devices (this one too): its token names nobody from now on. The
    caller commits, then forgets the players this process knew by device."""
    asking = _device(session, token)
    target = session.get(WebDevice, device_id) if asking is not None else None
    if target is None or asking is None or target.player_id != asking.player_id or target.signed_out_at is not None:
        raise NotFound.said("error.no_device")
    _sign_out(session, target, now)


def seen(db: Database, token: str, agent: str, now: datetime) -> None:
    """Write the device's "last seen" and User-Agent, at most every :data:`SEEN_EVERY` in this process, in a
    transaction of its own (whatever the request then does)."""
    hashed = token_hash(token)
    last = _SEEN.get(hashed)
    if last is not None and now - last < SEEN_EVERY:
        return
    _SEEN.put(hashed, now)
    with db.session() as session:
        session.execute(update(WebDevice).where(WebDevice.token_hash == hashed, WebDevice.signed_out_at.is_(None))
                        .values(seen_at=now, agent=agent[:AGENT_LENGTH]))
        session.commit()

