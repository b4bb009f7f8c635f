"""Live updates: every screen watching a game or a table gets a message when it changes.

In-process publish/subscribe. Services run in worker threads, so :meth:`Hub.publish` is thread-safe: it
hands the message to the event loop. Several server processes would put a shared channel (PostgreSQL
LISTEN/NOTIFY, Redis) behind this same interface.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["Hub"]

QUEUE_SIZE = 64  # a screen that falls this far behind misses messages, then reloads the state


class Hub:
    def __init__(self) -> None:
        self._topics: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
        self._loop = self._loop or asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self._topics[topic].add(queue)
        try:
            yield queue
        finally:
            self._topics[topic].discard(queue)
            if not self._topics[topic]:
                del self._topics[topic]

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every subscriber of ``topic``; callable from any thread."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._deliver, topic, message)

    def _deliver(self, topic: str, message: dict[str, Any]) -> None:
        for queue in self._topics.get(topic, ()):
            if queue.full():
                queue.get_nowait()  # drop the oldest: the newest state is what matters
            queue.put_nowait(message)
