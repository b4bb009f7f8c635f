"""Reasons to come back, in a real browser (chromium via Playwright, ``hotdice serve``): the daily's share
button (the clipboard where the Web Share API is absent, the plain form shown), your games on the home page
(a friend challenge received waits there until played), and "Play again" as the rematch: a double tap makes
one game."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_web_browser import DESKTOP, PHONE, Open
from tests.web.test_web_phone import problems
from tests.web_support import next_intent

pytestmark = pytest.mark.slow


def asked(page: Page, method: str, url: str, data: dict[str, Any] | None = None) -> Any:
    """The answer's JSON, waiting out the device's rate limit (Retry-After) where these fast steps reach it."""
    for _ in range(60):
        answer = page.request.fetch(url, method=method, data=data)
        if answer.status != 429:
            assert answer.ok, answer.text()
            return answer.json()
        time.sleep(float(answer.headers.get("retry-after", "1")))
    raise AssertionError(f"{url} stayed rate-limited")


def play_out(page: Page, gid: str) -> dict[str, Any]:
    """To the end through the API, on the page's own device (its cookies)."""
    view: dict[str, Any] = asked(page, "GET", f"/api/games/{gid}")
    for _ in range(2000):
        if view["outcome"] is not None:
            return view
        if view["seats"][view["to_act"]]["computer"]:
            view = asked(page, "POST", f"/api/games/{gid}/computer", {"n": view["n"]})["game"]
        else:
            view = asked(page, "POST", f"/api/games/{gid}/act", {"n": view["n"], **next_intent(view)})["game"]
    raise AssertionError("the game did not end")


def clipboard_after(page: Page, want: str, seconds: float = 10) -> str:
    """The clipboard once it holds ``want``, or as it stands after ``seconds``: a copy is written asynchronously."""
    deadline = time.monotonic() + seconds
    while True:
        held = str(page.evaluate("() => navigator.clipboard.readText()"))
        if held == want or time.monotonic() > deadline:
            return held
        page.wait_for_timeout(100)


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
    day = page.locator("[data-share]").get_attribute("data-share")
    assert day is not None
    shared = page.request.get(day, headers={"Accept-Language": locale[:2]}).json()
    copied = clipboard_after(page, shared["text"])
    assert copied == shared["text"] and len(copied.splitlines()[1]) == len(shared["marks"])
    page.locator("[data-share-plain]").click()
    expect(page.locator(".share-text")).to_have_text(shared["plain"])
    assert clipboard_after(page, shared["plain"]) == shared["plain"]  # the copy lands after the text is shown


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


HIDE = """() => {
  window.__hidden = false;
  Object.defineProperty(document, "hidden", { get: () => window.__hidden, configurable: true });
  window.__notes = [];
  window.Notification = class { constructor(title) { window.__notes.push(title); } };
  window.Notification.permission = "granted";
}"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(f"() => {{ window.__hidden = {str(hidden).lower()};"
                  " document.dispatchEvent(new Event('visibilitychange')); }")


def test_a_hidden_tab_shows_your_turn_in_its_title_and_icon_and_notifies_once_a_turn(open_page: Open) -> None:
    alice, bob = open_page("alice"), open_page("bob")
    alice.goto("/")
    code = alice.request.post("/api/tables", data={"rules": "farkle,target=1000"}).json()["code"]
    bob.goto("/")
    assert bob.request.post(f"/api/tables/{code}/join", data={"name": "Bob"}).ok
    game_id = alice.request.post(f"/api/tables/{code}/start").json()["game"]
    for page in (alice, bob):
        page.goto(f"/t/{code}")
        page.evaluate(HIDE)
    view = alice.request.get(f"/api/games/{game_id}").json()
    mover, other = (alice, bob) if view["to_act"] in view["you"] else (bob, alice)
    plain = other.title()
    set_hidden(other, True)
    assert other.title() == plain and other.evaluate("() => window.__notes") == []  # not their turn
    set_hidden(mover, False)
    assert not mover.title().startswith("(your turn)")  # visible: no badge, no notification
    assert mover.evaluate("() => window.__notes") == []
    while (view := mover.request.get(f"/api/games/{game_id}").json())["to_act"] in view["you"]:
        assert mover.request.post(f"/api/games/{game_id}/act", data={"n": view["n"], **next_intent(view)}).ok
    other.wait_for_function("() => document.title.startsWith('(your turn)')")
    assert "favicon-turn" in (other.locator('link[rel="icon"]').get_attribute("href") or "")
    assert other.evaluate("() => window.__notes") == ["Your turn"]
    set_hidden(other, False)
    assert other.title() == plain
    assert "favicon-turn" not in (other.locator('link[rel="icon"]').get_attribute("href") or "")
    set_hidden(other, True)
    assert other.evaluate("() => window.__notes") == ["Your turn"]  # the same turn: one notification


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_new_parts_fit_and_pass_axe_in_both_languages(open_page: Open, viewport: dict[str, int]) -> None:
    page = open_page("axe", viewport=viewport)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/")
    versus = page.request.post("/api/games", data={"mode": "versus", "level": "easy",
                                                   "rules": "farkle,target=1000"}).json()
    play_out(page, versus["id"])
    page.request.post("/api/games", data={"mode": "solo"})
    play_out(page, page.request.post("/api/daily").json()["id"])
    code = page.request.post("/api/tables", data={}).json()["code"]
    found: list[str] = []
    for lang in ("fr", "en"):
        page.goto(f"/lang/{lang}?next=/")
        expect(page.locator("#your-games")).to_be_visible()
        found += problems(page, f"{lang} home")
        page.goto("/daily")
        page.locator("[data-share-plain]").click()
        expect(page.locator(".share-text")).to_be_visible()
        found += problems(page, f"{lang} daily shared")
        page.goto("/stats")
        found += problems(page, f"{lang} stats")
        page.goto(f"/play/{versus['id']}")
        expect(page.locator("#again")).to_be_visible()
        found += problems(page, f"{lang} over")
        page.goto(f"/t/{code}")
        found += problems(page, f"{lang} lobby")
    assert found == []


def test_the_installed_apps_icon_counts_the_games_waiting(open_page: Open) -> None:
    page = open_page("badge")
    page.context.add_init_script("""
      window.__badges = [];
      navigator.setAppBadge = async (n) => { window.__badges.push(n); };
      navigator.clearAppBadge = async () => { window.__badges.push(0); };
    """)
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "solo"}).json()
    page.goto("/")
    expect(page.locator("#your-games h3").first).to_contain_text("1")  # today's daily waits
    assert page.evaluate("() => window.__badges") == [1]
    play_out(page, page.request.post("/api/daily").json()["id"])
    page.goto("/")
    assert page.evaluate("() => window.__badges") == [0]
    assert made["id"] in page.locator("#games-in-progress").inner_html()


RECEIVED = {"en-US": ("received", "Play"), "fr-FR": ("reçu", "Jouer")}


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_friend_challenge_received_waits_for_its_player_until_played(
        open_page: Open, viewport: dict[str, int], locale: str) -> None:
    alice = open_page("alice", viewport=viewport, locale=locale)
    bob = open_page("bob", viewport=viewport, locale=locale)
    alice.goto("/")
    alice.locator("[data-challenge-new] [type=submit]").click()
    alice.wait_for_url("**/c/*")
    code = alice.locator("#challenge-code").inner_text()
    bob.goto("/")
    with bob.expect_response("**/api/me"):  # a name saved: Bob is a player on this device
        bob.locator("#me-name").fill("Bob")
        bob.locator("#me-form [type=submit]").click()
    bob.goto(f"/c/{code}")  # the link Alice shares
    expect(bob.locator(f'[data-post="/api/challenges/{code}/play"]')).to_be_visible()
    bob.goto("/")
    received, play = RECEIVED[locale]
    entry = bob.locator("#games-waiting li", has=bob.locator(f'a[href="/c/{code}"]'))
    expect(entry).to_contain_text(code)
    expect(entry.locator(".badge")).to_have_text(received)
    assert problems(bob, f"{locale} home, a challenge received") == []
    entry.get_by_role("link", name=play, exact=True).click()
    bob.wait_for_url(f"**/c/{code}")
    bob.locator(f'[data-post="/api/challenges/{code}/play"]').click()
    bob.wait_for_url("**/play/**")
    played = play_out(bob, bob.url.rsplit("/", 1)[1])
    bob.goto("/")
    expect(bob.locator("#games-finished li")).to_have_count(1)
    expect(bob.locator(f'#your-games a[href="/play/{played["id"]}"]').first).to_be_visible()
    expect(bob.locator(f'#your-games a[href="/c/{code}"]')).to_have_count(0)
    alice.goto("/")
    expect(alice.locator(f'#your-games a[href="/c/{code}"]')).to_have_count(0)  # hers: made, not received
