"""Fair ends (issue 29): closing a challenge stops new attempts and lets started ones finish until a grace
deadline; the daily's midnight proven over HTTP with the app's clock moved; seat names told apart as read."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.web import Settings, create_app
from hotdice.web.clock import Clock
from tests.web.test_web_api import act
from tests.web_support import next_intent

KEY = b"the test server's daily key"


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    """The app on a database of its own, SQLite then PostgreSQL, without rate limits."""
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=KEY).unlimited())
    yield web
    web.state.clock.shift = timedelta(0)  # the clock a test moved
    web.state.db.close()


def device(app: FastAPI) -> TestClient:
    return TestClient(app)


# -- seat names --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("taken", ["PLAYER", "player 1", "Player1", "Joueur 1", "joueur", "\uff30layer 1",
                                   "Play\u200ber"])
def test_a_seat_cannot_take_a_name_that_reads_as_an_unnamed_hosts(app: FastAPI, taken: str) -> None:
    # The host chose no name: the lobby shows "Player", the game "Player 1" (Joueur, Joueur 1 in French).
    host, guest = device(app), device(app)
    code = host.post("/api/tables", json={}).json()["code"]
    refused = guest.post(f"/api/tables/{code}/join", json={"name": taken})
    assert refused.status_code == 409 and refused.json()["message"]["key"] == "error.name_taken", refused.text
    assert [s["name"] for s in host.get(f"/api/tables/{code}").json()["seats"]] == [""]


@pytest.mark.parametrize(("first", "second"), [("Ann", "ANN"), ("Ann Lee", "ann  lee"), ("Ann Lee", "AnnLee"),
                                               ("Ｂｏｂ", "bob"), ("Zoë", "ZOË")])
def test_two_seats_cannot_read_the_same(app: FastAPI, first: str, second: str) -> None:
    host, ann, other = device(app), device(app), device(app)
    host.post("/api/me", json={"name": "Host"})
    code = host.post("/api/tables", json={}).json()["code"]
    assert ann.post(f"/api/tables/{code}/join", json={"name": first}).status_code == 200
    refused = other.post(f"/api/tables/{code}/join", json={"name": second})
    assert refused.status_code == 409 and refused.json()["message"]["key"] == "error.name_taken", refused.text
    assert other.post(f"/api/tables/{code}/join", json={"name": "Cy"}).status_code == 200
    started = host.post(f"/api/tables/{code}/start")
    assert started.status_code == 200, started.text


# -- the clock moved over HTTP -------------------------------------------------------------------------------


@pytest.fixture
def clock(app: FastAPI) -> Iterator[Clock]:
    """The app's clock, put back after the test."""
    moved: Clock = app.state.clock
    yield moved
    moved.shift = timedelta(0)


def _never_banking(view: dict[str, Any]) -> dict[str, Any]:
    """Roll on until a farkle: an attempt that ends quickly with nothing."""
    return {"keep": view["best"], "then": "roll"} if view["best"] else {"then": "roll"}


def _finish(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    while view["outcome"] is None:
        view = act(client, view, _never_banking(view))["game"]
    return view


def _verify(client: TestClient, game_id: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / f"{game_id}.json"
    path.write_text(client.get(f"/api/games/{game_id}/record").text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "hotdice.cli", "verify", str(path)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_daily_ends_at_midnight_over_http(app: FastAPI, clock: Clock, tmp_path: Path) -> None:
    ann, bob = device(app), device(app)
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    clock.move_to(midnight - timedelta(minutes=5))
    bob.post("/api/me", json={"name": "Bob"})
    ann.post("/api/me", json={"name": "Ann"})
    _finish(bob, bob.get(f"/api/games/{bob.post('/api/daily').json()['id']}").json())
    view = ann.get(f"/api/games/{ann.post('/api/daily').json()['id']}").json()
    while view["players"][0]["score"] == 0 and view["outcome"] is None:
        view = act(ann, view, next_intent(view))["game"]
    assert view["outcome"] is None
    day = (midnight - timedelta(days=1)).date().isoformat()
    assert ann.get(f"/api/daily/{day}/key").json()["key"] is None  # not public before midnight
    before = ann.get("/api/daily").json()["leaderboard"]
    assert [(r["name"], r["finished"]) for r in before] == [("Bob", True)]  # Ann still playing
    clock.move_to(midnight - timedelta(seconds=1))
    view = act(ann, view, next_intent(view))["game"]  # a second before midnight: accepted
    clock.move_to(midnight)
    if view["outcome"] is None:
        refused = act(ann, view, next_intent(view), status=409)
        assert refused["code"] == "key-revealed" and refused["game"]["ended"] == f"{midnight:%Y-%m-%dT%H:%M:%SZ}"
        assert refused["game"]["outcome"] == {"ended": "key-revealed", "at": f"{midnight:%Y-%m-%dT%H:%M:%SZ}",
                                              "winners": [], "termination": None,
                                              "scores": refused["game"]["outcome"]["scores"]}
    assert ann.get(f"/api/daily/{day}/key").json()["key"]  # public at midnight
    board = ann.get("/api/daily", params={"day": day}).json()["leaderboard"]
    assert [(r["name"], r["finished"]) for r in board] == [("Bob", True), ("Ann", view["outcome"] is not None)]
    # Her record is every line before the reveal: it verifies, unfinished; played on after it, it would not.
    done = _verify(ann, view["id"], tmp_path)
    assert done.returncode == 0 and "unfinished: it ended when its dice key was revealed" in done.stdout, done


@pytest.mark.slow
def test_closing_a_challenge_lets_started_attempts_finish_until_the_grace_deadline(
        app: FastAPI, clock: Clock, tmp_path: Path) -> None:
    # The attack: Ann finishes a good attempt, then closes her challenge while Bob and Cy are mid-game.
    ann, bob, cy, late = device(app), device(app), device(app), device(app)
    for client, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        client.post("/api/me", json={"name": name})
    code = ann.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
    views = {c: c.get(f"/api/games/{c.post(f'/api/challenges/{code}/play').json()['id']}").json()
             for c in (ann, bob, cy)}
    views[ann] = _finish(ann, views[ann])
    for c in (bob, cy):
        views[c] = act(c, views[c], next_intent(views[c]))["game"]
    assert bob.get(f"/api/games/{views[bob]['id']}").json()["finish_by"] is None  # open: no deadline
    closed = ann.post(f"/api/challenges/{code}/close").json()
    assert closed["dice_key"] is None and not closed["revealed"]  # nothing about the dice yet
    assert late.post(f"/api/challenges/{code}/play").status_code == 409  # no new attempt
    results = ann.get(f"/api/challenges/{code}").json()
    assert results["closed"] and results["grace_until"] is not None and results["dice_key"] is None
    assert "may finish until" in ann.get(f"/c/{code}/results").text
    # Every player under way is shown the deadline on the game's view, from the moment of the close.
    deadline_shown = bob.get(f"/api/games/{views[bob]['id']}").json()["finish_by"]
    assert deadline_shown == results["grace_until"][:19] + "Z"
    # Bob plays on, and finishes: the key stays hidden while Cy plays.
    views[bob] = _finish(bob, views[bob])
    assert ann.get(f"/api/challenges/{code}").json()["dice_key"] is None
    views[cy] = act(cy, views[cy], next_intent(views[cy]))["game"]
    # The grace deadline passes with Cy unfinished: the key is revealed, Cy's next action refused.
    deadline = datetime.fromisoformat(results["grace_until"])
    clock.move_to(deadline + timedelta(seconds=1))
    refused = act(cy, views[cy], next_intent(views[cy]), status=409)
    assert refused["code"] == "key-revealed"
    after = ann.get(f"/api/challenges/{code}").json()
    assert after["revealed"] and after["dice_key"] and after["revealed_at"] == results["grace_until"]
    assert [(r["name"], r["finished"]) for r in after["ranking"]][-1] == ("Cy", False)
    assert "grace deadline passed" in ann.get(f"/c/{code}/results").text
    done = _verify(cy, views[cy]["id"], tmp_path)
    assert done.returncode == 0 and "unfinished" in done.stdout, done


def test_a_challenge_closed_is_revealed_when_its_last_attempt_ends(app: FastAPI, clock: Clock) -> None:
    ann, bob = device(app), device(app)
    code = ann.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
    mine = _finish(ann, ann.get(f"/api/games/{ann.post(f'/api/challenges/{code}/play').json()['id']}").json())
    theirs = bob.get(f"/api/games/{bob.post(f'/api/challenges/{code}/play').json()['id']}").json()
    ann.post(f"/api/challenges/{code}/close")
    assert ann.get(f"/api/challenges/{code}").json()["dice_key"] is None
    _finish(bob, theirs)
    shown = ann.get(f"/api/challenges/{code}").json()
    assert shown["revealed"] and shown["dice_key"] and shown["revealed_at"] < shown["grace_until"]
    assert [r["finished"] for r in shown["ranking"]] == [True, True] and mine["outcome"] is not None
    assert "every attempt has finished" in ann.get(f"/c/{code}/results").text


def test_the_terminal_says_an_attempt_ended_unfinished_when_its_key_was_revealed(app: FastAPI, clock: Clock,
                                                                                  tmp_path: Path) -> None:
    ann = device(app)
    code = ann.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
    view = ann.get(f"/api/games/{ann.post(f'/api/challenges/{code}/play').json()['id']}").json()
    view = act(ann, view, next_intent(view))["game"]
    grace_until = ann.post(f"/api/challenges/{code}/close").json()["grace_until"]
    clock.move_to(datetime.fromisoformat(grace_until))
    path = tmp_path / "ended.json"
    path.write_text(ann.get(f"/api/games/{view['id']}/record").text, encoding="utf-8")
    shown = {lang: subprocess.run([sys.executable, "-m", "hotdice.cli", "--lang", lang, "replay", str(path)],
                                  capture_output=True, text=True, timeout=120, check=False) for lang in ("en", "fr")}
    assert shown["en"].returncode == shown["fr"].returncode == 0, shown
    at = datetime.fromisoformat(grace_until)
    assert shown["en"].stdout.splitlines()[-1].startswith("Ended unfinished: the key was revealed at "), shown["en"]
    assert f"{at:%H:%M}" in shown["en"].stdout.splitlines()[-1]
    assert shown["fr"].stdout.splitlines()[-1].startswith("Arrêtée inachevée\u00a0: la clé a été révélée à ")
