"""The server's CPU per game action, in-process: the whole ASGI app (middleware, routes, database), no sockets.

Run: ``python bench/bench_action_cpu.py [--games 40] [--versus 0.5] [--postgres URL] [--profile 25]``

``bench/bench_load.py`` measures the service over loopback, where the load generator shares the cores; this
plays the same games (the same clicks, :func:`bench_load.intent`) by calling the app directly, one request
at a time, and divides the process's CPU time (every thread's) by the number of actions (``/act`` and
``/computer``). Logs are formatted as in ``hotdice serve`` and written to /dev/null. ``--profile N`` prints
cProfile's N costliest functions (cumulative): where an action's time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import logging
import logging.config
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_load import intent
from hotdice.web.app import create_app
from hotdice.web.logs import LOG_CONFIG
from hotdice.web.settings import Settings

ASGIApp = Any


class Browser:
    """One device calling the app directly: its cookies, and a request as uvicorn hands it over."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.cookies: dict[str, str] = {}

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        headers = [(b"host", b"127.0.0.1:8000"), (b"accept", b"application/json"),
                   (b"content-length", str(len(payload)).encode())]
        if body is not None:
            headers.append((b"content-type", b"application/json"))
        if self.cookies:
            headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()).encode()))
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
        sent = False
        status, chunks = 0, []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()
            sent = True
            return {"type": "http.request", "body": payload, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", []):
                    if name.lower() == b"set-cookie":
                        key, _, rest = value.decode().partition("=")
                        self.cookies[key] = rest.partition(";")[0]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        if status >= 400:
            raise SystemExit(f"bench_action_cpu: {method} {path} answered {status}: {b''.join(chunks)[:300]!r}")
        found: dict[str, Any] = json.loads(b"".join(chunks))
        return found


async def play(app: ASGIApp, games: int, versus: float, rng: random.Random) -> tuple[int, float, float]:
    """Play ``games`` games; the actions made, and the CPU and wall seconds they took."""
    browser, actions, cpu, wall = Browser(app), 0, 0.0, 0.0
    for _ in range(games):
        body: dict[str, Any] = {"mode": "solo"}
        if rng.random() < versus:
            body = {"mode": "versus", "level": "medium"}
        bank_at = rng.choice((300, 350, 400, 500, 600, 800))
        made = await browser.call("POST", "/api/games", body)
        view = await browser.call("GET", f"/api/games/{made['id']}")
        while view["outcome"] is None:
            path = f"/api/games/{view['id']}"
            started, cpu_started = time.perf_counter(), time.process_time()
            if view["seats"][view["to_act"]]["computer"]:
                answer = await browser.call("POST", f"{path}/computer", {"n": view["n"]})
            else:
                answer = await browser.call("POST", f"{path}/act", {"n": view["n"], **intent(view, bank_at)})
            cpu += time.process_time() - cpu_started
            wall += time.perf_counter() - started
            actions += 1
            view = answer["game"]
    return actions, cpu, wall


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), database_url=args.postgres).unlimited()
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            await play(app, 3, args.versus, random.Random(1))  # warm-up: scoring tables, solver, imports
            profile = cProfile.Profile() if args.profile else None
            if profile is not None:
                profile.enable()
            actions, cpu, wall = await play(app, args.games, args.versus, random.Random(args.seed))
            if profile is not None:
                profile.disable()
    print(f"{actions} actions in {args.games} games ({args.versus:.0%} against Medium): "
          f"{1000 * cpu / actions:.2f} ms CPU and {1000 * wall / actions:.2f} ms wall per action"
          f"{' (under cProfile)' if profile is not None else ''}; load average {os.getloadavg()[0]:.1f}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--versus", type=float, default=0.5, help="share of games against the computer")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database URL instead of a fresh SQLite file")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's N costliest functions")
    args = parser.parse_args()
    logging.config.dictConfig(LOG_CONFIG)
    null = open(os.devnull, "w")  # noqa: SIM115 - open for the whole run
    for name in ("hotdice", "uvicorn"):
        for handler in logging.getLogger(name).handlers:
            if isinstance(handler, logging.StreamHandler):
                handler.setStream(null)
    try:  # the event loop uvicorn runs when it can
        import uvloop
    except ImportError:
        asyncio.run(main_async(args))
    else:
        uvloop.run(main_async(args))


if __name__ == "__main__":
    main()
