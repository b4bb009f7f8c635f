"""The bot API with the real app: tokens (shown once, stored hashed, revocable), bots seated and marked at an
online table, refused on the daily and the friend challenges, rate-limited as a device; the NDJSON stream;
and examples/bot.py playing a whole game against a person on a real server."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from hotdice.store.web_models import WebBotToken, WebPlayer
from hotdice.web import Settings, create_app
from hotdice.web.routes import bots as bot_routes
from hotdice.web.settings import Rate
from tests.web.test_web_api import alice, app
from tests.web_servers import server_env, start_server
from tests.web_support import next_intent

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["alice", "app"]  # the API tests' fixtures: the app on a fresh database, and a first device


def bot_client(app: FastAPI, token: str) -> TestClient:
    return TestClient(app, headers={"Authorization": f"Bearer {token}"}, cookies=None)


def make_token(client: TestClient, name: str = "Robo") -> dict[str, Any]:
    made = client.post("/api/me/bot-tokens", json={"name": name})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def test_a_token_is_shown_once_stored_hashed_and_revocable(app: FastAPI, alice: TestClient) -> None:
    made = make_token(alice)
    assert set(made) == {"id", "name", "revoked", "created_at", "token"} and made["name"] == "Robo"
    listed = alice.get("/api/me/bot-tokens").json()
    assert listed == [{k: v for k, v in made.items() if k != "token"}]  # never shown again
    with app.state.db.session() as session:
        bot = session.scalar(select(WebPlayer).where(WebPlayer.bot))
        assert bot is not None and bot.token_hash == hashlib.sha256(made["token"].encode()).hexdigest()
        assert made["token"] not in repr(list(session.scalars(select(WebBotToken))))
    robo = bot_client(app, made["token"])
    assert robo.get("/api/tables/AAAAAA").status_code == 404  # known: the route answers
    assert alice.delete(f"/api/me/bot-tokens/{made['id']}").status_code == 204
    refused = robo.get("/api/tables/AAAAAA")
    assert refused.status_code == 401 and refused.json()["code"] == "bot-token"
    assert alice.get("/api/me/bot-tokens").json()[0]["revoked"] is True
    assert TestClient(app).delete(f"/api/me/bot-tokens/{made['id']}").status_code == 404  # someone else's


def test_a_made_up_token_is_refused_and_makes_no_player(app: FastAPI) -> None:
    for header in ("Bearer " + "x" * 43, "Bearer nonsense", "Basic abc"):
        answer = TestClient(app, headers={"Authorization": header}).post("/api/tables/AAAAAA/join", json={})
        assert answer.status_code == 401 and "bot token" in answer.json()["detail"]
    with app.state.db.session() as session:
        assert session.scalar(select(WebPlayer)) is None


def test_bots_are_refused_on_the_daily_and_the_friend_challenges(app: FastAPI, alice: TestClient) -> None:
    robo = bot_client(app, make_token(alice)["token"])
    refused = [("POST", "/api/daily", {}), ("GET", "/api/daily/today", None),
               ("POST", "/api/challenges", {"preset": "farkle"}), ("POST", "/api/games", {"mode": "daily"}),
               ("POST", "/api/me/bot-tokens", {"name": "x"})]
    for method, path, body in refused:
        answer = robo.request(method, path, json=body)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["code"] == "not-for-bots" and "for people" in answer.json()["detail"]


def test_a_bot_is_seated_and_marked_at_the_table_and_in_the_game(app: FastAPI, alice: TestClient) -> None:
    robo = bot_client(app, make_token(alice, "Robo")["token"])
    code = alice.post("/api/tables", json={}).json()["code"]
    joined = robo.post(f"/api/tables/{code}/join", json={})
    assert joined.status_code == 200, joined.text
    assert [(s["name"], s["bot"], s["you"]) for s in joined.json()["seats"]] == [("", False, False),
                                                                                 ("Robo", True, True)]
    assert '<span class="badge">bot</span>' in alice.get(f"/t/{code}").text  # the lobby marks it
    game_id = alice.post(f"/api/tables/{code}/start").json()["game"]
    view = robo.get(f"/api/games/{game_id}").json()
    assert [s["bot"] for s in view["seats"]] == [False, True] and view["you"] == [1]


def test_a_bots_requests_count_against_its_own_device_limit(tmp_path: Path, database_url: str) -> None:
    app = create_app(Settings(data_dir=tmp_path, database_url=database_url, player_rate=Rate(0.01, 3),
                              address_rate=None, new_device_rate=None))
    with TestClient(app) as alice:
        robo = bot_client(app, make_token(alice)["token"])
        answers = [robo.get("/api/tables/AAAAAA").status_code for _ in range(5)]
        assert answers[:3] == [404] * 3 and answers[3:] == [429, 429]
    app.state.db.close()


@pytest.mark.slow
def test_the_stream_sends_the_view_after_each_change_with_keep_alives(app: FastAPI, alice: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_routes, "KEEP_ALIVE", 0.3)
    robo = bot_client(app, make_token(alice)["token"])
    # A short game: the players move once a keep-alive, so that the stream shows both kinds of line.
    code = alice.post("/api/tables", json={"rules": "farkle,target=1000"}).json()["code"]
    robo.post(f"/api/tables/{code}/join", json={})
    game_id = alice.post(f"/api/tables/{code}/start").json()["game"]
    assert alice.get(f"/api/bot/games/{game_id}/stream").status_code == 403  # a person's device: not a bot
    lines: list[dict[str, Any]] = []
    with robo.stream("GET", f"/api/bot/games/{game_id}/stream") as stream:
        assert stream.headers["content-type"] == "application/x-ndjson"
        for line in stream.iter_lines():
            lines.append(json.loads(line))
            view = next((m["view"] for m in reversed(lines) if m["type"] == "game"), None)
            if view is None or view["outcome"] is not None:
                break
            if lines[-1]["type"] == "keep-alive" or len(lines) == 1:
                who = alice if view["to_act"] == 0 else robo
                who.post(f"/api/games/{game_id}/act", json={"n": view["n"], **next_intent(view)})
    kinds = {m["type"] for m in lines}
    assert kinds == {"game", "keep-alive"} and lines[0]["view"]["you"] == [1]
    numbers = [m["view"]["n"] for m in lines if m["type"] == "game"]
    assert numbers == sorted(numbers) and len(set(numbers)) > 3
    assert lines[-1]["type"] == "game" and lines[-1]["view"]["outcome"] is not None


@pytest.mark.slow
def test_the_example_bot_plays_a_whole_game_against_a_person(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    server = start_server(server_env(f"sqlite:///{tmp_path / 'hotdice.sqlite3'}", tmp_path))
    try:
        with httpx.Client(base_url=server.url, timeout=30) as person:
            token = person.post("/api/me/bot-tokens", json={"name": "Robo"}).json()["token"]
            code = person.post("/api/tables", json={"rules": "5000,target=2000"}).json()["code"]
            played = threading.Thread(target=example.main, args=(server.url, token, code))
            played.start()
            while not any(s["bot"] for s in person.get(f"/api/tables/{code}").json()["seats"]):
                played.join(0.1)
            game_id = person.post(f"/api/tables/{code}/start").json()["game"]
            view = person.get(f"/api/games/{game_id}").json()
            for _ in range(5000):
                if view["outcome"] is not None:
                    break
                if view["to_act"] == 0:
                    person.post(f"/api/games/{game_id}/act", json={"n": view["n"], **next_intent(view)})
                else:
                    played.join(0.05)
                view = person.get(f"/api/games/{game_id}").json()
            played.join(60)
            assert not played.is_alive() and view["outcome"] is not None
            assert [s["bot"] for s in view["seats"]] == [False, True]
            assert sum(s["score"] for s in view["players"]) > 0
    finally:
        server.stop()
