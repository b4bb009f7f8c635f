"""Every mode's finished game offers its review (issue 24): solo ten turns, the race, against the computer,
together, the score pad, an online table, the daily and a friend challenge. The result screen's Review button is
drawn for every mode by one line of table.js (the browser test follows it for one mode); here each mode's review
answers once its game is over, and a daily's or a challenge's only once the player's own attempt is over (409 with
the review's reason before, while others may still be playing the same dice)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.test_web_api import act, alice, app, bob, new_game, play_out  # noqa: F401 (fixtures)
from tests.web_support import next_intent


def reviewed(client: TestClient, game_id: str, measure: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}/review")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["measure"] == measure and data["finished"] and data["steps"]
    return data


def refused_before_the_end(client: TestClient, game_id: str) -> None:
    early = client.get(f"/api/games/{game_id}/review")
    assert early.status_code == 409 and early.json()["message"]["key"] == "error.review_after"
    assert "once your own attempt is over" in early.json()["detail"]


@pytest.mark.slow
@pytest.mark.parametrize(("body", "measure"), [
    ({"mode": "solo"}, "points"),
    ({"mode": "race", "rules": "5000"}, "turns"),
    ({"mode": "versus", "level": "easy", "rules": "5000"}, "win"),
    ({"mode": "together", "names": ["Ann", "Ben"], "rules": "5000"}, "win"),
])
def test_each_modes_review_once_its_game_is_over(alice: TestClient, body: dict[str, Any],  # noqa: F811
                                                 measure: str) -> None:
    view = new_game(alice, **body)
    view = act(alice, view, next_intent(view))["game"]
    refused_before_the_end(alice, view["id"])
    view = play_out(alice, view)
    assert len(reviewed(alice, view["id"], measure)["players"]) == len(view["players"])


def pad_game(client: TestClient, before_the_end: bool = False) -> dict[str, Any]:
    """A score pad of Ann and Ben under 5000, the table's dice typed in: Ann's hot dice of 1s and a 5 again and
    again past 5,000 (then a 1 to bank), then Ben farkles; ``before_the_end``: its review is checked to be refused
    before Ben's last roll."""
    view = new_game(client, mode="pad", names=["Ann", "Ben"], rules="5000")
    hot = "1" * (view["dice"] - 1) + "5"
    view = act(client, view, {"then": "roll", "dice": hot})["game"]
    while view["turn_total"] + view["options"][0]["points"] < 5000:
        assert view["options"][0]["set_aside"] == "".join(sorted(hot))  # every die scores: hot dice
        view = act(client, view, {"keep": hot, "then": "roll", "dice": hot})["game"]
    view = act(client, view, {"keep": hot, "then": "roll", "dice": "12266"[:view["dice"]]})["game"]  # hot dice roll on
    view = act(client, view, {"keep": "1", "then": "bank"})["game"]
    if before_the_end:
        refused_before_the_end(client, view["id"])
    view = act(client, view, {"then": "roll", "dice": "22346"[:view["dice"]]})["game"]
    assert view["outcome"] is not None
    return view


def test_the_score_pad_s_review(alice: TestClient) -> None:  # noqa: F811
    view = pad_game(alice, before_the_end=True)
    data = reviewed(alice, view["id"], "win")
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben"] and data["players"][0]["end"] == 1


def online_game(host: TestClient, guest: TestClient, before_the_end: bool = False) -> str:
    """An online table of Ann (hosting) and Bob under 5000, played to its end; ``before_the_end``: its review is
    checked to be refused before."""
    host.post("/api/me", json={"name": "Ann", "rules": "5000"})
    code = host.post("/api/tables", json={}).json()["code"]
    guest.post(f"/api/tables/{code}/join", json={"name": "Bob"})
    game_id = str(host.post(f"/api/tables/{code}/start").json()["game"])
    players = {0: host, 1: guest}
    view = host.get(f"/api/games/{game_id}").json()
    assert view["mode"] == "online"
    if before_the_end:
        refused_before_the_end(guest, game_id)
    while view["outcome"] is None:
        view = act(players[view["to_act"]], view, next_intent(view))["game"]
    return game_id


@pytest.mark.slow
def test_an_online_tables_review_for_every_seat(alice: TestClient, bob: TestClient) -> None:  # noqa: F811
    game_id = online_game(alice, bob, before_the_end=True)
    assert reviewed(alice, game_id, "win") == reviewed(bob, game_id, "win")


def test_the_dailys_review_once_ones_own_attempt_is_over(alice: TestClient, bob: TestClient) -> None:  # noqa: F811
    mine = alice.post("/api/daily").json()["id"]
    theirs = bob.post("/api/daily").json()["id"]
    view = act(alice, alice.get(f"/api/games/{mine}").json(), {"then": "roll"})["game"]
    refused_before_the_end(alice, mine)
    play_out(alice, view)
    reviewed(alice, mine, "points")  # while Bob's attempt at the same dice is still under way
    refused_before_the_end(alice, theirs)  # nor does anyone see another's attempt before it is over


def test_a_challenges_review_once_ones_own_attempt_is_over(alice: TestClient, bob: TestClient) -> None:  # noqa: F811
    code = alice.post("/api/challenges", json={"preset": "5000"}).json()["code"]
    mine = alice.post(f"/api/challenges/{code}/play").json()["id"]
    theirs = bob.post(f"/api/challenges/{code}/play").json()["id"]
    view = act(alice, alice.get(f"/api/games/{mine}").json(), {"then": "roll"})["game"]
    refused_before_the_end(alice, mine)
    play_out(alice, view)
    data = reviewed(alice, mine, "points")  # the challenge still open: its dice key is kept back, the review given
    assert len(data["players"]) == 1
    refused_before_the_end(bob, theirs)


@pytest.mark.slow
def test_the_stats_page_links_each_finished_game_to_its_review(alice: TestClient, bob: TestClient) -> None:  # noqa: F811
    solo = play_out(alice, new_game(alice, mode="solo"))["id"]
    versus = play_out(alice, new_game(alice, mode="versus", level="easy", rules="5000"))["id"]
    playing = act(alice, (v := new_game(alice, mode="solo")), next_intent(v))["game"]["id"]  # not over: not listed
    table = online_game(alice, bob)
    page = alice.get("/stats").text
    links = [page.index(f'href="/review/{gid}"') for gid in (table, versus, solo)]
    assert links == sorted(links), "newest first"
    assert f"/review/{playing}" not in page and "Your last games" in page
    theirs = bob.get("/stats").text  # a seat at the online table: that game, and none of Ann's own
    assert f'href="/review/{table}"' in theirs and f"/review/{solo}" not in theirs
    alice.get("/lang/fr?next=/")
    assert "Vos dernières parties" in alice.get("/stats").text
