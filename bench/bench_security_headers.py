"""What the security headers and the origin check cost a request: the two middlewares of
``hotdice.web.security`` around an app that answers at once, against that app alone (pure ASGI, no sockets).

Run: ``python bench/bench_security_headers.py [--requests 200000]``
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from hotdice.web.security import SameOrigin, SecurityHeaders

HEADERS = [(b"host", b"dice.example.org"), (b"user-agent", b"bench"), (b"content-type", b"application/json"),
           (b"cookie", b"hotdice_device=x"), (b"origin", b"https://dice.example.org"),
           (b"sec-fetch-site", b"same-origin")]


async def answer(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


async def per_request(app: Any, n: int) -> float:
    """Microseconds a request, a POST from the site's own page (both checks run, every header is added)."""

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        pass

    start = time.perf_counter()
    for _ in range(n):
        scope = {"type": "http", "method": "POST", "path": "/api/games/x/act", "scheme": "https", "headers": HEADERS}
        await app(scope, receive, send)
    return (time.perf_counter() - start) / n * 1e6


async def main_async(n: int) -> None:
    guarded = SecurityHeaders(SameOrigin(answer), docs_policy=b"default-src 'self'")
    for name, app in [("app alone", answer), ("with SecurityHeaders + SameOrigin", guarded)] * 2:
        print(f"{name:36} {await per_request(app, n):6.2f} µs a request")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200_000)
    asyncio.run(main_async(parser.parse_args().requests))
