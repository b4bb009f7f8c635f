"""The HTTP protocol of ``hotdice serve``: uvicorn's (httptools), minus what lets silent connections pile up.

uvicorn closes a kept-alive connection that sends nothing for ``timeout_keep_alive`` seconds, but not one that
sends nothing at all after it connects, nor one that sends a request head a byte at a time (slowloris): its
first byte stops the keep-alive timer, and no other timer runs while a head is incomplete. Here every request
head must be complete within ``HOTDICE_HEAD_TIMEOUT`` seconds of the connection or of the previous answer, and
one address may hold at most ``HOTDICE_CONNECTIONS_PER_ADDRESS`` connections at once: the one over the cap is
answered 503 with the reason and closed. The trusted proxies (``--forwarded-allow-ips``) are not capped: they
carry everyone's connections, and cap their clients' themselves (nginx ``limit_conn``). Upgraded to a
WebSocket, a connection is counted by :class:`hotdice.web.limits.WebSocketLimits` instead.
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from typing import Any

from fastapi.responses import JSONResponse
from starlette.types import Receive, Scope, Send
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from hotdice.web.errors import said_body
from hotdice.web.settings import Settings

__all__ = ["GuardedHttp"]

_open: Counter[str] = Counter()  # this process's open connections by client address (not the trusted proxies')


@functools.cache
def _settings() -> Settings:
    """Read once a process, like the app's (``hotdice serve`` has checked them before starting)."""
    return Settings.from_env()


@functools.cache
def _trusted(allowed: str) -> _TrustedHosts:
    return _TrustedHosts(allowed)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request head and a cap per address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None  # the address this connection is counted against

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        settings = _settings()
        address = self.client[0] if self.client else None
        cap = settings.connections_per_address
        trusted = self.config.proxy_headers and address in _trusted(str(self.config.forwarded_allow_ips))
        if cap is not None and address is not None and not trusted:
            if _open[address] >= cap:
                self.app = functools.partial(_too_many, cap)  # answers this connection's requests, then closes it
            else:
                _open[address] += 1
                self._counted = address
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_arrived()
        self._uncount()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        self._head_arrived()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # waiting for the next request, none already in
            self._await_head()

    def handle_websocket_upgrade(self) -> None:
        self._uncount()
        super().handle_websocket_upgrade()

    def _await_head(self) -> None:
        self._head_arrived()
        self._head_deadline = self.loop.call_later(_settings().head_timeout, self._head_too_late)

    def _head_arrived(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_late(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _uncount(self) -> None:
        if self._counted is not None:
            _open[self._counted] -= 1
            if not _open[self._counted]:
                del _open[self._counted]
            self._counted = None


async def _too_many(cap: int, scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse(said_body("too-many-connections", "error.too_many_connections", cap=cap), status_code=503,
                            headers={"connection": "close", "retry-after": "5"})
    await response(scope, receive, send)
