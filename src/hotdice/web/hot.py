"""The three routes every move goes through — an action, the computer's step, the game — answered without
FastAPI's route matching and dependency solving, which cost about as much CPU as the game itself.

The FastAPI routes of :mod:`hotdice.web.routes.games` stay where they are: they document these in the OpenAPI
schema, and they answer every request this does not take for sure (a body that is not plain JSON of the
right shape, an id the server could not have made, another method), so that refusals are FastAPI's own, word
for word. What is taken does what those routes do, with the same single hand-off to a worker thread for the
database work.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import orjson
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from hotdice.web.asgi import body_again, header
from hotdice.web.db import Database
from hotdice.web.deps import token_of
from hotdice.web.errors import WebError
from hotdice.web.hub import Hub
from hotdice.web.routes import games as game_routes
from hotdice.web.schemas import IntentIn, StepIn
from hotdice.web.services import games, players

__all__ = ["HotRoutes"]


_PATH = re.compile(r"/api/games/([^/]+)(/act|/computer)?")  # as Starlette matches "{game_id}": no slash
_BODIES: dict[str, type[BaseModel]] = {"/act": IntentIn, "/computer": StepIn}


def _route(routes: Sequence[BaseRoute], path: str, method: str) -> APIRoute:
    """The FastAPI route declared for ``method path``: what the request log names as the route that answered."""
    for route in routes:
        if isinstance(route, APIRoute) and route.path == path and method in (route.methods or ()):
            return route
    raise LookupError(f"no route {method} {path}")


def _json_body(scope: Scope, body: bytes, model: type[BaseModel]) -> BaseModel | None:
    """The body as ``model`` if it is plainly one (JSON, said so); None: let FastAPI parse it and say what is wrong."""
    kind = header(scope, b"content-type")
    if kind is None or kind.split(b";", 1)[0].strip().lower() != b"application/json":
        return None
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    try:
        return model.model_validate(data)
    except ValidationError:
        return None


async def _whole_body(receive: Receive) -> bytes | None:
    """The request's body (SizeLimits has bounded it); None if the client went away."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(bytes(message.get("body", b"")))
        if not message.get("more_body", False):
            return b"".join(chunks)


class HotRoutes:
    """Answers ``POST /api/games/{id}/act``, ``POST /api/games/{id}/computer`` and ``GET /api/games/{id}``;
    passes everything else, and anything it is not sure of, to the app. Sits inside the device middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        routes = game_routes.router.routes  # the routes the app includes, as its router hands them over
        self.routes = {
            ("/act", "POST"): _route(routes, "/api/games/{game_id}/act", "POST"),
            ("/computer", "POST"): _route(routes, "/api/games/{game_id}/computer", "POST"),
            ("", "GET"): _route(routes, "/api/games/{game_id}", "GET"),
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope["path"]) if scope["type"] == "http" else ""
        root = str(scope.get("root_path", ""))
        if root and path.startswith(root):  # as Starlette's routing reads the path behind a prefix
            path = path[len(root) :]
        found = _PATH.fullmatch(path)
        step = "" if found is None else found.group(2) or ""
        route = self.routes.get((step, scope.get("method", "")))
        if (found is None or route is None or games.GAME_ID.fullmatch(found.group(1)) is None  # schemas.GameId
                or scope.get("query_string")):  # ?since=: FastAPI reads (and bounds) it
            await self.app(scope, receive, send)
            return
        game_id = found.group(1)
        body: BaseModel | None = None
        if step:
            raw = await _whole_body(receive)
            if raw is None:
                return  # the client is gone
            body = _json_body(scope, raw, _BODIES[step])
            if body is None:
                await self.app(scope, body_again(raw, receive), send)
                return
        scope["route"] = route  # for the request log, as the router would have set it
        token = token_of(scope)
        known = players.known_id(token)
        app_state = scope["app"].state
        db: Database = app_state.db
        hub: Hub = app_state.hub

        def acted(session: Session) -> Response:
            player = known or players.device_player_id(session, token)
            if isinstance(body, IntentIn):
                return game_routes.act(game_id, body, player, session, hub)
            assert isinstance(body, StepIn)
            return game_routes.computer(game_id, body, player, session, hub)

        def shown(session: Session) -> Response:
            visitor = None if known is not None else players.find(session, token)
            viewer = known if visitor is None else visitor.id
            return game_routes.answer_json(games.view_by_id(session, game_id, viewer))

        response: Response
        async with db.admission:  # as the session dependency: wait on the event loop, not in a thread
            with db.session() as session:
                try:
                    response = await run_in_threadpool(acted if step else shown, session)
                except WebError as exc:  # as the app's handler answers a refusal on the API
                    response = JSONResponse(exc.body(), status_code=exc.status)
        await response(scope, receive, send)
