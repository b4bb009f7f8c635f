"""Abuse limits in front of the app: how often a device or an address may ask, and how big a request may be.

Rates are token buckets. With ``HOTDICE_REDIS_URL`` they are kept in Redis and shared by every process that
uses it (:class:`SharedBuckets`); otherwise in each process's memory (:class:`Buckets`), where with
``--workers N`` each process counts alone, so a client may get up to N times a rate. Static files and the
health check are not counted. The client's address
is the ASGI client: uvicorn puts the address from X-Forwarded-For there only for the proxies it is told to
trust (``--forwarded-allow-ips``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fastapi.responses import JSONResponse, Response
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from hotdice.web.asgi import body_again, device_cookie, header
from hotdice.web.errors import NotFound, WebError, said_body
from hotdice.web.routes.pages import render_error
from hotdice.web.settings import Rate, Settings

__all__ = [
    "MAX_HEADERS",
    "MAX_TARGET",
    "MAX_WS_MESSAGE",
    "BucketStore",
    "Buckets",
    "RateLimits",
    "SharedBuckets",
    "SizeLimits",
    "WebSocketLimits",
    "buckets_for",
    "refuse",
]


MAX_TARGET = 4096  # bytes of path and query string
MAX_HEADERS = 16 * 1024  # bytes of all header names and values
MAX_WS_MESSAGE = 4096  # bytes of a message from a screen's WebSocket (they send none): uvicorn closes it past that
POLICY_VIOLATION = 1008  # WebSocket close code
SWEEP_EVERY = 60.0  # seconds between sweeps of the buckets that have filled up again
_SAID = {"address": "error.rate_address", "device": "error.rate_device", "new-device": "error.rate_new_device",
         "link-claim": "error.rate_link_claim"}
_CLAIM = re.compile(r"/api/me/links/[^/]+/claim")
WARN_EVERY = 60.0  # seconds between two warnings that the shared buckets cannot be reached
log = logging.getLogger(__name__)


class BucketStore(Protocol):
    """Where the buckets are kept: :class:`Buckets` (this process) or :class:`SharedBuckets` (Redis)."""

    async def first_wait(self, limits: Sequence[tuple[str, Rate]]) -> tuple[int, float] | None:
        """Take a token from each bucket ``(key, rate)`` in turn; at the first that has none, stop: its index
        and the seconds until it has one. None: every bucket gave its token."""

    async def close(self) -> None:
        """Let go of what the buckets hold (a connection)."""


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

    async def first_wait(self, limits: Sequence[tuple[str, Rate]]) -> tuple[int, float] | None:
        for index, (key, rate) in enumerate(limits):
            wait = self.take(key, rate)
            if wait > 0:
                return index, wait
        return None

    async def close(self) -> None:
        pass


# The buckets of one request, taken in turn on the Redis server, on its clock, in one call: the same token
# bucket as Buckets.take. KEYS: the buckets; ARGV: per second and burst of each. Answers {0, "0"} when every
# bucket gave a token, else {index from 1, seconds to wait} (numbers as text: Redis would cut them to integers).
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
for i, key in ipairs(KEYS) do
  local per_second, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local kept = redis.call('HMGET', key, 'tokens', 'when')
  local tokens = tonumber(kept[1]) or burst
  local since = math.max(0, now - (tonumber(kept[2]) or now))
  tokens = math.min(burst, tokens + since * per_second)
  local wait = 0
  if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / per_second end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'when', tostring(now))
  redis.call('PEXPIRE', key, math.ceil((burst - tokens) / per_second * 1000) + 1000)
  if wait > 0 then return {i, tostring(wait)} end
end
return {0, '0'}
"""


class SharedBuckets:
    """The buckets kept in Redis, shared by every server process that uses it: one round trip a request.
    If Redis cannot be reached, requests are let through (and a warning logged once a minute): the service
    goes on answering, without limits, rather than refusing everyone."""

    def __init__(self, url: str, prefix: str = "hotdice:rate:", timeout: float = 0.25) -> None:
        import redis.asyncio

        self._client = redis.asyncio.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self._take: Any = self._client.register_script(_TAKE)
        self._prefix = prefix
        self._warned = -WARN_EVERY

    async def first_wait(self, limits: Sequence[tuple[str, Rate]]) -> tuple[int, float] | None:
        from redis.exceptions import RedisError

        keys = [self._prefix + key for key, _ in limits]
        args = [value for _, rate in limits for value in (rate.per_second, rate.burst)]
        try:
            index, wait = await self._take(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            now = time.monotonic()
            if now - self._warned >= WARN_EVERY:
                self._warned = now
                log.warning("rate limits not applied: the shared buckets in Redis cannot be reached (%s)", exc)
            return None
        return None if int(index) == 0 else (int(index) - 1, float(wait))

    async def close(self) -> None:
        await self._client.aclose()


def _exempt(path: str) -> bool:
    """Static files (a page's all come at once) and the health check (a load balancer's, every few seconds)."""
    return path.startswith("/static/") or path == "/healthz"


def _wants_page(scope: Scope) -> bool:
    return not str(scope["path"]).startswith("/api/") and scope.get("method") == "GET"


async def refuse(
    scope: Scope, receive: Receive, send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
) -> None:
    """The refusal the app itself would give: a page for a page, JSON for the API, a close for a WebSocket."""
    if scope["type"] == "websocket":
        # Closed during the handshake, the screen would see only a failed connection (uvicorn answers it 403):
        # accepted and closed at once, before any route is reached, it is told why — the answer as one message
        # (``type`` "refused"), for the screen to word in its language — and closed with the code and the reason.
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({"type": "refused", **body})})
            await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": body["detail"][:120]})
        return
    response: Response
    if _wants_page(scope):
        message = body.get("message")  # a page words the refusal's catalogue message in its own language
        reason = body["detail"] if message is None else WebError.said(message["key"], **message["values"])
        response = render_error(Request(scope), status, reason)
        response.headers.update(headers or {})
    else:
        response = JSONResponse(body, status_code=status, headers=headers)
    await response(scope, receive, send)


class RateLimits:
    """429 with Retry-After once an address, a device, or an address's new devices go too fast."""

    def __init__(self, app: ASGIApp, settings: Settings, buckets: BucketStore) -> None:
        self.app = app
        self.player = settings.player_rate
        self.address = settings.address_rate
        self.new_device = settings.new_device_rate
        self.link_claim = settings.link_claim_rate
        self.buckets = buckets

    def _limits(self, scope: Scope) -> list[tuple[str, str, Rate]]:
        """What this request counts against (limit, bucket, rate): its address, and its device or, without
        a device cookie the server signed (none, made up, forged), its address's new devices; a link code's
        claim, its address's claims and its device's too; limits turned off are left out."""
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        token = device_cookie(scope)
        limits = [("address", f"address:{address}", self.address)]
        device = f"device:{hashlib.sha256(token.encode()).hexdigest()}" if token is not None else f"new:{address}"
        if token is not None:
            limits.append(("device", device, self.player))
        else:
            limits.append(("new-device", device, self.new_device))
        if scope.get("method") == "POST" and _CLAIM.fullmatch(str(scope["path"])):
            limits += [("link-claim", f"claim:{address}", self.link_claim), ("link-claim", f"claim:{device}",
                                                                              self.link_claim)]
        return [(limit, key, rate) for limit, key, rate in limits if rate is not None]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not _exempt(str(scope["path"])):
            limits = self._limits(scope)
            refused = await self.buckets.first_wait([(key, rate) for _, key, rate in limits]) if limits else None
            if refused is not None:
                limit, wait = limits[refused[0]][0], refused[1]
                seconds = max(1, math.ceil(wait))
                body = {**said_body("rate-limited", _SAID[limit], seconds=seconds), "limit": limit}
                await refuse(scope, receive, send, 429, body, {"retry-after": str(seconds)})
                return
        await self.app(scope, receive, send)


def buckets_for(settings: Settings) -> BucketStore:
    """Shared in Redis when the service has one (``HOTDICE_REDIS_URL``), else this process's own."""
    return SharedBuckets(settings.redis_url) if settings.redis_url else Buckets()


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
            if _wants_page(scope):  # no page, game, challenge or table has so long an address: a plain 404 page
                await refuse(scope, receive, send, 404, NotFound.said("error.nothing_here").body())
            else:
                too_long = said_body("too-large", "error.too_large_address", max=MAX_TARGET)
                await refuse(scope, receive, send, 414, too_long)
            return
        if sum(len(name) + len(value) for name, value in scope["headers"]) > MAX_HEADERS:
            await refuse(scope, receive, send, 431, said_body("too-large", "error.too_large_headers", max=MAX_HEADERS))
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        too_big = said_body("too-large", "error.too_large_body", max=self.max_body)
        length = header(scope, b"content-length")
        if length is not None and not length.isdigit():
            await refuse(scope, receive, send, 400, said_body("bad-request", "error.bad_length"))
            return
        if length is not None and int(length) > self.max_body:
            await refuse(scope, receive, send, 413, too_big)
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
                await refuse(scope, receive, send, 413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, body_again(b"".join(chunks), receive), send)


class WebSocketLimits:
    """At most ``cap`` open WebSockets per client address (the forwarded client behind a trusted proxy), counted
    from the connect to the close: one over is closed with 1008 and the reason. Each holds a screen's task and
    its live updates for as long as it stays open, so an address could otherwise hold the server's memory."""

    def __init__(self, app: ASGIApp, cap: int | None) -> None:
        self.app = app
        self.cap = cap
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or self.cap is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        if self.open[address] >= self.cap:
            refused = said_body("too-many-websockets", "error.too_many_websockets", cap=self.cap)
            await refuse(scope, receive, send, POLICY_VIOLATION, refused)
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
