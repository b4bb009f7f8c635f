"""Running the service: the health endpoint, one JSON log line per request and per error, and
``hotdice serve --workers 2`` as a real server whose two processes play games on one database."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hotdice.store import Store
from hotdice.store import db as store_db
from hotdice.store.migrate import _migration_engine, config, head
from hotdice.web import Settings, create_app
from hotdice.web.limits import MAX_WS_MESSAGE
from hotdice.web.logs import ACCESS, ERRORS, JsonFormatter
from hotdice.web.routes.health import CHECK_EVERY
from tests.db_support import BACKENDS, NO_POSTGRES_ENV, _server, fresh_postgres_database
from tests.web_servers import free_port, wait_up
from tests.web_support import next_intent


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url).unlimited())
    yield web
    web.state.db.close()


def test_health_is_200_with_the_schema_at_the_head(app: FastAPI, database_url: str) -> None:
    answer = TestClient(app).get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ok", "database": make_url(database_url).get_backend_name(), "revision": head(), "head": head(),
    }  # fmt: skip


def test_health_is_503_when_the_schema_is_behind(app: FastAPI, database_url: str) -> None:
    engine = _migration_engine(database_url)
    with engine.begin() as connection:
        command.downgrade(config(connection), "0002")
    engine.dispose()
    answer = TestClient(app).get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "outdated" and answer.json()["revision"] == "0002"


@pytest.mark.slow
def test_health_is_503_when_the_database_is_gone(app: FastAPI, database_url: str) -> None:
    app.state.db.store.engine.dispose()
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        for suffix in ("-wal", "-shm"):
            Path(url.database + suffix).unlink(missing_ok=True)
        Path(url.database).write_bytes(b"not a database, whatever it once was " * 200)
    else:
        admin = create_engine(_server(), poolclass=NullPool, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{url.database}" WITH (FORCE)'))
        admin.dispose()
    answer = TestClient(app).get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"


@pytest.mark.slow
def test_a_flood_of_health_checks_makes_at_most_one_database_check_a_second(app: FastAPI) -> None:
    """The health check is not rate-limited (a balancer's): each one was a query, so anyone could load the
    database with it."""
    statements = []
    event.listen(app.state.db.store.engine, "before_cursor_execute", lambda *_: statements.append(1))
    client = TestClient(app)
    assert client.get("/healthz").status_code == 200
    per_check = len(statements)
    assert per_check >= 1
    started = time.monotonic()

    def flood() -> None:
        for _ in range(25):
            assert client.get("/healthz").json()["status"] == "ok"

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started
    assert len(statements) - per_check <= per_check * (seconds / CHECK_EVERY + 1), (len(statements), seconds)


def test_every_request_is_one_json_line_with_route_status_duration_and_request_id(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    client = TestClient(app)
    with caplog.at_level(logging.INFO, logger=ACCESS.name):
        given = client.get("/api/games/nosuchgameatall0", headers={"X-Request-ID": "proxy-id.42"})
        made = client.get("/rules", headers={"X-Request-ID": "not an id: spaces"})
    assert given.status_code == 404 and given.headers["x-request-id"] == "proxy-id.42"
    made_id = made.headers["x-request-id"]
    assert len(made_id) == 32 and int(made_id, 16) >= 0
    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == ACCESS.name]
    assert [(line["method"], line["path"], line["status"], line["request_id"]) for line in lines] == [
        ("GET", "/api/games/{game_id}", 404, "proxy-id.42"),
        ("GET", "/rules", 200, made_id),
    ]
    assert all(line["duration_ms"] > 0 and line["level"] == "info" for line in lines)
    assert all(line["process"] == os.getpid() for line in lines)


def test_an_error_is_logged_with_its_request_id_and_traceback(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise RuntimeError("the table fell over")

    app.add_api_route("/api/broken", broken)
    with caplog.at_level(logging.INFO, logger="hotdice.web"):
        answer = TestClient(app, raise_server_exceptions=False).get("/api/broken")
    assert answer.status_code == 500
    error, access = (json.loads(JsonFormatter().format(r)) for r in caplog.records)
    assert error["logger"] == ERRORS.name and error["level"] == "error"
    assert error["error"] == "RuntimeError: the table fell over" and "the table fell over" in error["traceback"]
    assert (access["path"], access["status"]) == ("/api/broken", 500)
    assert error["request_id"] == access["request_id"]


# -- a real server with two worker processes -----------------------------------------------------------------

WORKERS = 2
PLAYERS = 4  # games played at once, each by its own device


class Server:
    """``hotdice serve`` in a process of its own; its JSON log lines collected as they come."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "hotdice.cli", "serve", "--port", str(self.port), *args]
        self.process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def logs(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in list(self.lines) if line.startswith("{")]

    def wait_until_started(self, workers: int = WORKERS, timeout: float = 180) -> None:
        """Until every worker has said its app started (each builds it from the environment) and the port
        answers: one process says so before it opens its socket."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            started = [log for log in self.logs() if log["message"] == "Application startup complete."]
            if len(started) == workers:
                wait_up(self.port, self.process, within=deadline - time.monotonic())
                return
            assert self.process.poll() is None, "".join(self.lines)
            time.sleep(0.2)
        raise AssertionError("the workers did not start:\n" + "".join(self.lines))

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        self._reader.join(timeout=10)


def play_a_solo_game(base: str) -> dict[str, Any]:
    """One device plays a whole solo game, each request on a new connection (any worker may answer)."""
    with httpx.Client(base_url=base, headers={"Connection": "close"}, timeout=60) as device:
        made = device.post("/api/games", json={"mode": "solo"})
        assert made.status_code == 201, made.text
        view = device.get(f"/api/games/{made.json()['id']}").json()
        while view["outcome"] is None:
            answer = device.post(f"/api/games/{view['id']}/act", json={"n": view["n"], **next_intent(view)})
            assert answer.status_code == 200, answer.text
            view = answer.json()["game"]
        stats = device.get("/api/stats").json()
        assert isinstance(view, dict) and isinstance(stats, dict)
        return {"view": view, "stats": stats}


@pytest.mark.slow
def test_serve_with_two_workers_plays_games_through_both_on_one_database(tmp_path: Path, database_url: str) -> None:
    """SQLite (WAL, writers waiting for each other) or PostgreSQL: either way both workers answer, correctly."""
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path), "HOTDICE_DATABASE_URL": database_url}
    env["HOTDICE_RATE_LIMITS"] = "off"
    server = Server(env, "--workers", str(WORKERS))
    try:
        server.wait_until_started()
        base = f"http://127.0.0.1:{server.port}"
        health = httpx.get(f"{base}/healthz", timeout=30)
        assert health.status_code == 200 and health.json()["database"] == make_url(database_url).get_backend_name()
        results: list[dict[str, Any]] = []
        failures: list[BaseException] = []

        def player() -> None:
            try:
                results.append(play_a_solo_game(base))
            except BaseException as exc:  # reported below, in the test's own thread
                failures.append(exc)

        threads = [threading.Thread(target=player) for _ in range(PLAYERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        assert not failures, failures
    finally:
        server.stop()
    assert len(results) == PLAYERS
    for result in results:  # each device's game counted once, in its own statistics
        assert result["view"]["players"][0]["turns"] == 10
        assert result["stats"]["games"] == 1
        assert result["stats"]["scores"] == {"solo": [result["view"]["players"][0]["score"]]}
    requests = [log for log in server.logs() if log["logger"] == ACCESS.name]
    acted = [log for log in requests if log["path"] == "/api/games/{game_id}/act"]
    assert acted and all(log["status"] == 200 and log["method"] == "POST" for log in acted)
    assert len({log["process"] for log in requests}) == WORKERS  # both workers answered
    assert len({log["request_id"] for log in requests}) == len(requests)
    assert not [log for log in server.logs() if log["level"] == "error"]


@pytest.mark.slow
def test_serve_closes_a_websocket_that_sends_a_message_too_big(tmp_path: Path) -> None:
    """A screen sends nothing; uvicorn's default would buffer 16 MiB of a message before the app sees it."""
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path), "HOTDICE_RATE_LIMITS": "off"}
    env.pop("HOTDICE_DATABASE_URL", None)
    server = Server(env)
    try:
        server.wait_until_started(workers=1)
        made = httpx.post(f"http://127.0.0.1:{server.port}/api/games", json={"mode": "solo"}, timeout=30)
        with connect(f"ws://127.0.0.1:{server.port}/ws/games/{made.json()['id']}", open_timeout=30) as screen:
            assert json.loads(screen.recv(timeout=30))["type"] == "game"
            screen.send("x" * (MAX_WS_MESSAGE - 100))  # within the limit: read and ignored
            screen.send("x" * (MAX_WS_MESSAGE + 1))
            with pytest.raises(ConnectionClosed) as closed:
                screen.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    finally:
        server.stop()


@pytest.mark.slow
def test_behind_a_proxy_the_origin_checked_is_the_proxys_scheme_and_host(tmp_path: Path) -> None:
    """The README's nginx passes Host and X-Forwarded-Proto: the page of https://dice.example.org may act, the
    same host over plain http (another origin) may not; this test's address is a trusted proxy (the default)."""
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path), "HOTDICE_RATE_LIMITS": "off"}
    env.pop("HOTDICE_DATABASE_URL", None)
    server = Server(env)
    base = f"http://127.0.0.1:{server.port}"
    proxied = {"host": "dice.example.org", "x-forwarded-proto": "https"}
    try:
        server.wait_until_started(workers=1)

        def status(**headers: str) -> int:
            return httpx.post(f"{base}/api/games", json={"mode": "solo"}, headers=headers, timeout=30).status_code

        assert status(**proxied, origin="https://dice.example.org") == 201
        assert status(**proxied, origin="http://dice.example.org") == 403
        assert status(host="dice.example.org", origin="https://dice.example.org") == 403  # not through the proxy
        assert status(**proxied, origin="https://dice.example.org", **{"sec-fetch-site": "cross-site"}) == 403
        made = httpx.post(f"{base}/api/games", json={"mode": "solo"}, timeout=30)
        assert made.headers["x-content-type-options"] == "nosniff" and "content-security-policy" in made.headers
        live = f"ws://127.0.0.1:{server.port}/ws/games/{made.json()['id']}"
        with connect(live, origin=f"https://127.0.0.1:{server.port}", open_timeout=30,  # type: ignore[arg-type]
                     additional_headers={"x-forwarded-proto": "https"}) as screen:  # wss, seen through the proxy
            assert json.loads(screen.recv(timeout=30))["type"] == "game"
        with pytest.raises(ConnectionClosed) as refused, connect(live, origin="https://evil.example",  # type: ignore[arg-type]
                                                                 open_timeout=30) as foreign:
            assert json.loads(foreign.recv(timeout=30))["code"] == "cross-origin"  # why, for the screen to word
            foreign.recv(timeout=30)  # closed before any route is reached, with the code and the reason
        assert refused.value.rcvd is not None and refused.value.rcvd.code == 1008
        assert "refused" in refused.value.rcvd.reason
    finally:
        server.stop()


@pytest.mark.slow
def test_serve_says_in_one_line_when_the_database_cannot_be_opened(tmp_path: Path) -> None:
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path), "HOTDICE_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/x"}
    port = str(free_port())
    refused = subprocess.run([sys.executable, "-m", "hotdice.cli", "serve", "--port", port], capture_output=True,
                             text=True, env=env, timeout=120)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("hotdice: error: cannot open the database: ") and "127.0.0.1" in refused.stderr


_FROZEN_AT_START = """
import gc, sys
from fastapi.testclient import TestClient
from hotdice.web import create_app, serve_app

with TestClient({factory}()) as client:
    assert client.get("/healthz").status_code == 200
    print(gc.get_freeze_count())
"""


@pytest.mark.slow
@pytest.mark.parametrize(("factory", "frozen"), [("serve_app", True), ("create_app", False)])
def test_a_server_process_sets_what_it_made_at_start_apart_from_the_garbage_collector(
    factory: str, frozen: bool, tmp_path: Path
) -> None:
    """``hotdice serve``'s app freezes the objects made at start (full collections over them stopped every
    request for 100-150 ms under load); an app made for a test or embedded elsewhere leaves the process alone."""
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path)}
    env.pop("HOTDICE_DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", _FROZEN_AT_START.format(factory=factory)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count = int(done.stdout.split()[-1])
    assert count > 100_000 if frozen else count == 0


# -- pooled connections to PostgreSQL -------------------------------------------------------------------------


@pytest.fixture
def postgres_store() -> Iterator[Store]:
    if "postgresql" not in BACKENDS:
        pytest.skip(f"PostgreSQL turned off ({NO_POSTGRES_ENV})")
    for url in fresh_postgres_database():
        store = Store(url)
        try:
            yield store
        finally:
            store.close()


def _use(store: Store) -> None:
    with store.session() as session:
        assert session.execute(text("SELECT 1")).scalar() == 1


def _cut_the_pooled_connections(store: Store) -> None:
    """What a server restart or a proxy's idle timeout does to the connections resting in the pool."""
    admin = create_engine(store.engine.url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            cut = connection.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                                          "datname = current_database() AND pid <> pg_backend_pid()")).scalar()
        assert cut == 1
    finally:
        admin.dispose()


def _count_pings(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pings: list[int] = []
    ping = store.engine.dialect.do_ping
    monkeypatch.setattr(store.engine.dialect, "do_ping", lambda c: pings.append(1) or ping(c))
    return pings


def test_a_connection_in_steady_use_is_not_pinged(postgres_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    pings = _count_pings(postgres_store, monkeypatch)
    for _ in range(20):
        _use(postgres_store)
    assert pings == []


def test_a_rested_connection_cut_by_the_server_is_replaced_before_use(
    postgres_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use(postgres_store)
    _cut_the_pooled_connections(postgres_store)
    pings = _count_pings(postgres_store, monkeypatch)
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE", 0.0)  # it has rested long enough
    _use(postgres_store)
    assert pings == [1]


def test_without_the_check_a_cut_connection_fails_its_request(
    postgres_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: what the check above saves a request from."""
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE", 3600.0)  # not rested long enough: taken as it is
    _use(postgres_store)
    _cut_the_pooled_connections(postgres_store)
    with pytest.raises(OperationalError):
        _use(postgres_store)
    _use(postgres_store)  # the pool has let the dead connection go
