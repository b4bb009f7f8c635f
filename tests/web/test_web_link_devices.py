"""One player on several devices, over HTTP on a real database (SQLite and PostgreSQL): a link code makes another
browser the same player (name, statistics, streak, games); it works once, expires, is refused once its device is
signed out, is rate-limited per address and per device and never reaches the logs; the device list and signing
out, in this process and in another server process on the same file."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from hotdice.store.web_models import WebDevice, WebLink, WebPlayer
from hotdice.web import Settings, create_app
from hotdice.web.services import devices
from hotdice.web.services.devices import LINK_MINUTES, LIVE_LINKS, browser
from hotdice.web.services.players import COOKIE
from hotdice.web.settings import Rate
from tests.web.come_back import KEY
from tests.web.test_web_api import new_game, play_out
from tests.web_servers import server_env, start_server
from tests.web_support import next_intent

FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
SAFARI_IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "Version/17.0 Mobile/15E148 Safari/604.1")


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=KEY).unlimited())
    yield web
    web.state.clock.shift = timedelta(0)
    web.state.db.close()


def player_with_a_game(app: FastAPI, name: str = "Ann") -> tuple[TestClient, dict[str, object]]:
    ann = TestClient(app, headers={"user-agent": FIREFOX_LINUX})
    ann.post("/api/me", json={"name": name})
    game = play_out(ann, new_game(ann, mode="versus", level="easy"))
    return ann, game


def make_code(client: TestClient) -> str:
    made = client.post("/api/me/links")
    assert made.status_code == 201, made.text
    return str(made.json()["code"])


def cookie_of(answer: httpx.Response) -> str:
    found = [c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{COOKIE}=")]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.slow
def test_a_claimed_code_makes_the_other_browser_the_same_player(app: FastAPI) -> None:
    ann, game = player_with_a_game(app)
    made = ann.post("/api/me/links").json()
    code = made["code"]
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", code)  # 16 base32 characters: 80 bits
    assert made["url"].endswith(f"/link#{code}")  # the code after "#": never sent in an address
    assert len(made["qr"]) == len(made["qr"][0]) >= 21 and set("".join(made["qr"])) == {"0", "1"}
    left = app.state.clock.now() + timedelta(minutes=LINK_MINUTES)
    assert abs(_seconds(made["expires_at"]) - left.timestamp()) < 5
    phone = TestClient(app, headers={"user-agent": SAFARI_IPHONE})
    phone.get("/")  # a browser of its own, that has not played
    before = phone.cookies[COOKIE]
    claimed = phone.post(f"/api/me/links/{code.lower().replace('-', ' ')}/claim")  # as typed: any case, spaces
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["name"] == "Ann"
    cookie = cookie_of(claimed)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    assert phone.cookies[COOKIE] != before
    assert phone.get("/api/me").json()["name"] == "Ann"
    mine, theirs = ann.get("/api/me/games").json(), phone.get("/api/me/games").json()
    assert mine == theirs and mine["finished"][0]["id"] == game["id"]
    assert phone.get("/api/stats").json() == ann.get("/api/stats").json()
    listed = phone.get("/api/me/devices").json()["devices"]
    assert [(d["browser"], d["system"], d["current"]) for d in listed] == [
        ("Mobile Safari", "iOS", True), ("Firefox", "Linux", False)]
    assert [d["id"] for d in ann.get("/api/me/devices").json()["devices"]] == [listed[1]["id"], listed[0]["id"]]
    assert "Safari" in phone.get("/devices").text


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_the_claimed_cookie_has_the_flags_of_every_device_cookie(app: FastAPI, scheme: str) -> None:
    """The new device's cookie is the first visit's but for its token: HttpOnly, SameSite=Lax, ten years, and
    Secure over HTTPS only."""
    ann, _ = player_with_a_game(app)
    phone = TestClient(app, base_url=f"{scheme}://testserver")
    first = cookie_of(phone.get("/"))
    claimed = cookie_of(phone.post(f"/api/me/links/{make_code(ann)}/claim"))
    flags = [part.split(";")[1:] for part in (first, claimed)]
    assert flags[0] == flags[1]
    assert ("Secure" in claimed) == (scheme == "https") and "HttpOnly" in claimed


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@pytest.mark.slow
def test_a_code_works_once_and_is_stored_only_as_its_hash(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    code = make_code(ann)
    first, second = TestClient(app), TestClient(app)
    claimed = first.post(f"/api/me/links/{code}/claim")  # its first request: no cookie before, one in the answer
    assert claimed.status_code == 200 and cookie_of(claimed)
    assert first.get("/api/me").json()["name"] == "Ann"
    again = second.post(f"/api/me/links/{code}/claim")
    assert again.status_code == 410 and again.json()["message"]["key"] == "error.link_used"
    assert second.get("/api/me").json()["name"] == ""
    with app.state.db.session() as session:
        (row,) = session.scalars(select(WebLink))
        assert row.code_hash == hashlib.sha256(code.replace("-", "").encode()).hexdigest()
        assert code.replace("-", "") not in repr([row.code_hash, row.player_id, row.device_id])


@pytest.mark.slow
def test_a_code_expires_after_ten_minutes(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    late, in_time = make_code(ann), make_code(ann)
    clock = app.state.clock
    clock.move_to(clock.now() + timedelta(minutes=LINK_MINUTES, seconds=-5))
    assert TestClient(app).post(f"/api/me/links/{in_time}/claim").status_code == 200
    clock.move_to(clock.now() + timedelta(seconds=10))
    expired = TestClient(app).post(f"/api/me/links/{late}/claim")
    assert expired.status_code == 410 and expired.json()["message"]["key"] == "error.link_expired"


def test_a_code_of_a_signed_out_device_is_refused(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    tablet = TestClient(app)
    tablet.post(f"/api/me/links/{make_code(ann)}/claim")
    code = make_code(tablet)  # the tablet makes a code, then is signed out from Ann's first browser
    (tablet_entry,) = [d for d in ann.get("/api/me/devices").json()["devices"] if not d["current"]]
    assert ann.delete(f"/api/me/devices/{tablet_entry['id']}").status_code == 204
    refused = TestClient(app).post(f"/api/me/links/{code}/claim")
    assert refused.status_code == 410 and refused.json()["message"]["key"] == "error.link_signed_out"


@pytest.mark.slow
def test_unknown_malformed_and_own_codes_are_refused_with_why(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    stranger = TestClient(app)
    tries = (("AAAA-AAAA-AAAA-AAAA", 404), ("not a code", 404), ("x" * 41, 422), ("1111-1111-1111-1111", 404))
    for bad, status in tries:
        answer = stranger.post(f"/api/me/links/{bad}/claim")
        assert answer.status_code == status, (bad, answer.text)
        assert answer.json()["detail"]
    own = ann.post(f"/api/me/links/{make_code(ann)}/claim")
    assert own.status_code == 409 and own.json()["message"]["key"] == "error.link_same_player"
    nobody = stranger.post("/api/me/links")
    assert nobody.status_code == 403 and nobody.json()["message"]["key"] == "error.link_no_player"


def test_a_code_typed_with_digits_for_its_lookalike_letters_works(app: FastAPI,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Base32 has no 0, 1 or 8: someone copying a code by hand may type them for O, I and B."""
    chosen = base64.b32decode("OIBOIBOIBOIBOIBA")
    monkeypatch.setattr(devices, "secrets", SimpleNamespace(token_bytes=lambda n: chosen, token_hex=secrets.token_hex))
    ann, _ = player_with_a_game(app)
    code = make_code(ann)
    assert code == "OIBO-IBOI-BOIB-OIBA"
    typed = code.translate(str.maketrans("OIB", "018")).lower()
    claimed = TestClient(app).post(f"/api/me/links/{typed}/claim")
    assert claimed.status_code == 200 and claimed.json()["name"] == "Ann"


@pytest.mark.slow
def test_a_player_has_at_most_five_live_codes(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    codes = [make_code(ann) for _ in range(LIVE_LINKS)]
    assert len(set(codes)) == LIVE_LINKS
    refused = ann.post("/api/me/links")
    assert refused.status_code == 429 and refused.json()["message"]["key"] == "error.link_too_many"
    assert 0 < int(refused.headers["retry-after"]) <= LINK_MINUTES * 60 + 1
    TestClient(app).post(f"/api/me/links/{codes[0]}/claim")  # one used: room for one more
    assert ann.post("/api/me/links").status_code == 201


@pytest.mark.slow
def test_claims_are_rate_limited_per_address_and_per_device(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, daily_key=KEY).unlimited()
    web = create_app(Settings(**{**settings.__dict__, "link_claim_rate": Rate(1 / 60, 3)}))
    try:
        guesser = TestClient(web)
        guesser.get("/")
        answers = [guesser.post(f"/api/me/links/AAAA-AAAA-AAAA-AAA{c}/claim").status_code for c in "ABCD"]
        assert answers == [404, 404, 404, 429]
        moved = TestClient(web, client=("198.51.100.7", 5000), cookies=dict(guesser.cookies))
        again = moved.post("/api/me/links/AAAA-AAAA-AAAA-AAAE/claim")  # the same device from another address
        assert again.status_code == 429 and again.json()["limit"] == "link-claim"
        ann, _ = player_with_a_game(web)
        code = make_code(ann)
        limited = TestClient(web).post(f"/api/me/links/{code}/claim")  # the same address: its claims are used up
        assert limited.status_code == 429 and limited.json()["limit"] == "link-claim"
        assert int(limited.headers["retry-after"]) > 0
        elsewhere = TestClient(web, client=("203.0.113.9", 5000))
        assert elsewhere.post(f"/api/me/links/{code}/claim").status_code == 200  # another address: the code works
    finally:
        web.state.db.close()


@pytest.mark.slow
def test_codes_and_tokens_never_reach_the_logs(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    ann, _ = player_with_a_game(app)
    with caplog.at_level(logging.DEBUG):
        code = make_code(ann)
        phone = TestClient(app)
        phone.post(f"/api/me/links/{code}/claim")
        phone.post(f"/api/me/links/{code}/claim")  # refused: logged too
    # The server's records (the test's own HTTP client logs its addresses: it is the browser's side).
    said = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records if not r.name.startswith("httpx"))
    assert "/api/me/links/{code}/claim" in said  # the route's template, not its address
    for secret in (code, code.replace("-", ""), phone.cookies[COOKIE], phone.cookies[COOKIE].split(".")[0]):
        assert secret not in said


@pytest.mark.slow
def test_signing_out_a_device_ends_its_access_at_once(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    phone = TestClient(app)
    phone.post(f"/api/me/links/{make_code(ann)}/claim")
    game = new_game(phone, mode="solo")  # the phone plays a game of Ann's, its moves remembered by the process
    assert phone.post(f"/api/games/{game['id']}/act", json={"n": game["n"], **next_intent(game)}).status_code == 200
    (entry,) = [d for d in ann.get("/api/me/devices").json()["devices"] if not d["current"]]
    assert ann.delete(f"/api/me/devices/{entry['id']}").status_code == 204
    assert phone.get("/api/me").json()["name"] == ""  # a new player from its next request
    assert phone.get("/api/me/games").json()["in_progress"] == []
    view = phone.get(f"/api/games/{game['id']}").json()
    moved = phone.post(f"/api/games/{game['id']}/act", json={"n": view["n"], **next_intent(view)})
    assert moved.status_code == 403
    assert [d["current"] for d in ann.get("/api/me/devices").json()["devices"]] == [True]
    gone = ann.delete(f"/api/me/devices/{entry['id']}")
    assert gone.status_code == 404 and gone.json()["message"]["key"] == "error.no_device"
    assert phone.delete(f"/api/me/devices/{entry['id']}").status_code == 404  # nobody's device to the stranger
    assert ann.delete("/api/me/devices/nope").status_code == 422


@pytest.mark.slow
def test_signing_out_the_first_device_of_a_player_frees_its_browser(app: FastAPI) -> None:
    """The device that made the player: its token was the player's own too; its browser starts again."""
    ann, _ = player_with_a_game(app)
    phone = TestClient(app)
    phone.post(f"/api/me/links/{make_code(ann)}/claim")
    (first,) = [d for d in phone.get("/api/me/devices").json()["devices"] if not d["current"]]
    assert phone.delete(f"/api/me/devices/{first['id']}").status_code == 204
    assert ann.get("/api/me").json()["name"] == ""
    assert ann.post("/api/me", json={"name": "Someone else"}).status_code == 200
    assert phone.get("/api/me").json()["name"] == "Ann"
    with app.state.db.session() as session:
        assert session.scalar(select(WebPlayer.name).join(WebDevice).where(
            WebDevice.id == first["id"])) == "Ann"  # the row stays, signed out, its token named nobody


@pytest.mark.slow
def test_a_sign_out_through_another_process_is_seen_within_a_poll(tmp_path: Path) -> None:
    """Two server processes on one SQLite file: the phone's moves go through the second, which remembers its
    player; signed out through the first, the phone is refused by the second at once (within 0.2 s)."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first = start_server(server_env(url, tmp_path, HOTDICE_RATE_LIMITS="off"))
    second = start_server(server_env(url, tmp_path, HOTDICE_RATE_LIMITS="off"))
    try:
        ann = httpx.Client(base_url=first.url, timeout=30)
        ann.post("/api/me", json={"name": "Ann"})
        ann.post("/api/games", json={"mode": "solo"})
        code = ann.post("/api/me/links").json()["code"]
        phone = httpx.Client(base_url=second.url, timeout=30)
        assert phone.post(f"/api/me/links/{code}/claim").status_code == 200
        for _ in range(3):
            assert phone.get("/api/me").json()["name"] == "Ann"
        (entry,) = [d for d in ann.get("/api/me/devices").json()["devices"] if not d["current"]]
        assert ann.delete(f"/api/me/devices/{entry['id']}").status_code == 204
        time.sleep(0.25)
        assert phone.get("/api/me").json()["name"] == ""
    finally:
        first.stop()
        second.stop()


def test_the_browser_is_said_from_the_user_agent() -> None:
    assert (browser(FIREFOX_LINUX).browser, browser(FIREFOX_LINUX).system) == ("Firefox", "Linux")
    assert (browser(SAFARI_IPHONE).browser, browser(SAFARI_IPHONE).system) == ("Mobile Safari", "iOS")
    assert (browser("").browser, browser("").system) == ("", "")  # nothing said: shown as an unknown browser


def test_the_pages_in_both_languages(app: FastAPI) -> None:
    ann, _ = player_with_a_game(app)
    assert "Use on another device" in ann.get("/devices").text
    ann.cookies.set("hotdice_lang", "fr")
    page = ann.get("/devices").text
    assert "Utiliser sur un autre appareil" in page and "Firefox sur Linux" in page
    assert "Utiliser cet appareil" in ann.get("/link").text
    assert 'href="/devices"' in ann.get("/").text
