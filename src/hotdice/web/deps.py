"""What routes are given: the database session, the device's player, the language, the hub, the settings.

Used as ``Annotated`` aliases (``SessionDep``, ``PlayerDep``, ...), as in the FastAPI full-stack template.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, MutableMapping
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from hotdice.store.web_models import WebPlayer
from hotdice.web.asgi import device_cookie
from hotdice.web.db import Database
from hotdice.web.hub import Hub
from hotdice.web.i18n import COOKIE as LANG_COOKIE
from hotdice.web.i18n import Translator, pick_language
from hotdice.web.services import players
from hotdice.web.settings import Settings

__all__ = [
    "DatabaseDep",
    "DeviceDep",
    "HubDep",
    "PlayerDep",
    "PlayerIdDep",
    "SessionDep",
    "SettingsDep",
    "TranslatorDep",
    "VisitorDep",
    "token_of",
    "translator",
]


# The dependencies that only read what the app or the request already holds are ``async``: FastAPI runs a
# plain ``def`` dependency in a worker thread, and each such hand-off costs more than the dependency itself.


def _db(conn: HTTPConnection) -> Database:
    db: Database = conn.app.state.db
    return db


async def _database(conn: HTTPConnection) -> Database:
    return _db(conn)


async def _session(conn: HTTPConnection) -> AsyncIterator[Session]:
    """A session for the request; routes commit what they acknowledge, anything else is rolled back.

    Async, so that the request waits on the event loop for its turn at the pool's connections (the
    database's admission) and closes the session there, without holding a worker thread meanwhile.
    """
    db = _db(conn)
    async with db.admission:
        with db.session() as session:
            yield session


async def _settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


async def _hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def token_of(scope: MutableMapping[str, Any]) -> str:
    """The device's token: its cookie, or the one the device middleware has just made for it."""
    token = scope.get("state", {}).get("device_token") or device_cookie(scope)
    return str(token or "")


async def device_token(conn: HTTPConnection) -> str:
    return token_of(conn.scope)


DatabaseDep = Annotated[Database, Depends(_database)]
SessionDep = Annotated[Session, Depends(_session)]
SettingsDep = Annotated[Settings, Depends(_settings)]
HubDep = Annotated[Hub, Depends(_hub)]
DeviceDep = Annotated[str, Depends(device_token)]


def translator(request: Request) -> Translator:
    """The translator to the request's language: its cookie's, else its browser's."""
    return Translator(pick_language(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language")))


async def _translator(request: Request) -> Translator:
    return translator(request)


TranslatorDep = Annotated[Translator, Depends(_translator)]


def _player(request: Request, session: SessionDep, token: DeviceDep) -> WebPlayer:
    return players.device_player(session, token, request.headers.get("user-agent", ""))


async def _player_id(session: SessionDep, token: DeviceDep) -> str:
    """Without a worker thread when this process knows the device's player already (its id never changes)."""
    known = players.known_id(token)
    if known is not None:
        return known
    return await run_in_threadpool(players.device_player_id, session, token)


def _visitor(session: SessionDep, token: DeviceDep) -> WebPlayer | None:
    return players.find(session, token)


PlayerDep = Annotated[WebPlayer, Depends(_player)]  # made on first use
PlayerIdDep = Annotated[str, Depends(_player_id)]  # the id of PlayerDep, for routes that need only that
VisitorDep = Annotated[WebPlayer | None, Depends(_visitor)]  # None until the device has played
