"""The app factory of ``hotdice serve``: settings, database, live-update hub, device cookie, routes, errors."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hotdice.i18n import LANGUAGES, catalog
from hotdice.web.asgi import device_cookie, raw_device_cookie, set_device_cookie
from hotdice.web.assets import Assets
from hotdice.web.bots import BotTokens
from hotdice.web.clock import CLOCK
from hotdice.web.db import Database
from hotdice.web.errors import WebError
from hotdice.web.hot import HotRoutes
from hotdice.web.hub import hub_for
from hotdice.web.limits import RateLimits, SizeLimits, WebSocketLimits, buckets_for
from hotdice.web.logs import RequestLog
from hotdice.web.routes import router
from hotdice.web.routes.health import Checks
from hotdice.web.routes.pages import render_error
from hotdice.web.security import DOCS_PATH, SameOrigin, SecurityHeaders, docs_policy
from hotdice.web.services import players
from hotdice.web.services.keys import kept_key
from hotdice.web.settings import Settings

__all__ = ["create_app"]

HERE = Path(__file__).parent



class DeviceCookie:
    """Gives every browser a device token in an HttpOnly cookie, signed by the server: it is who they are here.
    A cookie the server did not sign is replaced by a new device's, but for one from before signing whose
    device has a player: that device keeps its token (its games, its daily attempt), signed from now on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        if device_cookie(scope) is not None:
            await self.app(scope, receive, send)
            return
        app_state = scope["app"].state
        token = await _played_before_signing(app_state.db, raw_device_cookie(scope)) or players.new_token()
        scope.setdefault("state", {})["device_token"] = token
        cookie = set_device_cookie(scope, token)
        ours = f"{players.COOKIE}=".encode()

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # A claimed link code's answer gives the browser its new device itself: that one stands.
                if not any(value.startswith(ours) for name, value in headers.raw if name == b"set-cookie"):
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def _played_before_signing(db: Database, cookie: str | None) -> str | None:
    """The token of an unsigned cookie (as every cookie was before signing) whose device has a player; None
    for anything else. Only requests without a signed cookie ask, and they count against the new-device limit."""
    if not players.valid_token(cookie):
        return None

    def played() -> bool:
        with db.session() as session:
            return players.find(session, cookie) is not None

    async with db.admission:
        return cookie if await run_in_threadpool(played) else None


def _devices(db: Database, settings: Settings) -> players.Devices:
    """The device cookies signed with ``HOTDICE_DEVICE_KEY``, or else with the key kept in the database."""
    if settings.device_key is not None:
        return players.Devices(settings.device_key)
    with db.session() as session:
        key = kept_key(session, players.DEVICE_KEY)
        session.commit()
    return players.Devices(key)


def _wants_page(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and request.method == "GET"


def serve_app() -> FastAPI:
    """The app of a server process (``hotdice serve``, each of its workers): :func:`create_app`, with what
    was made at start (modules, tables, the app) set apart from the garbage collector once it is up."""
    return create_app(freeze_at_start=True)


def create_app(settings: Settings | None = None, *, freeze_at_start: bool = False) -> FastAPI:
    settings = settings or Settings.from_env()
    db = Database(settings.url())
    hub = hub_for(db.store.engine, settings.redis_url)
    buckets = buckets_for(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        if freeze_at_start:
            # A full collection went over every object of the process — ~250,000, most of them the imported
            # modules' — and stopped all requests for 100-150 ms, several times a minute under load: the tail
            # of the answer times. Frozen objects are never scanned again (the gc module's advice for servers).
            gc.collect()
            gc.freeze()
        yield
        await hub.stop()
        await buckets.close()
        db.close()

    app = FastAPI(
        title="hotdice",
        summary="Farkle, 10 000 and 5000 dice games",
        lifespan=lifespan,
        docs_url=None,  # served below, with the policy that lets its inline script run
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.clock = CLOCK  # where every service reads "now"; a test moves it
    app.state.db = db
    app.state.hub = hub
    app.state.devices = _devices(db, settings)
    assets = Assets(HERE / "static", {lang: catalog(lang) for lang in LANGUAGES})
    app.state.assets = assets
    app.state.health = Checks()  # the last health check, kept a second
    # Innermost, after the device cookie: the moves' three routes, without FastAPI's routing (hotdice.web.hot).
    app.add_middleware(HotRoutes)
    app.add_middleware(DeviceCookie)
    app.add_middleware(SizeLimits, max_body=settings.max_body)
    app.add_middleware(SameOrigin)  # before the body is read or a cookie given
    app.add_middleware(RateLimits, settings=settings, buckets=buckets)  # counted before anything else
    app.add_middleware(BotTokens)  # a bot's token is its device, for the rate limits too
    docs = bytes(get_swagger_ui_html(openapi_url="/api/openapi.json", title="hotdice - Swagger UI").body)
    app.add_middleware(SecurityHeaders, docs_policy=docs_policy(docs))  # on every answer, 429s too
    app.add_middleware(WebSocketLimits, cap=settings.websockets_per_address)  # the open ones, rate-limited or not
    # Pages, styles and scripts gzipped for the browsers that take it; not the API's JSON, small and hot.
    app.add_middleware(GZipMiddleware, exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/json"))
    app.add_middleware(RequestLog)  # around everything: every answer is logged with its request id
    app.mount("/static", assets, name="static")
    app.include_router(router)

    @app.get(DOCS_PATH, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(docs)

    @app.exception_handler(WebError)
    async def refused(request: Request, exc: WebError) -> Response:
        if _wants_page(request):
            return render_error(request, exc.status, exc)
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        if _wants_page(request) and all(error.get("loc", ("",))[0] == "path" for error in exc.errors()):
            # an address that cannot name a game, a table, ...
            return render_error(request, 404, WebError.said("error.nothing_here"))
        reasons, fields = [], []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            reasons.append(f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg", "invalid")))
            field = ".".join(str(part) for part in error.get("loc", ())[1:])  # its name, not where it was sent
            fields += [field] if field and field not in fields else []
        # Pydantic's reasons are English only: a page is told, in its language, which fields were refused.
        said = WebError("; ".join(reasons))
        said = said.saying("error.invalid_field", field=", ".join(fields)) if fields else said.saying("error.invalid")
        if _wants_page(request):
            return render_error(request, 422, said)
        return JSONResponse({**said.body(), "code": "invalid"}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        said = WebError.said("error.nothing_here") if exc.status_code == 404 else WebError(str(exc.detail))
        if _wants_page(request):
            return render_error(request, exc.status_code, said)
        return JSONResponse({**said.body(), "code": "http"}, status_code=exc.status_code, headers=exc.headers)

    return app
