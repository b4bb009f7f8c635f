"""Made-up device cookies against the app, at its default limits: how many are answered before the new-device
limit refuses them, how many players they make; and what reading a device cookie costs a request.

Run: ``python bench/bench_devices.py [--forged 200]``

Each request is ``GET /api/me`` (which makes the device's player) from one address, with a fresh made-up
token of the shape every cookie had before signing (43 url-safe characters). The cost is that of
:func:`hotdice.web.asgi.device_cookie` on a request holding a cookie the server gave (parsed and checked once
a request; the rate limits, the device middleware and the routes all ask), at a device's first request and
at its next ones.
"""

from __future__ import annotations

import argparse
import hashlib
import secrets
import tempfile
import time
from collections import Counter
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from hotdice.store.web_models import WebPlayer
from hotdice.web.app import create_app
from hotdice.web.asgi import device_cookie
from hotdice.web.services.players import COOKIE
from hotdice.web.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forged", type=int, default=200, help="requests, each with a made-up token")
    parser.add_argument("--devices", type=int, default=1000, help="devices whose cookie is read, twice each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(data_dir=Path(folder)))
        script = TestClient(app, client=("203.0.113.7", 50000))
        forged = [secrets.token_urlsafe(32) for _ in range(args.forged)]
        answers: Counter[str] = Counter()
        for token in forged:
            script.cookies.clear()
            answer = script.get("/api/me", headers={"cookie": f"{COOKIE}={token}"})
            answers[str(answer.status_code) + (f" {answer.json()['limit']}" if answer.status_code == 429 else "")] += 1
        with app.state.db.session() as session:
            rows = set(session.scalars(select(WebPlayer.token_hash)))
        theirs = rows & {hashlib.sha256(token.encode()).hexdigest() for token in forged}
        print(f"{args.forged} requests with made-up tokens: answered {dict(sorted(answers.items()))}")
        print(f"player rows: {len(rows)}, of them under a made-up token: {len(theirs)}")

        app.state.db.close()
        print(f"device_cookie, {args.devices} devices: " + ", ".join(
            f"{name} {seconds * 1e6:.2f} µs a request" for name, seconds in _cookie_costs(Path(folder), args.devices)))


def _cookie_costs(folder: Path, devices: int) -> list[tuple[str, float]]:
    """The mean cost of device_cookie on a cookie the server gave: at the device's first request, then again."""
    app = create_app(Settings(data_dir=folder / "costs").unlimited())
    visitor = TestClient(app)
    scopes = []
    for _ in range(devices):
        visitor.cookies.clear()
        visitor.get("/rules")
        scopes.append({"headers": [(b"cookie", f"{COOKIE}={visitor.cookies[COOKIE]}".encode())], "app": app})
    costs = []
    for name in ("first", "again"):
        started = time.perf_counter()
        for scope in scopes:
            device_cookie({**scope, "state": {}})
        costs.append((name, (time.perf_counter() - started) / devices))
    app.state.db.close()
    return costs

if __name__ == "__main__":
    main()
