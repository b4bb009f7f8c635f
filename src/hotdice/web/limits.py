"""Abuse limits in front of the app: how often a device or an address may ask, and how big a request may be.

Rates are token buckets kept in this process's memory: with ``--workers N`` each process counts alone, so a
client may get up to N times a rate. Static files and the health check are not counted. The client's address
is the ASGI client: uvicorn puts the address from X-Forwarded-For there only for the proxies it is told to
trust (``--forwarded-allow-ips``).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from fastapi.responses import JSONResponse, Response
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from hotdice.web.asgi import body_again, device_cookie, header
from hotdice.web.routes.pages import render_error
from hotdice.web.settings import Rate, Settings

__all__ = ["MAX_HEADERS", "MAX_TARGET", "Buckets", "RateLimits", "SizeLimits"]


MAX_TARGET = 4096  # bytes of path and query string
MAX_HEADERS = 16 * 1024  # bytes of all header names and values
POLICY_VIOLATION = 1008  # WebSocket close code
SWEEP_EVERY = 60.0  # seconds between sweeps of the buckets that have filled up again
_WHO = {"address": "this address", "device": "this device", "new-device": "this address without a device cookie"}


class Buckets:
    """Token buckets by key; a bucket that has filled up again is the same as none, so sweeps forget it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[str, tuple[float, float, float]] = {}  # key: tokens, when, when full again
        self._swept = clock()

    def take(self, key: str, rate: Rate) -> float:
        """Take a token from ``key``'s bucket: 0.0 if there was one, else the seconds until there is one."""
        now = self._clock()
        tokens, when, _ = self._buckets.get(key, (float(rate.burst), now, now))
        tokens = min(float(rate.burst), tokens + (now - when) * rate.per_second)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / rate.per_second
        self._buckets[key] = (tokens, now, now + (rate.burst - tokens) / rate.per_second)
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            self._buckets = {k: v for k, v in self._buckets.items() if v[2] > now}
        return wait

    def __len__(self) -> int:
        return len(self._buckets)


def _exempt(path: str) -> bool:
    """Static files (a page's all come at once) and the health check (a load balancer's, every few seconds)."""
    return path.startswith("/static/") or path == "/healthz"


def _wants_page(scope: Scope) -> bool:
    return not str(scope["path"]).startswith("/api/") and scope.get("method") == "GET"


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, body: dict[str, str], headers: dict[str, str] | None = None
) -> None:
    """The refusal the app itself would give: a page for a page, JSON for the API, a close for a WebSocket."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": body["detail"][:120]})
        return
    response: Response
    if _wants_page(scope):
        response = render_error(Request(scope), status, body["detail"])
        response.headers.update(headers or {})
    else:
        response = JSONResponse(body, status_code=status, headers=headers)
    await response(scope, receive, send)


def _too_large(reason: str) -> dict[str, str]:
    return {"detail": reason, "code": "too-large"}


class RateLimits:
    """429 with Retry-After once an address, a device, or an address's cookieless requests go too fast."""

    def __init__(self, app: ASGIApp, settings: Settings, buckets: Buckets | None = None) -> None:
        self.app = app
        self.player = settings.player_rate
        self.address = settings.address_rate
        self.new_device = settings.new_device_rate
        self.buckets = buckets or Buckets()

    def _limits(self, scope: Scope) -> list[tuple[str, str, Rate | None]]:
        """What this request counts against (limit, bucket, rate): its address, and its device or, without
        a device cookie, its address's new devices."""
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        token = device_cookie(scope)
        limits = [("address", f"address:{address}", self.address)]
        if token is not None:
            limits.append(("device", f"device:{hashlib.sha256(token.encode()).hexdigest()}", self.player))
        else:
            limits.append(("new-device", f"new:{address}", self.new_device))
        return limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not _exempt(str(scope["path"])):
            for limit, key, rate in self._limits(scope):
                wait = 0.0 if rate is None else self.buckets.take(key, rate)
                if wait > 0:
                    seconds = max(1, math.ceil(wait))
                    reason = f"too many requests from {_WHO[limit]}: try again in {seconds} s"
                    body = {"detail": reason, "code": "rate-limited", "limit": limit}
                    await _refuse(scope, receive, send, 429, body, {"retry-after": str(seconds)})
                    return
        await self.app(scope, receive, send)


class SizeLimits:
    """Refuses a request too big to be one of ours before anything reads it: its address, headers, or body."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if len(scope.get("raw_path") or str(scope["path"]).encode()) + len(scope.get("query_string", b"")) > MAX_TARGET:
            await _refuse(scope, receive, send, 414, _too_large(f"the address is longer than {MAX_TARGET} bytes"))
            return
        if sum(len(name) + len(value) for name, value in scope["headers"]) > MAX_HEADERS:
            await _refuse(scope, receive, send, 431, _too_large(f"the headers are longer than {MAX_HEADERS} bytes"))
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        too_big = _too_large(f"the request body is larger than {self.max_body} bytes")
        length = header(scope, b"content-length")
        if length is not None and not length.isdigit():
            bad = {"detail": "the Content-Length header is not a number", "code": "bad-request"}
            await _refuse(scope, receive, send, 400, bad)
            return
        if length is not None and int(length) > self.max_body:
            await _refuse(scope, receive, send, 413, too_big)
            return
        chunks: list[bytes] = []
        size = 0
        while True:  # read the whole body (it is small) before the app parses any of it
            message = await receive()
            if message["type"] != "http.request":
                return  # the client is gone
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > self.max_body:
                await _refuse(scope, receive, send, 413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, body_again(b"".join(chunks), receive), send)
