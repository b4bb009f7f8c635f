"""Fair ends (issue 29): closing a challenge stops new attempts and lets started ones finish until a grace
deadline; the daily's midnight proven over HTTP with the app's clock moved; seat names told apart as read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.web import Settings, create_app

KEY = b"the test server's daily key"


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    """The app on a database of its own, SQLite then PostgreSQL, without rate limits."""
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=KEY).unlimited())
    yield web
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
