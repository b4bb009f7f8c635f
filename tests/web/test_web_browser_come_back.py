"""Reasons to come back, in a real browser (chromium via Playwright, ``hotdice serve``): the daily's share
button (the clipboard where the Web Share API is absent, the plain form shown), your games on the home page,
and "Play again" as the rematch: a double tap makes one game."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_web_browser import Open
from tests.web_support import next_intent

pytestmark = pytest.mark.slow


def play_out(page: Page, gid: str) -> dict[str, Any]:
    """To the end through the API, on the page's own device (its cookies)."""
    for _ in range(2000):
        view: dict[str, Any] = page.request.get(f"/api/games/{gid}").json()
        if view["outcome"] is not None:
            return view
        if view["seats"][view["to_act"]]["computer"]:
            assert page.request.post(f"/api/games/{gid}/computer", data={"n": view["n"]}).ok
        else:
            assert page.request.post(f"/api/games/{gid}/act", data={"n": view["n"], **next_intent(view)}).ok
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_daily_share_copies_the_text_and_shows_the_plain_form(open_page: Open, locale: str) -> None:
    page = open_page("sharer", locale=locale)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/daily")
    made = page.request.post("/api/daily").json()
    play_out(page, made["id"])
    page.evaluate("() => { delete Navigator.prototype.share; }")  # where the Web Share API is absent
    page.goto("/daily")
    expect(page.locator("#daily-streak")).to_be_visible()
    page.locator("[data-share-text]").click()
    expect(page.locator(".share-text")).to_be_visible()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    day = page.locator("[data-share]").get_attribute("data-share")
    assert day is not None
    shared = page.request.get(day, headers={"Accept-Language": locale[:2]}).json()
    assert copied == shared["text"] and len(copied.splitlines()[1]) == len(shared["marks"])
    page.locator("[data-share-plain]").click()
    expect(page.locator(".share-text")).to_have_text(shared["plain"])
    assert page.evaluate("() => navigator.clipboard.readText()") == shared["plain"]


def test_play_again_is_the_rematch_and_the_home_page_lists_the_games(open_page: Open) -> None:
    page = open_page("rematch")
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "versus", "level": "easy",
                                                 "rules": "farkle,target=1000"}).json()
    play_out(page, made["id"])
    page.goto(f"/play/{made['id']}")
    again = page.locator("#again")
    expect(again).to_be_visible()
    again.dblclick()  # a double tap
    page.wait_for_url("**/play/**")
    page.wait_for_function(f"() => !location.pathname.endsWith('{made['id']}')")
    new_id = page.url.rsplit("/", 1)[1]
    listed = page.request.get("/api/me/games").json()
    assert [g["id"] for g in listed["in_progress"]] == [new_id]  # one rematch, not two
    assert [g["id"] for g in listed["finished"]] == [made["id"]]
    page.goto("/")
    expect(page.locator("#games-in-progress li")).to_have_count(1)
    expect(page.locator("#games-finished li")).to_have_count(1)
