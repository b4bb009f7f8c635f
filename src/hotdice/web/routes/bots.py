"""The bot API (as lichess's): a player's bot tokens, and a bot's stream of the game it plays. A bot joins an
online table and acts through the routes people use (``/api/tables/{code}/join``, ``/api/games/{id}/act``),
with ``Authorization: Bearer <token>`` (:mod:`hotdice.web.bots`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from hotdice.game.record import time_text
from hotdice.store.web_models import WebBotToken
from hotdice.web.deps import DatabaseDep, HubDep, PlayerDep, SessionDep
from hotdice.web.errors import Forbidden
from hotdice.web.routes.live import game_feed
from hotdice.web.schemas import EDGE, BotToken, BotTokenIn, BotTokenMade, GameId, refusals
from hotdice.web.services import bots, games

router = APIRouter(prefix="/api", tags=["bots"], responses=EDGE)

KEEP_ALIVE = 10.0  # seconds without a change before the stream sends a keep-alive line
KEEP_ALIVE_LINE = b'{"type":"keep-alive"}\n'


def _shown(row: WebBotToken) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "revoked": row.revoked, "created_at": time_text(row.created_at)}


@router.post("/me/bot-tokens", status_code=201, response_model=BotTokenMade, responses=refusals(403))
def make_token(body: BotTokenIn, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    """A new bot called ``name`` and its token, shown this once (only its hash is kept)."""
    made = bots.make(session, player, body.name)
    session.commit()
    return {**_shown(made.row), "token": made.token}


@router.get("/me/bot-tokens", response_model=list[BotToken])
def my_tokens(player: PlayerDep, session: SessionDep) -> list[dict[str, Any]]:
    found = [_shown(row) for row in bots.mine(session, player)]
    session.commit()
    return found


@router.delete("/me/bot-tokens/{token_id}", status_code=204, responses=refusals(404))
def revoke_token(token_id: GameId, player: PlayerDep, session: SessionDep) -> Response:
    """The token stops working at once; its bot keeps its seats and results."""
    bots.revoke(session, player, token_id)
    session.commit()
    return Response(status_code=204)


_NDJSON: dict[int | str, dict[str, Any]] = {
    200: {"description": "One JSON object a line: the game's views and keep-alives",
          "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
}


@router.get("/bot/games/{game_id}/stream", response_class=StreamingResponse,
            responses={**_NDJSON, **refusals(401, 403, 404)})
async def stream(game_id: GameId, request: Request, db: DatabaseDep, hub: HubDep) -> StreamingResponse:
    """NDJSON: ``{"type": "game", "view": ...}`` (the typed view, the bot's seats in ``you``) now and after every
    change, ``{"type": "keep-alive"}`` after each quiet stretch; it ends with the view of the game over."""
    bot_id = request.scope.get("state", {}).get("bot")
    if bot_id is None:
        raise Forbidden.said("error.bot_only")
    feed = await run_in_threadpool(game_feed, db, game_id)  # 404 for no such game

    def view() -> Any:
        with db.session() as session:
            return games.view_by_id(session, game_id, bot_id)

    async def lines() -> AsyncIterator[bytes]:
        async with hub.subscribe(feed.topic, feed) as queue:
            shown = await run_in_threadpool(view)
            yield orjson.dumps({"type": "game", "view": shown}) + b"\n"
            while shown.outcome is None:
                try:
                    await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                except TimeoutError:
                    yield KEEP_ALIVE_LINE
                    continue
                shown = await run_in_threadpool(view)
                yield orjson.dumps({"type": "game", "view": shown}) + b"\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")
