"""WebSockets: a game's screens get its new state at each move; a table's lobby is told when to refresh.

Moves made through this process arrive from the hub at once; so do those of other processes where a channel
carries them. Without one (SQLite), the hub's one watcher per game or table checks every :attr:`Hub.poll`
seconds whether the number that moves with it (a game's action number, a table's seats and game) has moved.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Hashable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from hotdice.web.db import Database
from hotdice.web.deps import DatabaseDep, HubDep
from hotdice.web.errors import WebError
from hotdice.web.hub import RELOAD, Feed, Hub
from hotdice.web.services import games, tables

router = APIRouter()
GONE = 4404  # close code: no such game or table


@router.websocket("/ws/games/{game_id}")
async def game_updates(websocket: WebSocket, game_id: str, db: DatabaseDep, hub: HubDep) -> None:
    await _serve(websocket, hub, lambda: game_feed(db, game_id))


def game_feed(db: Database, game_id: str) -> Feed:
    """What follows a game (blocking: run in a worker thread): its live updates, its view, its action number."""
    with db.session() as session:
        found = games.find(session, game_id).id

    def state() -> dict[str, Any]:
        with db.session() as session:
            return {"type": "game", "view": games.view_by_id(session, found, None)}

    def version() -> Hashable:
        with db.session() as session:
            return games.find(session, found).action

    return Feed(f"game:{found}", state, version, carried=_action_number)


def _action_number(message: dict[str, Any]) -> int:
    """The action number of a game's live update: its view, made here, or as another process sent it (JSON)."""
    view = message["view"]
    return int(view["n"]) if isinstance(view, dict) else int(view.n)


@router.websocket("/ws/tables/{code}")
async def table_updates(websocket: WebSocket, code: str, db: DatabaseDep, hub: HubDep) -> None:
    def feed() -> Feed:
        with db.session() as session:
            found = tables.find(session, code).code
        return Feed(f"table:{found}", lambda: {"type": "table"}, lambda: _table_version(db, found))

    await _serve(websocket, hub, feed)


def _table_version(db: Database, code: str) -> Hashable:
    with db.session() as session:
        return tables.version(session, code)


async def _serve(websocket: WebSocket, hub: Hub, make_feed: Callable[[], Feed]) -> None:
    """Subscribe first, then send the state now: no move can fall between the two."""
    await websocket.accept()
    try:
        feed = await run_in_threadpool(make_feed)
        async with hub.subscribe(feed.topic, feed) as queue:
            await _send(websocket, await run_in_threadpool(feed.state))
            reader = asyncio.create_task(_until_closed(websocket))
            getter = asyncio.create_task(queue.get())
            try:
                while True:
                    done, _ = await asyncio.wait({reader, getter}, return_when=asyncio.FIRST_COMPLETED)
                    if reader in done:
                        return
                    message = getter.result()
                    getter = asyncio.create_task(queue.get())
                    if message == RELOAD:
                        message = await run_in_threadpool(feed.state)
                    await _send(websocket, message)
            finally:
                reader.cancel()
                getter.cancel()
    except WebError:
        await websocket.close(GONE)
    except WebSocketDisconnect:
        pass


async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
    """A message as JSON text, its typed view written as the API writes it."""
    await websocket.send_text(orjson.dumps(message).decode())


async def _until_closed(websocket: WebSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.receive_text()
