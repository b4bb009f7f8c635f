"""Devices are the server's: a device cookie is a token the server made and signed (HMAC under its device key).

A made-up, forged or foreign cookie is not a device: it makes no player, the request counts as a new device's
(the new-device limit), and the answer gives it a device of the server's. A cookie from before signing whose
device has played keeps its player. Two processes accepting each other's cookies: tests/web/test_web_processes.py.
"""

from __future__ import annotations

import hashlib
import secrets
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from hotdice.store.web_models import WebPlayer
from hotdice.web import Settings, create_app
from hotdice.web.services.players import COOKIE
from hotdice.web.settings import DEVICE_KEY_ENV, Rate
from tests.web_servers import free_port

NEW_DEVICES = Rate(per_second=0.01, burst=5)  # no refill during a test


def make_app(data_dir: Path, device_key: bytes | None = None) -> FastAPI:
    """The app with the new-device limit only (at ``NEW_DEVICES``), on SQLite in ``data_dir``."""
    settings = Settings(data_dir=data_dir, device_key=device_key).unlimited()
    return create_app(replace(settings, new_device_rate=NEW_DEVICES))


def token_hashes(app: FastAPI) -> set[str]:
    with app.state.db.session() as session:
        return set(session.scalars(select(WebPlayer.token_hash)))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def made_up() -> str:
    """A token of the shape the server made before signing: 43 url-safe characters."""
    return secrets.token_urlsafe(32)


def ask_as(client: TestClient, cookie: str, path: str = "/api/me") -> httpx.Response:
    """GET ``path`` with this device cookie only (as bytes: a forger's need not be ASCII)."""
    client.cookies.clear()
    answer: httpx.Response = client.get(path, headers={"cookie": f"{COOKIE}={cookie}".encode("latin-1")})
    return answer


def test_a_made_up_token_per_request_makes_no_player_and_counts_as_a_new_device(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    script = TestClient(app, client=("203.0.113.7", 50000))
    forged = [made_up() for _ in range(20)]
    answers = [ask_as(script, token) for token in forged]  # GET /api/me makes the device's player
    codes = [answer.status_code for answer in answers]
    assert codes == [200] * NEW_DEVICES.burst + [429] * (len(forged) - NEW_DEVICES.burst)
    assert answers[-1].json()["limit"] == "new-device"
    assert "without a device cookie this server gave" in answers[-1].json()["detail"]
    made = token_hashes(app)
    assert not made & {sha256(token) for token in forged}  # no player is any made-up token's
    assert len(made) == NEW_DEVICES.burst  # the players of the devices the server gave instead
    given = [answer.cookies[COOKIE] for answer in answers[: NEW_DEVICES.burst]]
    assert len(set(given)) == NEW_DEVICES.burst and not set(given) & set(forged)


def test_a_forged_signature_is_replaced_by_a_new_device(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    alice = TestClient(app)
    assert alice.get("/api/me").status_code == 200
    cookie = alice.cookies[COOKIE]
    token, mac = cookie.split(".")
    wrong = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    forgeries = (f"{token}.{wrong}", f"{made_up()}.{mac}", f"{token}.", f"{token}.{mac}.{mac}", f"{token}.é{mac}")
    for address, forged in enumerate(forgeries):  # an address each: each is a new device, under its limit
        answer = ask_as(TestClient(app, client=(f"203.0.113.{address}", 50000)), forged)
        assert answer.status_code == 200, forged
        assert answer.cookies[COOKIE] not in (cookie, forged)
        assert app.state.devices.token(answer.cookies[COOKIE]) != token  # not Alice, whatever the forger used
    assert ask_as(TestClient(app), cookie).cookies.get(COOKIE) is None  # the genuine one is kept as it is


def test_a_token_signed_by_another_server_is_refused(tmp_path: Path) -> None:
    ours, theirs = make_app(tmp_path / "ours"), make_app(tmp_path / "theirs")
    visitor = TestClient(theirs)
    assert visitor.get("/api/me").status_code == 200
    foreign = visitor.cookies[COOKIE]
    answer = ask_as(TestClient(ours), foreign)
    assert answer.status_code == 200 and answer.cookies[COOKIE] != foreign
    assert ours.state.devices.token(foreign) is None
    assert sha256(foreign.split(".")[0]) not in token_hashes(ours)


def test_servers_given_one_device_key_accept_each_others_devices(tmp_path: Path) -> None:
    key = secrets.token_urlsafe(32).encode()
    one, other = make_app(tmp_path / "one", device_key=key), make_app(tmp_path / "other", device_key=key)
    visitor = TestClient(one)
    assert visitor.get("/api/me").status_code == 200
    assert ask_as(TestClient(other), visitor.cookies[COOKIE]).cookies.get(COOKIE) is None  # kept: a device there


def test_a_cookie_from_before_signing_keeps_its_player_its_games_and_its_daily_attempt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    alice = TestClient(app)
    attempt = alice.post("/api/daily").json()
    assert attempt["official"] is True
    signed = alice.cookies[COOKIE]
    unsigned = signed.split(".")[0]  # the cookie she held before signing: her player's row is its hash
    returning = TestClient(app)
    upgraded = ask_as(returning, unsigned, "/api/daily")
    assert upgraded.cookies[COOKIE] == signed  # her token, signed from now on
    assert returning.post("/api/daily").json() == attempt  # the same attempt, still the official one
    assert returning.get(f"/api/games/{attempt['id']}").json()["you"] != []  # hers to play
    assert len(token_hashes(app)) == 1


def test_a_cookie_from_before_signing_without_a_player_is_a_new_device(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    old = made_up()
    answer = ask_as(TestClient(app), old)
    assert answer.cookies[COOKIE].split(".")[0] != old
    assert token_hashes(app) == {sha256(answer.cookies[COOKIE].split(".")[0])}


@pytest.mark.slow
def test_a_short_device_key_is_refused_with_its_length(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DEVICE_KEY_ENV, "k" * 32)
    assert Settings.from_env().device_key == b"k" * 32
    env = {"HOTDICE_DATA_DIR": str(tmp_path), DEVICE_KEY_ENV: "too short", "PATH": "/usr/bin:/bin"}
    served = subprocess.run([sys.executable, "-m", "hotdice.cli", "serve", "--port", str(free_port())],
                            capture_output=True, text=True, env=env, timeout=60)
    assert served.returncode == 2
    assert served.stderr == f"hotdice: error: {DEVICE_KEY_ENV} has at least 32 characters (it has 9)\n"
