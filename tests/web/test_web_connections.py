"""Idle and silent connections cannot exhaust ``hotdice serve``: a request head must arrive within
HOTDICE_HEAD_TIMEOUT seconds (slowloris), one address holds a capped number of connections and of WebSockets,
and on SQLite one watcher per game polls the database for all the screens of that game, not one per screen."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlalchemy import event
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hotdice.web import Settings, create_app
from hotdice.web.hub import POLL_SECONDS
from tests.web.test_web_processes import AT_ONCE, watching
from tests.web_servers import HOST, Server, free_port, server_env, start_server, wait_up
from tests.web_support import french_of, next_intent

HEAD_TIMEOUT = 1.0
SLACK = 3.0  # seconds a loaded machine may add to a timer


@pytest.fixture(scope="module")
def impatient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``hotdice serve`` giving a request head one second, and two WebSockets to an address, behind a proxy
    on this machine (the default ``--forwarded-allow-ips``)."""
    data = tmp_path_factory.mktemp("impatient")
    server = start_server(server_env(f"sqlite:///{data / 'db.sqlite3'}", data, HOTDICE_WEBSOCKETS_PER_ADDRESS="2",
                                     HOTDICE_HEAD_TIMEOUT=str(HEAD_TIMEOUT)), serve=[])
    yield server
    server.stop()


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``hotdice serve`` taking three connections and two WebSockets per address, with no proxy in front: the
    trusted proxies' connections are not capped (they carry everyone's)."""
    data = tmp_path_factory.mktemp("capped")
    server = start_server(server_env(f"sqlite:///{data / 'db.sqlite3'}", data, HOTDICE_HEAD_TIMEOUT="60",
                                     HOTDICE_CONNECTIONS_PER_ADDRESS="3", HOTDICE_WEBSOCKETS_PER_ADDRESS="2"),
                          serve=["--forwarded-allow-ips", "192.0.2.1"])
    yield server
    server.stop()


def _closed_after(sock: socket.socket, trickle: bytes = b"") -> float:
    """Seconds until the server closes ``sock`` (reading what it says), sending ``trickle`` a byte at a time."""
    start = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - start < HEAD_TIMEOUT + SLACK + 5:
        if trickle:
            try:
                sock.send(trickle[:1])
            except OSError:
                return time.monotonic() - start
            trickle = trickle[1:]
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - start
    raise AssertionError("the server kept the connection open")


@pytest.mark.slow
@pytest.mark.parametrize("sent", [b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\n"], ids=["silent", "half-head"])
def test_a_connection_without_a_whole_request_head_is_closed_within_the_timeout(impatient: Server,
                                                                                sent: bytes) -> None:
    with socket.create_connection((HOST, impatient.port)) as sock:
        sock.sendall(sent)
        assert HEAD_TIMEOUT * 0.8 < _closed_after(sock) < HEAD_TIMEOUT + SLACK


@pytest.mark.slow
def test_a_head_sent_a_byte_at_a_time_is_cut_off_although_bytes_keep_coming(impatient: Server) -> None:
    with socket.create_connection((HOST, impatient.port)) as sock:
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        assert _closed_after(sock, trickle=head) < HEAD_TIMEOUT + SLACK


@pytest.mark.slow
def test_after_an_answer_the_next_head_has_the_same_deadline(impatient: Server) -> None:
    with socket.create_connection((HOST, impatient.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # its first byte stops uvicorn's keep-alive timer
        assert _closed_after(sock) < HEAD_TIMEOUT + SLACK
    assert httpx.get(f"{impatient.url}/healthz").status_code == 200  # whole requests are answered


def _until(status: int, url: str) -> httpx.Response:
    """The first answer of ``status`` (the server accepts the connections made before in its own time)."""
    deadline = time.monotonic() + 10
    while True:
        answer = httpx.get(url, timeout=10)
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


@pytest.mark.slow
def test_one_connection_over_the_cap_of_an_address_is_answered_503_with_the_reason(capped: Server) -> None:
    idle = [socket.create_connection((HOST, capped.port)) for _ in range(3)]
    try:
        refused = _until(503, f"{capped.url}/healthz")
        assert refused.status_code == 503
        assert refused.json() == {"detail": "too many connections from this address: at most 3 at once",
                                  "code": "too-many-connections",
                                  "message": {"key": "error.too_many_connections", "values": {"cap": 3}}}
        assert french_of(refused.json()) == "trop de connexions depuis cette adresse\u00a0: 3 au plus à la fois"
        idle.pop().close()
        assert _until(200, f"{capped.url}/healthz").status_code == 200  # released at the close
    finally:
        for sock in idle:
            sock.close()


def test_one_websocket_over_the_cap_of_an_address_is_closed_with_1008(capped: Server) -> None:
    made = httpx.post(f"{capped.url}/api/games", json={"mode": "solo"}, timeout=30)
    assert made.status_code == 201, made.text
    url = f"ws://{HOST}:{capped.port}/ws/games/{made.json()['id']}"
    with connect(url, open_timeout=30) as first, connect(url, open_timeout=30) as second:
        for screen in (first, second):
            assert '"type":"game"' in str(screen.recv(10)).replace(" ", "")
        with connect(url, open_timeout=30) as third, pytest.raises(ConnectionClosed) as closed:
            told = json.loads(third.recv(10))  # why, for the screen to word in its language; then the close
            third.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert closed.value.rcvd.reason == "too many live screens from this address: at most 2 at once"
        assert told["type"] == "refused" and told["code"] == "too-many-websockets"
        assert french_of(told) == "trop d’écrans en direct depuis cette adresse\u00a0: 2 au plus à la fois"
    with connect(url, open_timeout=30) as again:  # the two have closed: counted no more
        assert '"type":"game"' in str(again.recv(10)).replace(" ", "")


def test_behind_a_trusted_proxy_the_websockets_of_each_forwarded_client_are_counted(impatient: Server) -> None:
    made = httpx.post(f"{impatient.url}/api/games", json={"mode": "solo"}, timeout=30)
    assert made.status_code == 201, made.text
    url = f"ws://{HOST}:{impatient.port}/ws/games/{made.json()['id']}"
    one, other = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "203.0.113.8"}
    with contextlib.ExitStack() as stack:
        for headers in (one, one, other, other):  # two each, all through the one proxy
            screen = stack.enter_context(connect(url, open_timeout=30, additional_headers=headers))
            assert '"type":"game"' in str(screen.recv(10)).replace(" ", "")
        with connect(url, open_timeout=30, additional_headers=one) as third, pytest.raises(ConnectionClosed) as closed:
            assert '"type": "refused"' in str(third.recv(10))
            third.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


SCREENS = 30


@pytest.mark.slow
def test_many_screens_of_one_game_on_sqlite_make_one_poll_per_interval_and_all_see_the_move(tmp_path: Path) -> None:
    """The screens watch through a server in this process (its queries counted); the move is made through
    another process on the same SQLite file, so only the poll can tell them."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    other = start_server(server_env(url, tmp_path))
    app = create_app(Settings(data_dir=tmp_path, database_url=url).unlimited())
    here = uvicorn.Server(uvicorn.Config(app, host=HOST, port=free_port(), log_level="warning",
                                         http="hotdice.web.server:GuardedHttp"))
    serving = threading.Thread(target=here.run, daemon=True)
    serving.start()
    try:
        wait_up(here.config.port)
        client = httpx.Client(timeout=30)
        made = client.post(f"{other.url}/api/games", json={"mode": "solo"})
        view = client.get(f"{other.url}/api/games/{made.json()['id']}").json()
        statements: list[str] = []
        event.listen(app.state.db.store.engine, "before_cursor_execute",
                     lambda *args: statements.append(args[2]))
        with contextlib.ExitStack() as stack:
            screens = [stack.enter_context(watching(f"ws://{HOST}:{here.config.port}/ws/games/{view['id']}"))
                       for _ in range(SCREENS)]
            for screen in screens:
                screen.first(lambda m: m["type"] == "game")
            polls, counted, quiet = app.state.hub.polls, len(statements), time.monotonic()
            time.sleep(1.0)
            quiet = time.monotonic() - quiet
            intervals = quiet / POLL_SECONDS
            queries = len(statements) - counted
            assert queries <= intervals + 1, queries  # one a poll (one per screen before: 143)
            assert app.state.hub.polls - polls <= intervals + 1  # one watcher for the 30 screens
            moved = time.monotonic()
            acted = client.post(f"{other.url}/api/games/{view['id']}/act", json={"n": view["n"], **next_intent(view)})
            assert acted.status_code == 200, acted.text
            n = acted.json()["game"]["n"]
            for screen in screens:
                seen = screen.first(lambda m: m["type"] == "game" and m["view"]["n"] >= n, after=moved)
                assert seen - moved < AT_ONCE + SLACK
        gone = time.monotonic() + 10
        while app.state.hub._watchers and time.monotonic() < gone:  # the server sees the closes in its own time
            time.sleep(POLL_SECONDS)
        assert not app.state.hub._watchers  # the last screen gone, its watcher stopped
    finally:
        here.should_exit = True
        serving.join(30)
        other.stop()
