"""The review page in a real browser (chromium via Playwright, ``hotdice serve`` in its own process): reached from
the result screen's Review button, the chart drawn in the page with one focusable point per step (arrow keys move
along, M jumps to the next mistake), each position's choices with their exact values and the best one marked, the
table of every step; on a 390 px phone in French with no English left, nothing sideways and axe clean."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.french_support import english_left
from tests.web.test_web_browser import (  # noqa: F401 (fixtures)
    PHONE,
    Open,
    api_view,
    browser,
    open_page,
    playwright,
    server,
)
from tests.web.test_web_phone import problems
from tests.web_support import next_intent

pytestmark = pytest.mark.slow


def finished_game(page: Page, body: dict[str, Any]) -> str:
    """A game of the page's device played to its end through the API (the page's own cookie)."""
    made = page.request.post("/api/games", data=body)
    assert made.ok, made.text()
    gid = str(made.json()["id"])
    view = api_view(page, gid)
    for _ in range(2000):
        if view["outcome"] is not None:
            return gid
        if view["seats"][view["to_act"]]["computer"]:
            url, body = f"/api/games/{gid}/computer", {"n": view["n"]}
        else:
            url, body = f"/api/games/{gid}/act", {"n": view["n"], **next_intent(view)}
        answer = page.request.post(url, data=body)
        while answer.status == 429:  # faster than a person: the device's rate limit asks to wait
            time.sleep(float(answer.headers.get("retry-after", "1")))
            answer = page.request.post(url, data=body)
        assert answer.ok, answer.text()
        view = answer.json()["game"]
    raise AssertionError("the game did not end")


def test_the_review_from_the_result_screen_stepped_through_by_keys(open_page: Open) -> None:  # noqa: F811
    page = open_page()
    gid = finished_game(page, {"mode": "versus", "level": "easy", "rules": "5000"})
    page.goto(f"/play/{gid}")
    page.locator("#over #review").click()
    expect(page).to_have_url(re.compile(f"/review/{gid}$"))
    expect(page.locator("#review-figure")).to_be_visible()
    review = page.request.get(f"/api/games/{gid}/review").json()
    steps = review["steps"]
    points = page.locator("#review-points .point")
    expect(points).to_have_count(len(steps) + 1)
    expect(page.locator("#steps-table tbody tr")).to_have_count(len(steps))
    expect(page.locator("#summary-table tbody tr")).to_have_count(2)
    points.first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-title")).to_contain_text(f"Turn 1, {review['players'][steps[0]['seat']]['name']}")
    expect(page.locator('#review-points .point[data-k="1"]')).to_be_focused()
    decision = next(k for k, s in enumerate(steps, start=1) if s["kind"] == "decision")
    page.keyboard.press("Home")
    for _ in range(decision):
        page.keyboard.press("ArrowRight")
    step = steps[decision - 1]
    rows = page.locator("#step-body table.choices tbody tr")
    expect(rows).to_have_count(len(step["choices"]))
    expect(rows.first).to_have_class("best" if step["choices"][0]["decision"] != step["played"] else "best played")
    marked = [k for k, s in enumerate(steps, start=1) if s["label"] in ("inaccuracy", "mistake", "blunder")]
    page.keyboard.press("Home")
    if marked:
        page.keyboard.press("m")
        expect(page.locator(f'#review-points .point[data-k="{marked[0]}"]')).to_be_focused()
        expect(page.locator("#step-body strong")).to_have_text(steps[marked[0] - 1]["label"])
    else:
        expect(page.locator("#review-mistake")).to_be_disabled()
    assert problems(page, "review") == []


def test_the_review_on_a_phone_in_french(open_page: Open) -> None:  # noqa: F811
    page = open_page(viewport=PHONE, locale="fr-FR")
    page.request.get("/lang/fr?next=/")
    gid = finished_game(page, {"mode": "solo"})
    page.goto(f"/review/{gid}")
    expect(page.locator("#review-figure")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Analyse de la partie")
    page.locator("#review-next").click()
    page.locator("#review-next").click()
    text = page.locator("main").inner_text()
    assert english_left(text) == [], english_left(text)
    assert "points" in text and "Bilan" in text
    assert problems(page, "review") == []


def test_learn_from_your_mistakes_in_training(open_page: Open) -> None:  # noqa: F811
    page = open_page()
    exercises: list[dict[str, Any]] = []
    for _ in range(4):
        finished_game(page, {"mode": "solo"})
        exercises = page.request.get("/api/training/mistakes").json()
        if exercises:
            break
    assert exercises
    page.goto("/training")
    expect(page.locator("#mistakes-count")).to_have_text(f"Exercise 1 of {len(exercises)}")
    review = page.request.get(f"/api/games/{exercises[0]['game']}/review").json()
    best = review["steps"][exercises[0]["step"]]["best"]
    page.locator(f'#mistakes-choices button[data-decision="{best}"]').click()
    expect(page.locator("#mistakes-feedback")).to_contain_text("Right: the best play")
    expect(page.locator(f'#mistakes-choices button[data-decision="{best}"]')).to_have_class("button gold")
    assert problems(page, "training") == []


def test_the_stats_page_leads_to_each_games_review_on_a_phone_in_french(open_page: Open) -> None:  # noqa: F811
    page = open_page(viewport=PHONE, locale="fr-FR")
    page.request.get("/lang/fr?next=/")
    gid = finished_game(page, {"mode": "solo"})
    page.goto("/stats")
    expect(page.locator("#history-title")).to_have_text("Vos dernières parties")
    assert problems(page, "stats") == []
    page.locator(f'#history a[href="/review/{gid}"]').click()
    expect(page).to_have_url(re.compile(f"/review/{gid}$"))
    expect(page.locator("#review-figure")).to_be_visible()
