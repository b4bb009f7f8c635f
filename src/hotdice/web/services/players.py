"""Players without accounts: a random device token, which the server signs (kept by the browser in an
HttpOnly cookie), and a name. A player may play from several devices (:mod:`hotdice.web.services.devices`):
each device's token names its player until that device is signed out.

Only the token's SHA-256 is stored, so a copy of the database does not let anyone act as a player. The
cookie is the token and its HMAC under the server's device key (:class:`Devices`): a token the server did not
make is not a device here, so a client cannot make up a new one at each request to escape the new-device limit.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import re
import secrets
import time
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hotdice.game.refusals import Refused
from hotdice.game.rules import Rules, RulesError
from hotdice.play import names
from hotdice.store.web_models import WebDevice, WebPlayer
from hotdice.web.errors import BadRequest
from hotdice.web.memo import Recent

__all__ = [
    "COOKIE", "DEFAULT_NAME", "DEVICE_KEY", "Devices", "clean_name", "device_player", "device_player_id",
    "forget_devices", "known_id", "new_token", "token_hash", "update", "valid_token",
]  # fmt: skip

COOKIE = "hotdice_device"
DEVICE_KEY = "device-key"  # the WebSecret that signs the device cookies when HOTDICE_DEVICE_KEY is not set
DEFAULT_NAME = ""  # no name chosen: worded when shown, in the language of whoever looks (hotdice.play.names)
# The ids of the players this process has found, by their device token's hash: a device's player never changes
# (a name or house rules may: those are always read from the database) until the device is signed out. They
# are trusted only while this process has checked the latest sign-out in the last FRESH_SECONDS (a sign-out
# through another process: all are forgotten), and forgotten at once at a sign-out through this one.
_IDS: Recent[str, str] = Recent(100_000)
FRESH_SECONDS = 0.2


class _SignOuts:
    """The latest sign-out this process has seen, and when it last looked."""

    latest: datetime | None = None
    checked = -math.inf  # time.monotonic()


def _check_sign_outs(session: Session) -> None:
    """Forget every remembered player if a device was signed out since the last look (through any process)."""
    latest = session.scalar(select(func.max(WebDevice.signed_out_at)))
    if latest != _SignOuts.latest:
        _IDS.clear()
        _SignOuts.latest = latest
    _SignOuts.checked = time.monotonic()


AGENT_LENGTH = 512  # characters of a User-Agent kept
CHECKED = 100_000  # the device cookies whose check is kept, the most recently used


def new_token() -> str:
    return secrets.token_urlsafe(32)


_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def valid_token(token: str | None) -> bool:
    """A token of the shape this server makes (43 url-safe characters): a device's cookie before signing."""
    return token is not None and _TOKEN.fullmatch(token) is not None


class Devices:
    """The device cookies of a server: ``token.mac``, the mac the token's HMAC-SHA256 under ``key``. Every
    process given the same key accepts the cookies of the others."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        # The genuine cookies met lately, with their tokens: a device's next requests need no HMAC, which
        # costs several times a lookup. Only those the server signed are kept: made-up ones cannot fill it.
        self._checked: Recent[str, str] = Recent(CHECKED)

    def _mac(self, token: str) -> str:
        return base64.urlsafe_b64encode(hmac.digest(self._key, token.encode(), "sha256")).rstrip(b"=").decode()

    def cookie(self, token: str) -> str:
        """The cookie of the device ``token``."""
        return f"{token}.{self._mac(token)}"

    def token(self, cookie: str | None) -> str | None:
        """The device token of a cookie this server signed; None for anything else (made up, forged, signed
        with another key, from before signing)."""
        if cookie is None:
            return None
        found = self._checked.get(cookie)
        if found is not None:
            return found
        token, dot, mac = cookie.partition(".")
        if not dot or not valid_token(token) or not mac.isascii() or not hmac.compare_digest(mac, self._mac(token)):
            return None
        self._checked.put(cookie, token)
        return token


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def find(session: Session, token: str | None) -> WebPlayer | None:
    """The player of a device token: a person's device not signed out, or a bot's token."""
    if not valid_token(token):
        return None
    assert token is not None
    hashed = token_hash(token)
    person = select(WebPlayer).join(WebDevice, WebDevice.player_id == WebPlayer.id).where(
        WebDevice.token_hash == hashed, WebDevice.signed_out_at.is_(None))
    return session.scalar(person) or session.scalar(
        select(WebPlayer).where(WebPlayer.token_hash == hashed, WebPlayer.bot))


def forget_devices() -> None:
    """Forget the players this process knows by device: a device was signed out."""
    _IDS.clear()


def known_id(token: str) -> str | None:
    """The id of this device's player if this process has met it already; None: ask :func:`device_player_id`."""
    if not valid_token(token) or time.monotonic() - _SignOuts.checked > FRESH_SECONDS:
        return None
    return _IDS.get(token_hash(token))


def device_player_id(session: Session, token: str) -> str:
    """The id of :func:`device_player`, without reading the database once this process has met the player."""
    known = known_id(token)
    if known is not None:
        return known
    if not session.in_transaction():  # a fresh transaction: a player found now was committed, and stays
        _check_sign_outs(session)  # in the same transaction: a sign-out after it moves the latest
        player = find(session, token)
        if player is not None:
            _IDS.put(token_hash(token), player.id)
            return player.id
    return device_player(session, token).id


def device_player(session: Session, token: str, agent: str = "") -> WebPlayer:
    """The player of this device, created on first use without a name (:data:`DEFAULT_NAME`), with the device
    as its first (a signed-out device's token names nobody: its browser starts again as a new player);
    ``agent``: its browser's User-Agent, for the list of the player's devices."""
    player = find(session, token)
    if player is not None:
        return player
    hashed = token_hash(token)
    player = WebPlayer(id=secrets.token_hex(16), token_hash=hashed, name=DEFAULT_NAME, rules="farkle")
    try:
        with session.begin_nested():
            session.add(player)
            session.flush()
            session.add(WebDevice(id=secrets.token_hex(16), player_id=player.id, token_hash=hashed,
                                  agent=agent[:AGENT_LENGTH]))
    except IntegrityError:  # the same device's other request created it first
        found = find(session, token)
        assert found is not None
        return found
    return player


def clean_name(name: str, seat: int = 1) -> str:
    """A display name as the play layer takes it (:func:`hotdice.play.names.clean_name`), or a 400 that says
    which name is refused and why."""
    try:
        return names.clean_name(name, seat)
    except Refused as exc:
        raise BadRequest(str(exc), because=exc) from None


def update(player: WebPlayer, *, name: str | None = None, rules: str | None = None) -> None:
    """Change the display name or the house rules of the player's own games."""
    if name is not None:
        player.name = clean_name(name)
    if rules is not None:
        try:
            player.rules = str(Rules.parse(rules))
        except RulesError as exc:
            raise BadRequest(f"bad rules: {exc}", because=exc) from None
