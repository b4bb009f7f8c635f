"""The abuse limits of ``hotdice serve``: rates per device, per address and for cookieless requests (429 with
Retry-After, then recovery), and the size of a request (413, 414, 431) before anything parses it.

Rates are token buckets: the waits are checked against the bucket arithmetic done here, on a fake clock for
exact values and on the real clock over HTTP (where a few milliseconds pass between requests).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hotdice.web import Settings, create_app
from hotdice.web.limits import MAX_HEADERS, MAX_TARGET, SWEEP_EVERY, Buckets, BucketStore, SharedBuckets
from hotdice.web.services.players import COOKIE
from hotdice.web.settings import ADDRESS_RATE, MAX_BODY, NEW_DEVICE_RATE, PLAYER_RATE, Rate
from tests.french_support import english_left
from tests.web_servers import HOST, UP_WITHIN, free_port, server_env, start_server
from tests.web_support import french_of


def make_app(tmp_path: Path, player_rate: Rate | None = None, address_rate: Rate | None = None,
             new_device_rate: Rate | None = None) -> FastAPI:
    """The app with only the given rate limits."""
    return create_app(Settings(data_dir=tmp_path, player_rate=player_rate, address_rate=address_rate,
                               new_device_rate=new_device_rate))


def device(app: FastAPI, address: str = "203.0.113.7") -> TestClient:
    """A browser at ``address`` holding a device cookie (its first request, which made it, was cookieless)."""
    client = TestClient(app, client=(address, 50000))
    assert client.get("/api/rules").status_code == 200
    assert client.cookies.get(COOKIE)
    return client


def until_refused(ask: Callable[[], httpx.Response], most: int = 1000) -> tuple[int, httpx.Response]:
    """How many requests were answered before the first 429, and that 429."""
    for answered in range(most):
        response = ask()
        if response.status_code == 429:
            return answered, response
        assert response.status_code in (200, 201), response.text
    raise AssertionError(f"no 429 in {most} requests")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# -- the buckets ----------------------------------------------------------------------------------------


def test_a_bucket_gives_its_burst_then_says_how_long_to_wait(clock: FakeClock) -> None:
    buckets, rate = Buckets(clock), Rate(per_second=4, burst=10)
    assert [buckets.take("k", rate) for _ in range(10)] == [0.0] * 10
    assert buckets.take("k", rate) == pytest.approx(1 / 4)  # one token comes back in 1/4 s
    clock.now += 0.1  # 0.4 of a token back: 0.6 of one to go
    assert buckets.take("k", rate) == pytest.approx(0.6 / 4)
    clock.now += 0.15
    assert buckets.take("k", rate) == 0.0
    assert buckets.take("other", rate) == 0.0  # each key its own bucket


def test_a_bucket_refills_to_its_burst_and_no_more(clock: FakeClock) -> None:
    buckets, rate = Buckets(clock), Rate(per_second=2, burst=3)
    for _ in range(3):
        buckets.take("k", rate)
    clock.now += 3600  # an hour later: full, not 7200 tokens
    assert [buckets.take("k", rate) == 0.0 for _ in range(4)] == [True, True, True, False]


def test_sweeps_forget_the_buckets_that_are_full_again(clock: FakeClock) -> None:
    buckets, rate = Buckets(clock), Rate(per_second=1, burst=100)
    for key in ("idle", "busy"):
        buckets.take(key, rate)
    for _ in range(90):
        buckets.take("busy", rate)
    clock.now += SWEEP_EVERY  # idle is full again (1 token in 1 s); busy still lacks 31
    buckets.take("busy", rate)
    assert len(buckets) == 1
    clock.now += 1
    assert buckets.take("idle", rate) == 0.0  # forgotten is full


def test_the_default_rates_let_a_fast_player_play_and_stop_a_script(clock: FakeClock) -> None:
    """A fast player: a page's burst of requests, then three actions a second for ten minutes. A script at
    ten requests a second is stopped within seconds, and held to the sustained rate after that."""
    buckets = Buckets(clock)
    for _ in range(20):
        assert buckets.take("player", PLAYER_RATE) == 0.0
    for _ in range(3 * 600):
        clock.now += 1 / 3
        assert buckets.take("player", PLAYER_RATE) == 0.0
    answered = 0
    for _ in range(10 * 60):
        clock.now += 1 / 10
        answered += buckets.take("script", PLAYER_RATE) == 0.0
    # burst, then the sustained rate: PLAYER_RATE.burst + 60 s * per_second, give or take one
    assert abs(answered - (PLAYER_RATE.burst + 60 * PLAYER_RATE.per_second)) <= 1


def test_the_default_rates_let_a_club_play_behind_one_address(clock: FakeClock) -> None:
    """Forty players arrive at once (each first request without a cookie), then each asks every two seconds
    for ten minutes, a page's burst of five requests every minute: nobody is refused."""
    buckets = Buckets(clock)
    for _ in range(40):
        assert buckets.take("address", ADDRESS_RATE) == 0.0
        assert buckets.take("new", NEW_DEVICE_RATE) == 0.0
    for tick in range(10 * 60 * 10):  # tenths of a second
        clock.now += 0.1
        for player in range(tick % 20, 40, 20):  # two players every tenth: each every two seconds
            for _ in range(5 if tick % 600 == player else 1):
                assert buckets.take("address", ADDRESS_RATE) == 0.0
                assert buckets.take(f"device {player}", PLAYER_RATE) == 0.0


# -- the buckets shared in Redis ----------------------------------------------------------------------------

REDIS_URL = "redis://127.0.0.1:6379/0"


def shared_buckets() -> SharedBuckets:
    """Buckets in the real Redis, under a prefix of this test's own."""
    return SharedBuckets(REDIS_URL, prefix=f"hotdice-test:{secrets.token_hex(8)}:")


async def _takes(buckets: BucketStore) -> list[tuple[int, float] | None]:
    """One sequence of requests, each counted against the buckets it names."""
    slow, fresh = Rate(per_second=0.5, burst=5), Rate(per_second=1, burst=1)
    asked = [[("k", slow)]] * 6  # the burst, then one too many
    asked += [[("other", slow)]]  # each key its own bucket
    asked += [[("k", slow), ("fresh", fresh)]]  # refused at the first: the second is not charged
    asked += [[("fresh", fresh)], [("other", slow), ("fresh", fresh)]]  # its one token, then none
    found = [await buckets.first_wait(limits) for limits in asked]
    await buckets.close()
    return found


@pytest.mark.parametrize("make", [Buckets, shared_buckets], ids=["memory", "redis"])
def test_the_buckets_give_their_burst_then_say_how_long_to_wait_in_memory_as_in_redis(
    make: Callable[[], BucketStore],
) -> None:
    found = asyncio.run(_takes(make()))
    assert [None if f is None else f[0] for f in found] == [None] * 5 + [0, None, 0, None, 1]
    waits = [f[1] for f in found if f is not None]
    # an empty bucket of 0.5/s has its next token in 2 s, one of 1/s in 1 s (less the moments gone by)
    # (the bound below leaves a loaded machine half a second for the takes before them)
    assert 1.5 < waits[0] <= 2.0 and 1.5 < waits[1] <= 2.0
    assert 0.5 < waits[2] <= 1.0


@pytest.mark.slow
def test_buckets_in_redis_are_shared_and_forgotten_once_full_again() -> None:
    async def run() -> tuple[list[tuple[int, float] | None], int]:
        one, two = shared_buckets(), shared_buckets()
        two._prefix = one._prefix  # two processes on one Redis
        await one._client.ping()  # both connected before the clock matters
        await two._client.ping()
        rate = Rate(per_second=4, burst=4)  # a token back every 250 ms: the six takes come well within it
        found = [await (one, two)[i % 2].first_wait([("k", rate)]) for i in range(6)]
        await asyncio.sleep(1.2)  # full again after 4/4 s: the key expires 1 s after it is full
        found.append(await one.first_wait([("k", rate)]))
        await asyncio.sleep(1.6)  # one token short: full 250 ms after the last take, gone 1 s later
        left = await one._client.exists(one._prefix + "k")
        await one.close()
        await two.close()
        return found, left

    found, left = asyncio.run(run())
    assert [None if f is None else f[0] for f in found] == [None] * 4 + [0, 0, None]
    assert left == 0


def test_unreachable_redis_lets_requests_through_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> list[tuple[int, float] | None]:
        buckets = SharedBuckets("redis://127.0.0.1:1/0")  # nothing listens on port 1
        found = [await buckets.first_wait([("k", Rate(per_second=1, burst=1))]) for _ in range(3)]
        await buckets.close()
        return found

    with caplog.at_level(logging.WARNING, logger="hotdice.web.limits"):
        assert asyncio.run(run()) == [None, None, None]
    warned = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert len(warned) == 1


# -- the settings ---------------------------------------------------------------------------------------


def test_the_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOTDICE_RATE_PLAYER", "3/s burst 9")
    monkeypatch.setenv("HOTDICE_RATE_ADDRESS", "off")
    monkeypatch.setenv("HOTDICE_RATE_NEW_DEVICE", "0.5 / s  burst 4")
    monkeypatch.setenv("HOTDICE_MAX_BODY", "2048")
    found = Settings.from_env()
    assert (found.player_rate, found.address_rate, found.new_device_rate, found.max_body) == (
        Rate(3, 9), None, Rate(0.5, 4), 2048)
    monkeypatch.setenv("HOTDICE_RATE_LIMITS", "off")
    off = Settings.from_env()
    assert (off.player_rate, off.address_rate, off.new_device_rate, off.max_body) == (None, None, None, 2048)
    for name in ("HOTDICE_RATE_LIMITS", "HOTDICE_RATE_PLAYER", "HOTDICE_RATE_ADDRESS", "HOTDICE_RATE_NEW_DEVICE",
                 "HOTDICE_MAX_BODY"):
        monkeypatch.delenv(name)
    default = Settings.from_env()
    assert (default.player_rate, default.address_rate, default.new_device_rate, default.max_body) == (
        PLAYER_RATE, ADDRESS_RATE, NEW_DEVICE_RATE, MAX_BODY)


@pytest.mark.parametrize("text", ["5/s", "5 per second burst 3", "0/s burst 3", "5/s burst 0", "fast", "-1/s burst 2"])
def test_a_bad_rate_is_refused_with_the_form_it_should_have(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOTDICE_RATE_PLAYER", text)
    with pytest.raises(ValueError, match="reads like '5/s burst 40' or 'off'"):
        Settings.from_env()


def test_a_bad_body_size_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOTDICE_MAX_BODY", "16k")
    with pytest.raises(ValueError, match="number of bytes"):
        Settings.from_env()


# -- rates over HTTP ------------------------------------------------------------------------------------


def test_a_device_past_its_burst_gets_429_with_retry_after_and_a_reason(tmp_path: Path) -> None:
    rate = Rate(per_second=0.5, burst=6)
    alice = device(make_app(tmp_path, player_rate=rate))
    started = time.monotonic()
    answered, refused = until_refused(lambda: alice.get("/api/me"))
    elapsed = time.monotonic() - started
    assert answered == rate.burst  # the cookieless first request counted as a new device, not as hers
    seconds = int(refused.headers["retry-after"])
    assert refused.json() == {"detail": f"too many requests from this device: try again in {seconds} s",
                              "code": "rate-limited", "limit": "device",
                              "message": {"key": "error.rate_device", "values": {"seconds": seconds}}}  # for a page
    # the bucket was empty; at most `elapsed` seconds refilled it: one token is (1 - refilled) / rate away
    lowest, highest = (1 - elapsed * rate.per_second) / rate.per_second, 1 / rate.per_second
    assert math.ceil(lowest) <= int(refused.headers["retry-after"]) <= math.ceil(highest)


@pytest.mark.slow
def test_after_retry_after_seconds_the_device_is_answered_again(tmp_path: Path) -> None:
    alice = device(make_app(tmp_path, player_rate=Rate(per_second=2, burst=3)))
    _, refused = until_refused(lambda: alice.get("/api/me"))
    wait = int(refused.headers["retry-after"])
    assert wait == 1  # half a second to a token, rounded up
    time.sleep(wait)
    assert alice.get("/api/me").status_code == 200


def test_one_device_going_too_fast_does_not_stop_another_at_its_address(tmp_path: Path) -> None:
    app = make_app(tmp_path, player_rate=Rate(per_second=0.5, burst=4))
    alice, bob = device(app), device(app)
    until_refused(lambda: alice.get("/api/me"))
    assert bob.get("/api/me").status_code == 200
    assert alice.post("/api/games", json={"mode": "solo"}).status_code == 429


def test_an_address_is_limited_across_its_devices_and_others_are_not(tmp_path: Path) -> None:
    rate = Rate(per_second=0.01, burst=8)  # no refill while the test runs, however loaded the machine
    app = make_app(tmp_path, address_rate=rate)
    alice, bob = device(app), device(app)  # two requests of the address's burst
    for _ in range(3):
        assert alice.get("/api/me").status_code == 200
        assert bob.get("/api/me").status_code == 200
    refused = alice.get("/api/me")
    assert refused.status_code == 429 and refused.json()["limit"] == "address"
    assert "too many requests from this address" in refused.json()["detail"]
    assert bob.get("/api/me").status_code == 429
    assert device(app, address="198.51.100.9").get("/api/me").status_code == 200


def test_requests_without_a_device_cookie_are_limited_per_address(tmp_path: Path) -> None:
    """A script that drops its cookie would make a new player at each request."""
    app = make_app(tmp_path, new_device_rate=Rate(per_second=0.01, burst=5))  # no refill while it runs, however slow
    alice = device(app)  # one of the address's five cookieless requests
    script = TestClient(app, client=("203.0.113.7", 50001))

    def cookieless() -> httpx.Response:
        script.cookies.clear()
        return script.post("/api/games", json={"mode": "solo"})

    answered, refused = until_refused(cookieless)
    assert answered == 4
    assert refused.json()["limit"] == "new-device" and "without a device cookie" in refused.json()["detail"]
    assert alice.get("/api/me").status_code == 200  # she has her cookie
    elsewhere = TestClient(app, client=("198.51.100.9", 50000))
    assert elsewhere.get("/api/me").status_code == 200


def test_a_page_past_the_limit_is_a_readable_page(tmp_path: Path) -> None:
    alice = device(make_app(tmp_path, player_rate=Rate(per_second=0.5, burst=2)))
    _, refused = until_refused(lambda: alice.get("/rules"))
    assert refused.headers["content-type"].startswith("text/html")
    assert "<html" in refused.text and "too many requests from this device" in refused.text
    assert int(refused.headers["retry-after"]) >= 1
    alice.cookies.set("hotdice_lang", "fr")  # the same refusal on a French page, in French
    french = alice.get("/rules")
    assert french.status_code == 429 and "trop de requêtes depuis cet appareil\u00a0: réessayez dans" in french.text


def test_static_files_and_the_health_check_are_not_counted(tmp_path: Path) -> None:
    slow = Rate(per_second=0.01, burst=3)
    app = make_app(tmp_path, player_rate=slow, address_rate=slow, new_device_rate=slow)
    alice = device(app)
    balancer = TestClient(app, client=("203.0.113.7", 50001))  # no cookie: the load balancer's checks
    for _ in range(10):
        assert alice.get("/static/hd.js").status_code == 200
        assert balancer.get("/healthz").status_code != 429
        balancer.cookies.clear()
    assert [alice.get("/api/me").status_code for _ in range(3)] == [200, 200, 429]  # the address's 3 (1 made her)


def test_a_websocket_past_the_limit_is_closed_before_it_opens(tmp_path: Path) -> None:
    alice = device(make_app(tmp_path, player_rate=Rate(per_second=0.5, burst=2)))
    until_refused(lambda: alice.get("/api/me"))
    with pytest.raises(WebSocketDisconnect) as closed, alice.websocket_connect("/ws/games/abc") as socket:
        told = socket.receive_json()  # why, for the screen to word in its language; then the close
        socket.receive_json()
    assert closed.value.code == 1008
    assert told["type"] == "refused" and told["code"] == "rate-limited" and told["limit"] == "device"
    assert french_of(told).startswith("trop de requêtes depuis cet appareil\u00a0: réessayez dans")


@pytest.mark.slow
def test_a_websocket_past_the_limit_on_a_real_server_is_told_1008_and_why(tmp_path: Path) -> None:
    """Closed during the handshake, uvicorn answered it 403: the screen saw a failed connection, no code."""
    env = server_env(f"sqlite:///{tmp_path / 'limits.sqlite3'}", tmp_path, HOTDICE_RATE_LIMITS="",
                     HOTDICE_RATE_NEW_DEVICE="0.01/s burst 2")
    server = start_server(env)
    try:
        until_refused(lambda: httpx.get(f"{server.url}/api/rules"), most=10)  # no cookie: the address's new devices
        with pytest.raises(ConnectionClosed) as closed, connect(f"ws://{HOST}:{server.port}/ws/games/abc") as socket:
            assert '"type": "refused"' in str(socket.recv(timeout=30))
            socket.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "too many requests" in closed.value.rcvd.reason
    finally:
        server.stop()


@pytest.mark.slow
def test_the_limits_can_be_turned_off(tmp_path: Path) -> None:
    alice = device(create_app(Settings(data_dir=tmp_path).unlimited()))
    assert all(alice.get("/api/me").status_code == 200 for _ in range(PLAYER_RATE.burst + 20))


# -- sizes ----------------------------------------------------------------------------------------------


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[TestClient]:
    """The default sizes, rates off."""
    with TestClient(create_app(Settings(data_dir=tmp_path).unlimited())) as client:
        yield client


def test_a_big_body_gets_413_with_a_reason_before_it_is_parsed(guarded: TestClient) -> None:
    for body in (b'{"mode": "solo", "names": ["' + b"x" * MAX_BODY + b'"]}', b"[" * (10 * MAX_BODY)):
        refused = guarded.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert refused.status_code == 413
        assert refused.json() == {"detail": f"the request body is larger than {MAX_BODY} bytes", "code": "too-large",
                                  "message": {"key": "error.too_large_body", "values": {"max": MAX_BODY}}}
        assert french_of(refused.json()) == f"le corps de la requête dépasse {MAX_BODY} octets"


def test_a_big_body_without_a_length_gets_413(guarded: TestClient) -> None:
    chunks = (b"x" * 1024 for _ in range(MAX_BODY // 1024 + 1))
    refused = guarded.post("/api/games", content=chunks, headers={"content-type": "application/json"})
    assert "content-length" not in refused.request.headers
    assert refused.status_code == 413 and refused.json()["code"] == "too-large"


def test_a_body_just_under_the_cap_reaches_the_app(guarded: TestClient) -> None:
    body = b'{"mode": "solo"}' + b" " * (MAX_BODY - 16)
    assert len(body) == MAX_BODY
    made = guarded.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert made.status_code == 201, made.text


def test_a_long_address_or_big_headers_are_refused(guarded: TestClient) -> None:
    long = guarded.get("/api/rules", params={"text": "x" * MAX_TARGET})
    assert long.status_code == 414 and long.json()["code"] == "too-large"
    big = guarded.get("/api/me", headers={"x-padding": "x" * MAX_HEADERS})
    assert big.status_code == 431 and big.json()["code"] == "too-large"
    assert long.json()["detail"] == f"the address is longer than {MAX_TARGET} bytes"
    assert big.json()["detail"] == f"the headers are longer than {MAX_HEADERS} bytes"
    assert french_of(long.json()) == f"l’adresse dépasse {MAX_TARGET} octets"
    assert french_of(big.json()) == f"les en-têtes dépassent {MAX_HEADERS} octets"


@pytest.mark.parametrize("lang", ["cookie", "accept-language"])
def test_a_french_page_refused_by_a_guard_is_in_french(guarded: TestClient, lang: str) -> None:
    """Refused before the app chose the page's language, the page is still in the language the app would choose."""
    headers = {"x-padding": "x" * (MAX_HEADERS // 2)}
    if lang == "cookie":
        guarded.cookies.set("hotdice_lang", "fr")
    else:
        headers["accept-language"] = "fr-FR,fr;q=0.9"
    big = guarded.get("/rules", headers={**headers, "x-more": "x" * (MAX_HEADERS // 2)})
    assert big.status_code == 431 and big.headers["content-type"].startswith("text/html")
    assert f"les en-têtes dépassent {MAX_HEADERS} octets" in big.text, big.text
    assert not english_left(big.text)
    french = {key: value for key, value in headers.items() if key == "accept-language"}
    invalid = guarded.get("/lang/fr", params={"next": "/" * 601}, headers=french)  # pydantic's reason: English only
    assert invalid.status_code == 422 and "valeur refusée pour le champ next" in invalid.text
    assert "String should have at most 600 characters" not in invalid.text


def test_a_bad_content_length_is_a_400(tmp_path: Path) -> None:
    """httpx will not send one; the app is called as a server would call it."""
    app = create_app(Settings(data_dir=tmp_path).unlimited())
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/me", "raw_path": b"/api/me", "query_string": b"", "root_path": "",
             "headers": [(b"content-length", b"12abc"), (b"content-type", b"application/json")],
             "client": ("203.0.113.7", 1), "server": ("testserver", 80)}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert b"Content-Length" in sent[1]["body"]  # type: ignore[operator]


@pytest.mark.parametrize(("path", "params"), [
    ("/api/rules", {"text": "x" * 601}),
    ("/api/training/question", {"rules": "x" * 601}),
    ("/api/training/drill", {"rules": "x" * 601}),
    ("/api/challenges/" + "x" * 41, {}),
    ("/api/tables/" + "x" * 41, {}),
])
def test_long_parameters_are_refused_with_a_reason(guarded: TestClient, path: str, params: dict[str, str]) -> None:
    refused = guarded.get(path, params=params)
    assert refused.status_code == 422 and refused.json()["code"] == "invalid"
    assert "at most" in refused.json()["detail"]
    said = refused.json()["message"]  # a page words which field, in its language
    assert said["key"] == "error.invalid_field" and said["values"]["field"] in (*params, "code", "game_id"), said
    assert french_of(refused.json()) == f"valeur refusée pour le champ {said['values']['field']}"


@pytest.mark.parametrize("path", ["/c/" + "x" * 41, "/t/" + "x" * 41, "/c/" + "x" * 41 + "/results",
                                  "/play/" + "x" * MAX_TARGET, "/c/" + "x" * MAX_TARGET, "/" + "x" * 20_000])
def test_a_page_address_too_long_to_name_anything_is_a_plain_not_found_page(guarded: TestClient, path: str) -> None:
    """Not a 414, nor the validator's words: the site's page saying there is nothing at that address."""
    refused = guarded.get(path)
    assert refused.status_code == 404 and refused.headers["content-type"].startswith("text/html")
    assert "nothing here: check the address" in refused.text and 'href="/static/hotdice.css?v=' in refused.text


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), [
    ("HOTDICE_RATE_ADDRESS", "lots"), ("HOTDICE_MAX_BODY", "16k"), ("HOTDICE_HEAD_TIMEOUT", "5s"),
    ("HOTDICE_HEAD_TIMEOUT", "0"), ("HOTDICE_CONNECTIONS_PER_ADDRESS", "-1"),
    ("HOTDICE_WEBSOCKETS_PER_ADDRESS", "many"),
])
def test_serve_with_a_bad_limit_says_so_in_one_line(name: str, value: str, tmp_path: Path) -> None:
    env = {**os.environ, "HOTDICE_DATA_DIR": str(tmp_path), name: value}
    done = subprocess.run([sys.executable, "-m", "hotdice.cli", "serve", "--port", str(free_port())], env=env,
                          capture_output=True, text=True, timeout=UP_WITHIN, check=False)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert repr(value) in done.stderr and "Traceback" not in done.stderr
