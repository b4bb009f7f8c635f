"""GET /api/games/{id}/review: 409 before the end, then the review's JSON — byte for byte what ``hotdice review
--json`` writes for the game's record, computed once (a second look is read from the process's cache); the page
/review/{id} in English and French."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.analysis import game_review as core
from hotdice.web.services import reviews
from tests.web.test_web_api import act, alice, app, bob, new_game, play_out  # noqa: F401 (fixtures)
from tests.web_support import next_intent


@pytest.mark.slow
def test_the_review_after_the_end_is_the_clis(alice: TestClient, tmp_path: Path) -> None:  # noqa: F811
    view = new_game(alice, mode="versus", level="easy", rules="5000")
    view = act(alice, view, next_intent(view))["game"]
    early = alice.get(f"/api/games/{view['id']}/review")
    assert early.status_code == 409 and "once the game is over" in early.json()["detail"]
    play_out(alice, view)
    answer = alice.get(f"/api/games/{view['id']}/review")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    data = answer.json()
    assert data["measure"] == "win" and data["finished"] and len(data["players"]) == 2
    sign = 1
    for p in data["players"]:
        assert sign * (p["end"] - p["start"]) - (p["luck"] - p["skill_lost"]) < 1e-5
    record = tmp_path / "game.json"
    record.write_text(alice.get(f"/api/games/{view['id']}/record").text)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    cli = subprocess.run([sys.executable, "-m", "hotdice.cli", "review", str(record), "--json"], capture_output=True,
                         env=env, timeout=120, check=True)
    assert cli.stdout == answer.content + b"\n"


def test_a_second_look_is_read_from_the_cache(alice: TestClient, monkeypatch: object) -> None:  # noqa: F811
    view = play_out(alice, new_game(alice, mode="solo"))
    first = alice.get(f"/api/games/{view['id']}/review").content
    calls = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return core.game_review(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reviews, "game_review", counted)  # type: ignore[attr-defined]
    assert alice.get(f"/api/games/{view['id']}/review").content == first and calls == []
    assert json.loads(first)["measure"] == "points"


def test_while_its_table_is_solved_the_review_is_being_prepared(alice: TestClient) -> None:  # noqa: F811
    view = play_out(alice, new_game(alice, mode="versus", level="easy", rules="farkle,target=1500"))
    answer = alice.get(f"/api/games/{view['id']}/review")
    if answer.status_code == 409:  # else the background solver was done already
        assert answer.json()["message"]["key"] == "error.review_preparing"


def test_the_review_page_in_both_languages(alice: TestClient) -> None:  # noqa: F811
    view = play_out(alice, new_game(alice, mode="solo"))
    page = alice.get(f"/review/{view['id']}")
    assert page.status_code == 200 and 'data-game="' + view["id"] + '"' in page.text and "review.js" in page.text
    alice.get("/lang/fr?next=/")
    assert "Analyse de la partie" in alice.get(f"/review/{view['id']}").text
    assert alice.get("/review/nosuchgame000000").status_code == 404


def test_no_such_game_is_404(alice: TestClient) -> None:  # noqa: F811
    assert alice.get("/api/games/nosuchgame000000/review").status_code == 404


def test_the_schema_documents_the_review(app: FastAPI) -> None:  # noqa: F811
    schema = app.openapi()
    operation = schema["paths"]["/api/games/{game_id}/review"]["get"]
    assert set(operation["responses"]) >= {"200", "404", "409"}
    out = schema["components"]["schemas"]["ReviewOut"]
    assert {"measure", "players", "steps"} <= set(out["properties"])


def test_learn_from_your_mistakes(alice: TestClient, bob: TestClient) -> None:  # noqa: F811
    """A blunder of the device's own game is offered in Training, without its answer; the answer is checked against
    the review's exact values; another device sees none of it; nothing is recorded."""
    assert alice.get("/api/training/mistakes").json() == []
    exercises: list[dict[str, object]] = []
    for _ in range(4):  # the test strategy (bank from 300) blunders sooner or later
        play_out(alice, new_game(alice, mode="solo"))
        exercises = alice.get("/api/training/mistakes").json()
        if exercises:
            break
    assert exercises, "no mistake in four games"
    first = exercises[0]
    assert "best" not in first and all("value" not in c for c in first["choices"])  # type: ignore[union-attr]
    review = alice.get(f"/api/games/{first['game']}/review").json()
    step = review["steps"][first["step"]]
    assert step["label"] in ("mistake", "blunder") and first["position"] == step["position"]
    right = alice.post("/api/training/mistakes", json={"game": first["game"], "step": first["step"],
                                                     "decision": step["best"]}).json()
    assert right["correct"] and right["exercise"]["choices"][0]["decision"] == step["best"]
    wrong = alice.post("/api/training/mistakes", json={"game": first["game"], "step": first["step"],
                                                     "decision": step["played"]}).json()
    assert not wrong["correct"] and abs(wrong["loss"] - step["loss"]) < 1e-6
    refused = alice.post("/api/training/mistakes", json={"game": first["game"], "step": first["step"],
                                                       "decision": "set aside 666666, then roll"})
    assert refused.status_code == 400
    assert bob.get("/api/training/mistakes").json() == []
