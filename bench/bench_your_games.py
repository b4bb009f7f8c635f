"""``GET /api/me/games`` for a player with 1,000 finished games (issue 25: ≤ 20 ms p99 on SQLite and PostgreSQL).

Run: ``python bench/bench_your_games.py [--database-url URL] [--games 1000] [--asks 500]``

One player finishes a game against the computer through the API; its row is then copied to ``--games`` finished
games (their ``updated_at`` a second apart), with a few unfinished ones (whose turn is replayed at each ask).
The figures: the answer time of ``--asks`` requests through the app (FastAPI's test client, in process: routing,
cookie, database, JSON), first page and a deep page, p50, p99 and largest in milliseconds; ``GET /api/me`` (one
row read) beside them, for what the app and the machine cost alone.
"""

from __future__ import annotations

import argparse
import platform
import secrets
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from fastapi.testclient import TestClient
    from tests.web.test_web_api import new_game, play_out

    from hotdice.store.web_models import WebGame
    from hotdice.web import Settings, create_app

    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--asks", type=int, default=500)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(Settings(data_dir=folder, database_url=args.database_url).unlimited())
    client = TestClient(app)
    done = play_out(client, new_game(client, mode="versus", level="easy", rules="farkle,target=1000"))
    for _ in range(3):
        new_game(client, mode="solo")
    with app.state.db.session() as session:
        row = session.get(WebGame, done["id"])
        assert row is not None
        start = datetime.now(UTC) - timedelta(days=30)
        for n in range(args.games - 1):
            session.add(WebGame(id=secrets.token_urlsafe(12), mode=row.mode, owner_id=row.owner_id, record=row.record,
                                action=row.action, seats=row.seats, over=True, score=row.score, turns=row.turns,
                                updated_at=start + timedelta(seconds=n)))
        session.commit()
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(f"{backend}, {args.games} finished games + 3 in progress, {platform.python_version()}, "
          f"{platform.machine()}")
    asked = (("/api/me (for comparison)", "/api/me", {}), ("first page (20)", "/api/me/games", {}),
             ("page at offset 900", "/api/me/games", {"offset": 900}))
    for label, url, params in asked:
        for _ in range(20):
            client.get(url, params=params)  # warm
        times = []
        for _ in range(args.asks):
            began = time.perf_counter()
            answer = client.get(url, params=params)
            times.append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200
        times.sort()
        p99 = times[int(len(times) * 0.99) - 1]
        print(f"  {label:25} p50 {statistics.median(times):6.2f} ms   p99 {p99:6.2f} ms   max {times[-1]:6.2f} ms")
    app.state.db.close()


if __name__ == "__main__":
    main()
