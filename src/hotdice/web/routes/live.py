"""WebSockets: a game's screens get its new state at each move; a table's lobby is told when to refresh."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from hotdice.web.deps import DatabaseDep, HubDep
from hotdice.web.errors import WebError
from hotdice.web.hub import Hub
from hotdice.web.services import games, tables

router = APIRouter()
GONE = 4404  # close code: no such game or table


@router.websocket("/ws/games/{game_id}")
async def game_updates(websocket: WebSocket, game_id: str, db: DatabaseDep, hub: HubDep) -> None:
    def resolve() -> tuple[str, dict[str, Any]]:
        with db.session() as session:
            return f"game:{game_id}", {"type": "game", "view": games.view(games.load(session, game_id))}

    await _serve(websocket, hub, resolve)


@router.websocket("/ws/tables/{code}")
async def table_updates(websocket: WebSocket, code: str, db: DatabaseDep, hub: HubDep) -> None:
    def resolve() -> tuple[str, dict[str, Any]]:
        with db.session() as session:
            return f"table:{tables.find(session, code).code}", {"type": "table"}

    await _serve(websocket, hub, resolve)


async def _serve(websocket: WebSocket, hub: Hub, resolve: Callable[[], tuple[str, dict[str, Any]]]) -> None:
    """Subscribe first, then send the state now: no move can fall between the two."""
    await websocket.accept()
    try:
        topic, _ = await run_in_threadpool(resolve)
        async with hub.subscribe(topic) as queue:
            _, first = await run_in_threadpool(resolve)
            await websocket.send_json(first)
            reader = asyncio.create_task(_until_closed(websocket))
            try:
                while True:
                    getter = asyncio.create_task(queue.get())
                    done, _ = await asyncio.wait({reader, getter}, return_when=asyncio.FIRST_COMPLETED)
                    if reader in done:
                        getter.cancel()
                        return
                    await websocket.send_json(getter.result())
            finally:
                reader.cancel()
    except WebError:
        await websocket.close(GONE)
    except WebSocketDisconnect:
        pass


async def _until_closed(websocket: WebSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.receive_text()
