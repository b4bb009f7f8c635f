"""The service under many requests at once: more requests in flight than worker threads and pooled
connections must queue, not deadlock.

FastAPI runs each sync dependency and the route in separate worker threads (40 by default). A request that
waited for a pooled connection inside a worker thread would hold the thread, while the requests holding
the connections wait for a thread to go on: everything stops until the pool's timeout (30 s) fails them.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import anyio.to_thread
import httpx

from hotdice.web import Settings, create_app
from hotdice.web.services import players

IN_FLIGHT = 150  # well over the 40 worker threads and the pool's 5 + 10 connections


async def _watch_at_once(tmp_path: Path) -> tuple[list[int], float, int, int]:
    app = create_app(Settings(data_dir=tmp_path).unlimited())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as owner:
        made = await owner.post("/api/games", json={"mode": "solo"})
        assert made.status_code == 201, made.text
        game = made.json()["id"]

        async def look(cookie: str) -> int:
            async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                         cookies={players.COOKIE: cookie}) as device:
                return (await device.get(f"/api/games/{game}")).status_code

        threads = int(anyio.to_thread.current_default_thread_limiter().total_tokens)
        pool = app.state.db.store.engine.pool.size()
        cookies = [app.state.devices.cookie(players.new_token()) for _ in range(IN_FLIGHT)]  # devices of the server's
        started = time.perf_counter()
        statuses = await asyncio.gather(*(look(cookie) for cookie in cookies))
        return list(statuses), time.perf_counter() - started, threads, pool


def test_more_requests_than_threads_and_connections_all_answer_without_waiting_for_the_pool(tmp_path: Path) -> None:
    statuses, seconds, threads, pool = asyncio.run(_watch_at_once(tmp_path))
    assert IN_FLIGHT > threads > pool  # the situation that deadlocked
    assert statuses == [200] * IN_FLIGHT
    assert seconds < 20  # the pool's 30 s timeout was never what let them through
