"""Bot tokens at the door: a request with ``Authorization: Bearer <token>`` is the bot's, as if its device,
or it is refused (401: a token that names no bot; 403: a route that is not for bots, the daily and the
friend challenges first). Placed before the rate limits, so that a bot's requests count against its own
device bucket (:mod:`hotdice.web.services.bots`)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from hotdice.web.asgi import act_as, header
from hotdice.web.db import Database
from hotdice.web.errors import said_body
from hotdice.web.limits import refuse
from hotdice.web.services import bots

__all__ = ["BotTokens"]


class BotTokens:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        given = header(scope, b"authorization") if scope["type"] in ("http", "websocket") else None
        if given is None:
            await self.app(scope, receive, send)
            return
        scheme, _, token = given.decode("latin-1").partition(" ")
        db: Database = scope["app"].state.db

        def bot_id() -> str | None:
            with db.session() as session:
                found = bots.bot_of(session, token.strip())
                return None if found is None else found.id

        found = None
        if scheme.lower() == "bearer":
            async with db.admission:
                found = await run_in_threadpool(bot_id)
        if found is None:
            await refuse(scope, receive, send, 401, said_body("bot-token", "error.bot_token"))
            return
        if not str(scope["path"]).startswith(bots.BOT_PATHS):
            await refuse(scope, receive, send, 403, said_body("not-for-bots", "error.bot_not_here"))
            return
        act_as(scope, token.strip())
        scope["state"]["bot"] = found
        await self.app(scope, receive, send)
