"""``GET /api/me/games`` for a player with 1,000 finished games (issue 25: ≤ 20 ms p99 on SQLite and PostgreSQL).

Run: ``python bench/bench_your_games.py [--games 1000] [--others 20000] [--asks 1000] [--postgres URL | --no-postgres]
[--against SRC]``

One run measures SQLite (a fresh file) and PostgreSQL (a fresh database made on ``--postgres``'s server, the
tests' default, and dropped after), each in a process of its own; ``--against SRC`` measures another checkout's
code too (``SRC``: its ``src`` folder, e.g. a worktree of main), run for run beside this one.

The player (Alice) finishes a game of 10,000 against the computer through the API, and holds a seat at an online
table Bob started (under way); the finished game's row is then copied to ``--games`` finished games, their
``updated_at`` a second apart, one in twenty of them an online game at a table of Bob's where she holds a seat (the
second of the two lists her games are read from); three solo games are under way. Bob has ``--others`` finished
games of his own (one in twenty at a table of his), so that the database holds more than hers. PostgreSQL is
analysed after the copies, as its autovacuum would be. The answer time of ``--asks`` requests through the app in
process (FastAPI's test client, its lifespan run as ``hotdice serve`` runs it: routing, device cookie, database,
response model, JSON), first page and a deep page, each in turn after 20 to warm up: p50, p99 and largest, in
milliseconds, and the mean CPU time an ask of this process (client and server; not PostgreSQL's), which a busy
machine changes less than the times; ``GET /api/me`` (one row read) beside them, what the app and the machine cost
alone. Then the plan of each statement the first page and the deep page send that orders the player's games
(EXPLAIN), with the indexes it reads.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ASKED = (("/api/me (for comparison)", "/api/me", 0), ("first page (20)", "/api/me/games", 0),
         ("page at offset 900", "/api/me/games", 900))


def _copies(app: Any, done: str, table: str, games: int, others: int) -> None:
    """``games`` - 1 finished copies of Alice's game ``done`` and ``others`` of Bob's (the host of ``table``);
    one in twenty of each at a table of Bob's, Alice seated at hers."""
    from sqlalchemy import insert

    from hotdice.store.web_models import WebGame, WebTable, WebTableSeat

    with app.state.db.session() as session:
        row = session.get(WebGame, done)
        host = session.get(WebTable, table)
        assert row is not None and host is not None
        alice, bob = row.owner_id, host.host_id
        start = datetime.now(UTC) - timedelta(days=30)
        made, tables, seated = [], [], []
        for n in range(games - 1 + others):
            game_id, hers, online = secrets.token_urlsafe(12), n < games - 1, n % 20 == 19
            code = secrets.token_hex(5).upper() if online else None
            seats = [{"kind": "human", "player": bob}] + ([{"kind": "human", "player": alice}] if hers else [])
            made.append({"id": game_id, "mode": "online" if online else row.mode, "record": row.record,
                         "owner_id": alice if hers and not online else bob, "action": row.action, "over": True,
                         "seats": json.dumps(seats) if online else row.seats, "score": row.score, "turns": row.turns,
                         "table_code": code, "updated_at": start + timedelta(seconds=n), "extra": "{}",
                         "official": True, "created_at": start})
            if code is not None:
                tables.append({"code": code, "host_id": bob, "rules": "farkle", "game_id": game_id,
                               "created_at": start})
                seated += [{"table_code": code, "seat": i, "player_id": seat["player"], "name": f"P{i}"}
                           for i, seat in enumerate(seats)]
        for model, values in ((WebGame, made), (WebTable, tables), (WebTableSeat, seated)):
            session.execute(insert(model), values)
        session.commit()


def _plans(app: Any, client: Any) -> list[str]:
    """EXPLAIN of each statement the first and deep pages send that orders games (the lists' reads)."""
    from sqlalchemy import event, text

    engine = app.state.db.store.engine
    sent: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if "ORDER BY" in statement and "web_games" in statement and (statement, parameters) not in sent:
            sent.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    for _, url, offset in ASKED[1:]:
        client.get(url, params={"offset": offset})
    event.remove(engine, "before_cursor_execute", keep)
    sqlite = engine.dialect.name == "sqlite"
    lines = []
    with engine.connect() as connection:
        if not sqlite:
            connection.execute(text("ANALYZE"))
        for statement, parameters in sent:
            explain = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN (ANALYZE, COSTS OFF) "
            rows = connection.exec_driver_sql(explain + statement, parameters)
            lines.append(" ".join(statement.split())[:160] + " ...")
            lines += ["    " + str(r[-1]) for r in rows]
    return lines


def measure(backend: str, server: str, games: int, others: int, asks: int) -> dict[str, Any]:
    """The figures of one backend, in this process."""
    from fastapi.testclient import TestClient
    from sqlalchemy import text
    from tests.db_support import POSTGRES_ENV, fresh_database
    from tests.web.test_web_api import new_game, play_out

    from hotdice.web import Settings, create_app

    os.environ[POSTGRES_ENV] = server
    folder = Path(tempfile.mkdtemp())
    for url in fresh_database(backend, folder):
        app = create_app(Settings(data_dir=folder, database_url=url).unlimited(), freeze_at_start=True)
        bob = TestClient(app)  # the lifespan is run once, by Alice's
        with TestClient(app) as alice:
            done = play_out(alice, new_game(alice, mode="versus", level="easy"))
            code = bob.post("/api/tables", json={}).json()["code"]
            alice.post(f"/api/tables/{code}/join", json={"name": "Alice"})
            assert bob.post(f"/api/tables/{code}/start").status_code == 200
            for _ in range(3):
                new_game(alice, mode="solo")
            _copies(app, done["id"], code, games, others)
            if backend == "postgresql":
                with app.state.db.store.engine.connect() as connection:
                    connection.execute(text("ANALYZE"))
            found = alice.get("/api/me/games").json()
            assert len(found["in_progress"]) + len(found["waiting"]) == 4 and len(found["finished"]) == 20
            for _, path, offset in ASKED * 20:
                alice.get(path, params={"offset": offset} if offset else {})  # warm
            times: dict[str, list[float]] = {label: [] for label, _, _ in ASKED}
            cpu = dict.fromkeys(times, 0.0)
            for _ in range(asks):
                for label, path, offset in ASKED:  # in turn: a busy moment of the machine falls on each alike
                    began, began_cpu = time.perf_counter(), time.process_time()
                    answer = alice.get(path, params={"offset": offset} if offset else {})
                    times[label].append((time.perf_counter() - began) * 1000)
                    cpu[label] += time.process_time() - began_cpu
                    assert answer.status_code == 200
            figures = {}
            for label, taken in times.items():
                taken.sort()
                figures[label] = (statistics.median(taken), taken[int(len(taken) * 0.99) - 1], taken[-1],
                                  cpu[label] / asks * 1000)
            plans = _plans(app, alice)
    return {"figures": figures, "plans": plans, "load": os.getloadavg()}


def main() -> None:
    from tests.db_support import DEFAULT_POSTGRES

    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--others", type=int, default=20000, help="finished games of another player")
    parser.add_argument("--asks", type=int, default=1000)
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="the PostgreSQL server (a database is made)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--against", type=Path, help="another checkout's src folder, measured beside this one")
    parser.add_argument("--backend", help=argparse.SUPPRESS)  # one measure, in the process the run starts
    args = parser.parse_args()
    if args.backend:
        print(json.dumps(measure(args.backend, args.postgres, args.games, args.others, args.asks)))
        return
    codes = {"this": str(ROOT / "src")} | ({"against": str(args.against.resolve())} if args.against else {})
    backends = ["sqlite"] if args.no_postgres else ["sqlite", "postgresql"]
    print(f"{args.games} finished games + 4 under way, {args.others} of another player, {args.asks} asks; "
          f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; "
          f"load before {os.getloadavg()}")
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for backend in backends:
        for code, src in codes.items():
            command = [sys.executable, __file__, "--backend", backend, "--postgres", args.postgres,
                       "--games", str(args.games), "--others", str(args.others), "--asks", str(args.asks)]
            env = os.environ | {"PYTHONPATH": src}
            ran = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            results[backend, code] = json.loads(ran.stdout.strip().splitlines()[-1])
            print(f"  {backend}, {code} ({src}): load after {results[backend, code]['load']}", flush=True)
    columns = [(b, c) for b in backends for c in codes]
    print("| ms | " + " | ".join(f"{b} {c} p50 / p99 / max (CPU)" for b, c in columns) + " |")
    for label, _, _ in ASKED:
        cells = ["{:.2f} / {:.2f} / {:.1f} ({:.2f})".format(*results[column]["figures"][label]) for column in columns]
        print(f"| {label} | " + " | ".join(cells) + " |")
    for column in columns:
        print(f"\nPlans, {column[0]}, {column[1]}:")
        print("\n".join(results[column]["plans"]))


if __name__ == "__main__":
    main()
