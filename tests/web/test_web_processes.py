"""Several server processes behind one database: two real uvicorn processes on their own ports share a
SQLite file or a PostgreSQL database. One device plays across them, each request to the other process; a
screen watching through one process sees the moves made through the other at once (PostgreSQL NOTIFY, Redis
pub/sub, or, on SQLite, the watcher's poll of the game's action number).

The server here makes its own daily key (no HOTDICE_DAILY_KEY): both processes must use the one kept in the
database, which the record's seed and its replay show.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, create_engine, select, text
from sqlalchemy.orm import Session
from websockets.sync.client import ClientConnection, connect

from hotdice.game.record import Record, replay
from hotdice.play.daily import daily_seed
from hotdice.store.web_models import WebGame, WebSecret
from hotdice.web.hub import POLL_SECONDS, RELOAD, Hub, PostgresChannel, hub_for
from hotdice.web.services.players import COOKIE, DEVICE_KEY, Devices
from tests.db_support import BACKENDS, fresh_postgres_database
from tests.web.test_web_devices import made_up
from tests.web_servers import HOST, Preloader, Server, free_port, server_env, wait_up
from tests.web_support import next_intent

REDIS_URL = "redis://127.0.0.1:6379/0"
AT_ONCE = 1.0  # seconds: the longest a move may take to reach a screen of the other process (loaded machine)


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two server processes forked at the same moment from one that has imported the app (the imports take
    many seconds on a loaded machine); each opens the database and brings its schema up to date."""
    preloader = Preloader(server_env(database_url, tmp_path))
    try:
        ports = [free_port(), free_port()]
        for port in ports:
            preloader.spawn(port)
        for port in ports:
            wait_up(port)
        yield f"http://{HOST}:{ports[0]}", f"http://{HOST}:{ports[1]}"
    finally:
        preloader.close()


@contextmanager
def _two_servers(env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """Two ``uvicorn`` processes started at the same moment."""
    servers = [Server(env), Server(env)]
    try:
        for server in servers:
            wait_up(server.port, server.process)
        yield servers[0].url, servers[1].url
    finally:
        for server in servers:
            server.stop()


@contextmanager
def watching(url: str) -> Iterator[Watcher]:
    with connect(url, open_timeout=30) as socket:
        watcher = Watcher(socket)
        try:
            yield watcher
        finally:
            socket.close()
            watcher.join(5)


class Watcher(threading.Thread):
    """A screen on a WebSocket: keeps every message with the moment it came."""

    def __init__(self, socket: ClientConnection) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.heard: list[tuple[float, dict[str, Any]]] = []
        self.changed = threading.Condition()
        self.start()

    def run(self) -> None:
        for said in self.socket:
            with self.changed:
                self.heard.append((time.monotonic(), json.loads(said)))
                self.changed.notify_all()

    def first(self, where: Any, after: float = 0.0, within: float = 10.0) -> float:
        """When the first message for which ``where`` holds came (``after`` that moment)."""
        deadline = time.monotonic() + within
        with self.changed:
            while True:
                found = next((at for at, message in self.heard if at > after and where(message)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"no such message in {within} s: {[m for _, m in self.heard][-3:]}"
                self.changed.wait(left)


def _ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code in (200, 201), answer.text
    data: dict[str, Any] = answer.json()
    return data


def _play_across(client: httpx.Client, urls: tuple[str, str], view: dict[str, Any],
                 watcher: Watcher) -> tuple[dict[str, Any], list[float]]:
    """Play ``view``'s game to its end, each action through the other process than the one before; the delays
    after which the watcher (on the first process) saw the moves made through the second."""
    delays = []
    turn = 0
    while view["outcome"] is None:
        through = urls[turn % 2]
        acted = _ok(client.post(f"{through}/api/games/{view['id']}/act", json={"n": view["n"], **next_intent(view)}))
        answered = time.monotonic()
        assert acted["applied"] is True
        view = acted["game"]
        n = view["n"]
        seen = watcher.first(lambda m, n=n: m["type"] == "game" and m["view"]["n"] >= n)
        if through == urls[1]:
            delays.append(max(0.0, seen - answered))
        turn += 1
    return view, delays


def _record(database_url: str, game_id: str) -> tuple[Record, str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            record = connection.scalar(select(WebGame.record).where(WebGame.id == game_id))
            key = connection.scalar(select(WebSecret.value).where(WebSecret.name == "daily-key"))
    finally:
        engine.dispose()
    assert record is not None and key is not None
    return Record.from_json(record), key


@pytest.mark.slow
def test_a_daily_is_played_across_two_processes_and_watched_from_one_of_them(
    two_servers: tuple[str, str], database_url: str
) -> None:
    a, b = two_servers
    alice, bob = httpx.Client(timeout=30), httpx.Client(timeout=30)  # one device each, whatever the port
    day = datetime.now(UTC).date()
    first = _ok(alice.post(f"{a}/api/daily"))
    assert first["official"] is True
    assert _ok(alice.post(f"{b}/api/daily"))["id"] == first["id"]  # the other process resumes the same attempt
    with watching(f"ws://{a.removeprefix('http://')}/ws/games/{first['id']}") as watcher:
        view = _ok(alice.get(f"{b}/api/games/{first['id']}"))
        watcher.first(lambda m: m["type"] == "game" and m["view"]["n"] == view["n"])
        view, delays = _play_across(alice, (a, b), view, watcher)
    assert len(delays) >= 5 and max(delays) < AT_ONCE, delays
    print(f"\nmoves through B seen by a watcher on A after {statistics.median(delays) * 1000:.0f} ms (median), "
          f"{max(delays) * 1000:.0f} ms (max) over {len(delays)} moves")

    record, key = _record(database_url, first["id"])
    assert record.seed == daily_seed(day, bytes.fromhex(key)).hex()  # the one key both processes use
    replay(record)  # every roll, made by either process, is the seed's own
    assert _ok(alice.post(f"{b}/api/daily"))["official"] is False  # one official attempt, wherever asked
    board = _ok(bob.get(f"{a}/api/daily"))["leaderboard"]
    assert [(r["name"], r["score"]) for r in board] == [(view["players"][0]["name"], view["players"][0]["score"])]


@pytest.mark.slow
def test_a_challenge_and_a_table_across_two_processes(two_servers: tuple[str, str]) -> None:
    a, b = two_servers
    alice, bob = httpx.Client(timeout=30), httpx.Client(timeout=30)
    code = _ok(alice.post(f"{a}/api/challenges", json={"preset": "farkle"}))["code"]
    game = _ok(bob.post(f"{b}/api/challenges/{code}/play"))
    assert _ok(bob.post(f"{a}/api/challenges/{code}/play"))["id"] == game["id"]  # one attempt each, anywhere
    with watching(f"ws://{a.removeprefix('http://')}/ws/games/{game['id']}") as watcher:
        view, _ = _play_across(bob, (a, b), _ok(bob.get(f"{b}/api/games/{game['id']}")), watcher)
    ranking = _ok(alice.get(f"{a}/api/challenges/{code}"))["ranking"]
    assert [r["score"] for r in ranking] == [view["players"][0]["score"]]
    assert _ok(alice.get(f"{a}/api/challenges/{code}"))["dice_key"] is None
    mine = _ok(alice.post(f"{a}/api/challenges/{code}/play"))  # Alice's attempt, played through a, kept there
    started = _ok(alice.post(f"{a}/api/games/{mine['id']}/act", json={"n": 0, "then": "roll"}))["game"]
    _ok(alice.post(f"{b}/api/challenges/{code}/close"))
    closed = _ok(bob.get(f"{a}/api/challenges/{code}"))
    assert closed["grace_until"] is not None and closed["dice_key"] is None  # closed everywhere at once, key kept
    # Closed through b, the attempt a keeps plays on until its grace deadline: closing cuts no rival off.
    _ok(alice.post(f"{a}/api/games/{mine['id']}/act", json={"n": started["n"], **next_intent(started)}))

    table = _ok(alice.post(f"{a}/api/tables", json={}))["code"]
    with watching(f"ws://{a.removeprefix('http://')}/ws/tables/{table}") as lobby:
        lobby.first(lambda m: m["type"] == "table")
        joined = time.monotonic()
        _ok(bob.post(f"{b}/api/tables/{table}/join", json={"name": "Bob"}))
        assert lobby.first(lambda m: m["type"] == "table", after=joined) - joined < AT_ONCE
    assert [s["name"] for s in _ok(alice.get(f"{a}/api/tables/{table}"))["seats"]][1:] == ["Bob"]


@pytest.mark.slow
def test_a_device_made_by_one_process_is_a_device_of_the_other(two_servers: tuple[str, str], database_url: str) -> None:
    """Both sign with the device key kept in the database, made by whichever process started first."""
    a, b = two_servers
    alice = httpx.Client(timeout=30)
    _ok(alice.post(f"{a}/api/me", json={"name": "Ann"}))
    cookie = alice.cookies[COOKIE]
    answer = alice.get(f"{b}/api/me")
    assert _ok(answer) == {"name": "Ann", "rules": "farkle"} and "set-cookie" not in answer.headers
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            key = connection.scalar(select(WebSecret.value).where(WebSecret.name == DEVICE_KEY))
    finally:
        engine.dispose()
    assert key is not None and Devices(bytes.fromhex(key)).token(cookie) is not None
    foreign = Devices(b"another server's key").cookie(made_up())
    stranger = httpx.get(f"{b}/api/me", headers={"cookie": f"{COOKIE}={foreign}"}, timeout=30)
    assert _ok(stranger) == {"name": "", "rules": "farkle"}  # a new device (no name chosen yet), given by b
    assert Devices(bytes.fromhex(key)).token(stranger.cookies[COOKIE]) not in (None, foreign.split(".")[0])


@pytest.mark.slow
def test_redis_carries_the_moves_between_processes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with _two_servers(server_env(url, tmp_path, HOTDICE_REDIS_URL=REDIS_URL)) as (a, b):
        client = httpx.Client(timeout=30)
        made = _ok(client.post(f"{a}/api/games", json={"mode": "race"}))
        with watching(f"ws://{a.removeprefix('http://')}/ws/games/{made['id']}") as watcher:
            view = _ok(client.get(f"{b}/api/games/{made['id']}"))
            watcher.first(lambda m: m["type"] == "game")
            _, delays = _play_across(client, (a, b), view, watcher)
        # Pushed, not polled: with Redis the screens do not poll, and the moves come well within a poll.
        assert statistics.median(delays) < POLL_SECONDS / 2, delays


@pytest.mark.slow
@pytest.mark.parametrize("redis", [True, False], ids=["redis", "each-process"])
def test_with_redis_the_rate_limits_are_shared_by_the_processes(redis: bool, tmp_path: Path) -> None:
    """One device asks both processes in turn, with a burst of 6 and (almost) nothing after: with Redis, 6
    answers in all; without, each process counts alone (README: up to N times the rate)."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    limits = {"HOTDICE_RATE_LIMITS": "on", "HOTDICE_RATE_PLAYER": "0.01/s burst 6", "HOTDICE_RATE_ADDRESS": "off",
              "HOTDICE_RATE_NEW_DEVICE": "off", **({"HOTDICE_REDIS_URL": REDIS_URL} if redis else {})}
    with _two_servers(server_env(url, tmp_path, **limits)) as urls:
        device = _device(urls)  # its cookie made by a request that counts as a new device's (off here)
        answers = [device.get(f"{urls[i % 2]}/api/openapi.json") for i in range(14)]
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) == (6 if redis else 12) and set(statuses) == {200, 429}, statuses


# -- idempotency and concurrency ------------------------------------------------------------------------------

STARTS = 12  # concurrent starts of one device's daily
WINDOW = 4  # actions whose intents are sent together, shuffled, each three times
COPIES = 3


def _at_once(calls: list[Any]) -> list[httpx.Response]:
    """Run every call in its own thread, all released at the same moment; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def _device(urls: tuple[str, str]) -> httpx.Client:
    """A device with its cookie already made (a browser's first page)."""
    client = httpx.Client(timeout=60)
    client.get(f"{urls[0]}/rules")
    return client


@pytest.mark.slow
def test_many_concurrent_starts_of_the_daily_give_one_official_attempt(
    two_servers: tuple[str, str], database_url: str
) -> None:
    carol = _device(two_servers)  # a new device: its player row is made by these very requests
    answers = _at_once([lambda i=i: carol.post(f"{two_servers[i % 2]}/api/daily") for i in range(STARTS)])
    started = [_ok(answer) for answer in answers]
    assert {s["id"] for s in started} == {started[0]["id"]} and all(s["official"] for s in started), started
    assert _rows(database_url, WebGame.id, WebGame.official) == [(started[0]["id"], True)]


def _play_through(client: httpx.Client, url: str, game_id: str) -> list[dict[str, Any]]:
    """Play a game to its end with the plain strategy; the intents sent."""
    view = _ok(client.get(f"{url}/api/games/{game_id}"))
    intents = []
    while view["outcome"] is None:
        intents.append({"n": view["n"], **next_intent(view)})
        view = _ok(client.post(f"{url}/api/games/{game_id}/act", json=intents[-1]))["game"]
    return intents


def _rows(database_url: str, *columns: Any) -> list[Any]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(select(*columns)).all())
    finally:
        engine.dispose()


@pytest.mark.slow
def test_concurrent_starts_after_the_official_attempt_give_one_more_attempt(
    two_servers: tuple[str, str], database_url: str
) -> None:
    """Once the official attempt is over, a start makes a new (unofficial) attempt, or goes back to the one
    not finished: many starts at once make one."""
    alice = _device(two_servers)
    official = _ok(alice.post(f"{two_servers[0]}/api/daily"))["id"]
    _play_through(alice, two_servers[0], official)
    answers = _at_once([lambda i=i: alice.post(f"{two_servers[i % 2]}/api/daily") for i in range(STARTS)])
    started = [_ok(answer) for answer in answers]
    assert {s["id"] for s in started} == {started[0]["id"]} != {official}, started
    assert not any(s["official"] for s in started)
    assert sorted(_rows(database_url, WebGame.id, WebGame.official)) == sorted(
        [(official, True), (started[0]["id"], False)])


@pytest.mark.slow
def test_concurrent_joins_and_starts_of_one_table_seat_everyone_and_make_one_game(
    two_servers: tuple[str, str], database_url: str
) -> None:
    """Five devices join at the same moment through both processes: all are seated, each once. The host then
    starts the table many times at once: one game, the table's, with every seat."""
    urls = two_servers
    host = _device(urls)
    code = _ok(host.post(f"{urls[0]}/api/tables", json={}))["code"]
    guests = [_device(urls) for _ in range(5)]
    joined = _at_once([lambda i=i, g=g: g.post(f"{urls[i % 2]}/api/tables/{code}/join", json={"name": f"P{i}"})
                       for i, g in enumerate(guests)])
    assert all(answer.status_code == 200 for answer in joined), [a.text for a in joined]
    seats = _ok(host.get(f"{urls[1]}/api/tables/{code}"))["seats"]
    assert sorted(s["name"] for s in seats[1:]) == [f"P{i}" for i in range(5)]
    answers = _at_once([lambda i=i: host.post(f"{urls[i % 2]}/api/tables/{code}/start") for i in range(STARTS)])
    games = {_ok(answer)["game"] for answer in answers}
    rows = _rows(database_url, WebGame.id, WebGame.table_code)
    assert len(games) == 1 and rows == [(games.pop(), code)], rows
    view = _ok(host.get(f"{urls[0]}/api/games/{rows[0][0]}"))
    assert len(view["players"]) == 6


@pytest.mark.slow
def test_duplicated_reordered_and_concurrent_intents_change_the_game_once_each(
    two_servers: tuple[str, str], database_url: str
) -> None:
    """The device's first daily attempt, played plainly, is the reference; its second attempt has the same
    dice, so the same intents at the same action numbers. They are sent WINDOW actions at a time, each
    COPIES times, shuffled, all at once, to both processes; intents sent ahead of the game (409 stale) are sent
    again with the next batch. Each action is applied exactly once, and the game is the reference's."""
    urls = two_servers
    alice = _device(urls)
    reference = _ok(alice.post(f"{urls[0]}/api/daily"))["id"]
    intents = _play_through(alice, urls[0], reference)
    second = _ok(alice.post(f"{urls[1]}/api/daily"))
    assert second["official"] is False

    rng = random.Random(7)
    applied: dict[int, int] = {}
    waiting = [dict(i) for i in intents]
    while waiting:
        batch, waiting = waiting[:WINDOW], waiting[WINDOW:]
        sent = [intent for intent in batch for _ in range(COPIES)]
        while sent:
            rng.shuffle(sent)
            answers = _at_once([lambda i=i, body=body: alice.post(f"{urls[i % 2]}/api/games/{second['id']}/act",
                                                                  json=body) for i, body in enumerate(sent)])
            ahead = []
            for body, answer in zip(sent, answers, strict=True):
                assert answer.status_code in (200, 409), answer.text
                data = answer.json()
                if answer.status_code == 409:  # sent before the action it follows: nothing changed
                    assert data["code"] == "stale" and data["game"]["n"] < body["n"], data
                    ahead.append(body)
                elif data["applied"]:
                    applied[body["n"]] = applied.get(body["n"], 0) + 1
            assert len(ahead) < len(sent)  # the game moved on
            sent = ahead
    assert applied == {i["n"]: 1 for i in intents}
    records = dict(_rows(database_url, WebGame.id, WebGame.record))
    assert Record.from_json(records[second["id"]]).history == Record.from_json(records[reference]).history


# -- the channel itself ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b == "postgresql"])
def test_a_hub_that_lost_its_channel_reconnects_and_has_its_screens_reload(backend: str) -> None:
    """Two hubs (two processes) on one PostgreSQL database; the listening connection of one is cut."""
    for url in fresh_postgres_database():
        engine = create_engine(url)
        try:
            asyncio.run(_cut_and_reconnect(engine))
        finally:
            engine.dispose()


async def _cut_and_reconnect(engine: Engine) -> None:
    here, there = hub_for(engine, None), hub_for(engine, None)
    assert here.poll is None  # pushed: no screen polls on PostgreSQL
    here.start(asyncio.get_running_loop())
    try:
        async with here.subscribe("game:x") as queue:
            assert await asyncio.wait_for(queue.get(), 10) == RELOAD  # connected: read the state once
            with engine.begin() as connection:
                cut = connection.scalar(text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND query LIKE 'LISTEN%'"))
            assert cut == 1
            assert await asyncio.wait_for(queue.get(), 10) == RELOAD  # back: whatever was missed, read again
            small = {"type": "game", "view": {"n": 3}}
            await asyncio.to_thread(there.publish, "game:x", small)
            assert await asyncio.wait_for(queue.get(), 10) == small
            big = {"type": "game", "view": {"n": 4, "events": ["x" * 100] * 100}}  # over NOTIFY's 8000 bytes
            await asyncio.to_thread(there.publish, "game:x", big)
            assert await asyncio.wait_for(queue.get(), 10) == RELOAD
            await asyncio.to_thread(here.publish, "game:x", small)  # its own: delivered once, not again
            assert await asyncio.wait_for(queue.get(), 10) == small
            await asyncio.sleep(0.3)
            assert queue.empty()
    finally:
        await here.stop()


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b == "postgresql"])
def test_a_change_rolled_back_is_never_announced_and_a_committed_one_is_at_its_commit(backend: str) -> None:
    """On PostgreSQL the NOTIFY travels in the change's own transaction (``Hub.commit``)."""
    for url in fresh_postgres_database():
        engine = create_engine(url)
        try:
            asyncio.run(_announced_with_the_commit(engine))
        finally:
            engine.dispose()


async def _announced_with_the_commit(engine: Engine) -> None:
    here, there = hub_for(engine, None), hub_for(engine, None)
    here.start(asyncio.get_running_loop())
    try:
        async with here.subscribe("game:x") as queue:
            assert await asyncio.wait_for(queue.get(), 10) == RELOAD  # connected
            gone, kept = {"type": "game", "view": {"n": 1}}, {"type": "game", "view": {"n": 2}}

            def roll_back() -> None:
                with Session(engine) as session:
                    channel = there._channel
                    assert isinstance(channel, PostgresChannel)
                    channel.send_within(session.connection(), there._text("game:x", gone))
                    session.rollback()

            def commit() -> None:
                with Session(engine) as session:
                    session.execute(text("SELECT 1"))
                    there.commit(session, "game:x", kept)

            await asyncio.to_thread(roll_back)
            await asyncio.to_thread(commit)
            assert await asyncio.wait_for(queue.get(), 10) == kept
            await asyncio.sleep(0.3)
            assert queue.empty()
    finally:
        await here.stop()


def test_a_screen_waiting_on_its_own_event_loop_is_woken_by_a_change_made_from_another_thread() -> None:
    """The hub started on one event loop, a screen watching from another (a second server thread, or each
    test client's own loop): the change reaches it at once, not at its next wake-up for another reason."""
    hub = Hub(poll=None)
    started = asyncio.new_event_loop()
    threading.Thread(target=started.run_forever, daemon=True).start()
    hub.start(started)
    subscribed, received = threading.Event(), []

    async def watch() -> None:
        async with hub.subscribe("game:x") as queue:
            subscribed.set()
            began = time.monotonic()
            received.append((await asyncio.wait_for(queue.get(), 5), time.monotonic() - began))

    watcher = threading.Thread(target=asyncio.run, args=(watch(),))
    watcher.start()
    assert subscribed.wait(5)
    time.sleep(0.1)  # the screen's loop is asleep, waiting on its queue
    hub.publish("game:x", {"type": "game", "view": {"n": 1}})
    watcher.join(10)
    started.call_soon_threadsafe(started.stop)
    assert received, "the screen was not woken within 5 s"
    [(message, waited)] = received
    assert message == {"type": "game", "view": {"n": 1}} and waited < 1
