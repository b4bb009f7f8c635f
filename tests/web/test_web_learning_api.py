"""The API behind how to play (issue 15): the guided first turn, the quiz's combinations, the drill's values,
the scoring table's lines named in the page's language."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.db_support import database_url
from tests.web.test_web_api import alice, app

__all__ = ["alice", "app", "database_url"]  # the fixtures this module uses


def test_the_guided_first_turn_is_the_engines_under_the_players_rules(alice: TestClient) -> None:
    turn = alice.get("/api/training/first-turn", params={"rules": "farkle,entry=500"}).json()
    assert turn["rules"] == "farkle,entry=500" and turn["dice"] == 6
    assert [s["kind"] for s in turn["steps"]] == ["roll", "set-aside", "roll", "set-aside", "farkle"]
    assert turn["steps"][0]["combinations"] == [
        {"kind": "of-a-kind", "dice": [3, 3, 3], "points": 300},
        {"kind": "single", "dice": [1], "points": 100},
    ]
    assert turn["steps"][1]["bank"] == {"code": "below-entry", "values": {"entry": 500}}
    assert turn["steps"][3]["hot_dice"] is True and turn["steps"][3]["bank"] is None
    assert turn["steps"][4]["points"] == 550
    bad = alice.get("/api/training/first-turn", params={"rules": "farkle,entry=-5"})
    assert bad.status_code == 400 and "entry" in bad.json()["detail"]
    assert alice.get("/api/stats").json() == {"games": 0}


@pytest.mark.slow
def test_the_quiz_and_the_drill_answer_with_their_reasons(alice: TestClient) -> None:
    checked = alice.post("/api/training/question", json={"rules": "farkle", "roll": [1, 1, 1, 5, 2, 3], "keep": "1115"})
    assert checked.json()["combinations"] == [
        {"kind": "of-a-kind", "dice": [1, 1, 1], "points": 1000},
        {"kind": "single", "dice": [5], "points": 50},
    ]
    assert checked.json()["rest"] == [2, 3]
    drill = alice.post("/api/training/drill", json={"rules": "farkle", "turn_total": 300, "dice": 3, "answer": "roll"})
    assert drill.json()["farkle_chance"] == 60 / 216 and drill.json()["bank_value"] == 300


def test_the_scoring_lines_are_named_in_the_pages_language(alice: TestClient) -> None:
    english = alice.get("/api/rules", params={"text": "5000"}).json()["scoring"]
    french = alice.get("/api/rules", params={"text": "5000"}, headers={"Accept-Language": "fr"}).json()["scoring"]
    assert [line["name"] for line in english][:3] == ["A 1", "A 5", "Three 1s"]
    assert [line["name"] for line in french][:3] == ["Un 1", "Un 5", "Trois 1"]
    assert english[-1]["name"] == "Straight 1-5" and french[-1]["name"] == "Suite 1-5"
    assert english[0]["combination"] == "A 1"  # the English name the API always gave stays
