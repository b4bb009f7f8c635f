"""Reasons to come back with two players, in a real browser (chromium via Playwright, ``hotdice serve``): each
test opens two browser contexts, two devices of two players with their own cookies, on one server, on a phone
and on a desktop, in English and in French, and runs axe on every page it shows (issue 25, items 1 to 4).

What a test does not look at itself (seating, the moves of a game) goes through the API on the page's own
device, as the page's scripts would; what it checks is clicked and read on the pages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from hotdice.i18n import Translator
from hotdice.play.daily_share import EMOJI, PLAIN, DailyShare, Mark
from tests.french_support import english_left
from tests.web.test_web_browser import DESKTOP, PHONE, Open
from tests.web.test_web_browser_come_back import asked, play_out
from tests.web.test_web_phone import problems
from tests.web_support import next_intent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.parametrize("locale", ["en-US", "fr-FR"]),
    pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"]),
]

RULES = "farkle,target=500"  # short games
Seats = dict[int, Page]


def two_players(open_page: Open, viewport: dict[str, int], locale: str) -> tuple[Page, Page, Translator]:
    """Ann's and Bob's devices (named), and the words of their language."""
    pages = []
    for name in ("Ann", "Bob"):
        page = open_page(name, viewport=viewport, locale=locale)
        page.goto("/")
        asked(page, "POST", "/api/me", {"name": name})
        pages.append(page)
    return pages[0], pages[1], Translator(locale[:2])


def online_game(host: Page, guest: Page, rules: str = RULES) -> tuple[str, str, Seats]:
    """A table hosted by ``host``, joined by ``guest``, started: its code, its game and each seat's page."""
    code = asked(host, "POST", "/api/tables", {"rules": rules})["code"]
    asked(guest, "POST", f"/api/tables/{code}/join", {})
    game = asked(host, "POST", f"/api/tables/{code}/start")["game"]
    seats = {seat: page for page in (host, guest) for seat in asked(page, "GET", f"/api/games/{game}")["you"]}
    assert len(seats) == 2
    return code, game, seats


def play_turn(seats: Seats, game: str) -> dict[str, Any]:
    """The seat to act plays its turn out (the test strategy), on its own device: the view after it."""
    view: dict[str, Any] = asked(seats[0], "GET", f"/api/games/{game}")
    seat = view["to_act"]
    while view["outcome"] is None and view["to_act"] == seat:
        view = asked(seats[seat], "POST", f"/api/games/{game}/act", {"n": view["n"], **next_intent(view)})["game"]
    return view


def play_game_out(seats: Seats, game: str) -> dict[str, Any]:
    for _ in range(200):
        view = play_turn(seats, game)
        if view["outcome"] is not None:
            return view
    raise AssertionError("the game did not end")


def to_act(seats: Seats, game: str) -> tuple[Page, Page]:
    """The page whose turn it is, then the other."""
    seat = asked(seats[0], "GET", f"/api/games/{game}")["to_act"]
    return seats[seat], seats[1 - seat]


# -- 1. your games ---------------------------------------------------------------------------------------------


def test_your_games_lists_the_table_where_it_waits_then_finished_with_the_result_and_review(
        open_page: Open, viewport: dict[str, int], locale: str) -> None:
    ann, bob, t = two_players(open_page, viewport, locale)
    code, game, seats = online_game(ann, bob)
    row = f'li:has(a[href="/t/{code}"])'
    found: list[str] = []

    def listed(page: Page, waiting: bool, state: str) -> None:
        there, not_there = ("#games-waiting", "#games-in-progress")[::1 if waiting else -1]
        expect(page.locator(f"{there} {row}")).to_have_count(1)
        expect(page.locator(f"{not_there} {row}")).to_have_count(0)
        if waiting:
            expect(page.locator(f"{there} {row} .badge")).to_have_text(t("yours.your_turn"))
        expect(page.locator("#your-games-title")).to_have_text(t("yours.title"))
        found.extend(problems(page, f"{locale} {state}"))

    mover, other = to_act(seats, game)
    for page in (mover, other):
        page.goto("/")
    listed(mover, True, "home, your turn")
    listed(other, False, "home, their turn")
    play_turn(seats, game)
    for page in (mover, other):
        page.reload()
    listed(other, True, "home, your turn after a move")
    listed(mover, False, "home, their turn after a move")

    winners = play_game_out(seats, game)["outcome"]["winners"]
    for seat, page in seats.items():
        page.goto("/")
        finished = page.locator(f"#games-finished {row}")
        expect(finished).to_have_count(1)
        expect(page.locator(f"#games-in-progress {row}, #games-waiting {row}")).to_have_count(0)
        expect(finished.locator(".badge")).to_have_text(t("yours.won" if seat in winners else "yours.lost"))
        found += problems(page, f"{locale} home, finished")
        finished.get_by_role("link", name=t("yours.review")).click()
        expect(page).to_have_url(re.compile(f"/review/{game}$"))
        expect(page.locator("#review-figure")).to_be_visible(timeout=240_000)
        found += problems(page, f"{locale} review")
    assert found == []


# -- 2. rematch ------------------------------------------------------------------------------------------------


def test_an_online_rematch_offered_accepted_and_made_once_and_play_again_on_one_device(
        open_page: Open, viewport: dict[str, int], locale: str) -> None:
    ann, bob, t = two_players(open_page, viewport, locale)
    code, game, seats = online_game(ann, bob)
    play_game_out(seats, game)
    old = asked(ann, "GET", f"/api/games/{game}/record")
    found: list[str] = []
    for page in (ann, bob):
        page.goto(f"/t/{code}")
        expect(page.locator("#over #again")).to_have_text(t("over.rematch"))
    found += problems(ann, f"{locale} over")

    answers: list[tuple[int, str]] = []  # each rematch answer's status and the table it names

    def noted(route: Route) -> None:
        answer = route.fetch()
        body = answer.json()
        answers.append((answer.status, (body["rematch"] if answer.status == 409 else body)["id"]))
        route.fulfill(response=answer)

    ann.route(f"**/api/games/{game}/rematch", noted)
    ann.locator("#again").dblclick()  # a double tap
    ann.wait_for_function(f"() => location.pathname.startsWith('/t/') && location.pathname !== '/t/{code}'")
    new_code = ann.url.rsplit("/", 1)[1]
    for _ in range(50):
        if len(answers) == 2:
            break
        ann.wait_for_timeout(100)
    assert sorted(answers) == [(201, new_code), (409, new_code)]  # the second tap is told of the first's table
    expect(ann.locator("#seats li")).to_have_count(1)

    again = bob.locator("#over #again")
    expect(again).to_have_text(t("over.rematch_offered"))  # the offer reached Bob's open page
    bob.reload()
    expect(again).to_have_text(t("over.rematch_offered"))  # and a page opened since offers it too
    found += problems(bob, f"{locale} over, a rematch offered")
    again.click()
    bob.wait_for_url(f"**/t/{new_code}")
    for page in (ann, bob):
        expect(page.locator("#seats li")).to_have_count(2)  # Ann's lobby sees Bob take his seat
        expect(page.locator("#seats")).to_contain_text("Ann")
        expect(page.locator("#seats")).to_contain_text("Bob")
        found += problems(page, f"{locale} the rematch's lobby")
    ann.locator("#start").click()
    for page in (ann, bob):
        expect(page.locator("#table")).to_be_attached()  # the lobby gives way to the table
    rematch = asked(ann, "GET", f"/api/tables/{new_code}")
    assert rematch["rules"] == RULES and rematch["game"] is not None
    view = asked(bob, "GET", f"/api/games/{rematch['game']}")
    assert [p["name"] for p in view["players"]] == old["players"] and len(view["you"]) == 1  # in the old order
    assert view["current"] == (old["first"] + 1) % 2 and view["n"] == 0  # the first seat passed on

    # One device, two players: "Play again" is the rematch, the first seat passed on.
    together = asked(bob, "POST", "/api/games", {"mode": "together", "names": ["Bob", "Cleo"], "rules": RULES})
    play_out(bob, together["id"])
    first = asked(bob, "GET", f"/api/games/{together['id']}/record")["first"]
    bob.goto(f"/play/{together['id']}")
    expect(bob.locator("#over #again")).to_have_text(t("over.again"))
    bob.locator("#again").click()
    bob.wait_for_function("(old) => location.pathname.startsWith('/play/') && !location.pathname.endsWith(old)",
                          arg=together["id"])
    again_id = bob.url.rsplit("/", 1)[1]
    view = asked(bob, "GET", f"/api/games/{again_id}")
    assert [p["name"] for p in view["players"]] == ["Bob", "Cleo"] and view["rules_shown"] == RULES
    assert view["current"] == 1 - first and view["n"] == 0  # not a move made yet: Cleo starts if Bob did
    assert found == []


# -- 3. the daily's share text and streak ----------------------------------------------------------------------


def careful(view: dict[str, Any]) -> dict[str, Any]:
    """Another strategy than the test one: bank as soon as the rules let, so the two players' scores differ."""
    if view["phase"] == "set-aside":
        best = view["options"][0]
        if best["wins"]:
            return {"keep": best["set_aside"]}
        return {"keep": best["set_aside"], "then": "bank" if best["bank_refusal"] is None else "roll"}
    return {"then": "bank" if view["can_bank"] else "roll"}


def play_daily(page: Page, strategy: Any) -> dict[str, Any]:
    """Today's official daily, played out through the API on the page's device by ``strategy``."""
    view: dict[str, Any] = asked(page, "GET", f"/api/games/{asked(page, 'POST', '/api/daily')['id']}")
    while view["outcome"] is None:
        view = asked(page, "POST", f"/api/games/{view['id']}/act", {"n": view["n"], **strategy(view)})["game"]
    return view


# A phone hands the text to its share sheet (kept here); this desktop has no Web Share API: the clipboard.
SHARE_SHEET = "window.__shared = []; navigator.share = async (data) => { window.__shared.push(data.text); };"
NO_SHARE = "delete Navigator.prototype.share;"


def test_both_players_share_their_own_daily_with_the_same_par_their_rank_and_a_streak_of_one(
        open_page: Open, viewport: dict[str, int], locale: str) -> None:
    ann, bob, t = two_players(open_page, viewport, locale)
    played = {ann: play_daily(ann, next_intent)["players"][0], bob: play_daily(bob, careful)["players"][0]}
    found: list[str] = []
    pars, ranks = set(), {}
    for page in (ann, bob):
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.add_init_script(SHARE_SHEET if viewport == PHONE else NO_SHARE)
        page.goto("/daily")
        streak = page.locator("#daily-streak")
        expect(streak).to_have_text(t("daily.streak", days=t.plural("daily.streak_days", 1), best=1))
        day = page.locator("[data-share]").get_attribute("data-share")
        assert day is not None
        figures = asked(page, "GET", day)
        rank = ranks[page] = int(page.locator(".board tr.you td").first.inner_text())
        par = figures["par"]
        pars.add(par)
        expect(page.locator(".par")).to_contain_text(t("daily.par", score=t.number(par)))
        marks = [Mark(m) for m in figures["marks"]]
        assert len(marks) == played[page]["turns"]
        shared = DailyShare(day=figures["day"], score=played[page]["score"], par=par, rank=rank,
                            players=page.locator(".board tbody tr").count(), streak=1, marks=marks)

        page.locator("[data-share-text]").click()
        text = shared.text(t)
        if viewport == PHONE:
            page.wait_for_function("() => window.__shared.length > 0")
            assert page.evaluate("() => window.__shared") == [text]
        else:
            page.wait_for_function("(want) => navigator.clipboard.readText().then((held) => held === want)", arg=text)
        head, turns = text.split("\n")
        assert set(turns) <= set(EMOJI.values()) and len(turns) == len(marks)  # outcomes only, never a die
        shown = page.locator(".share-text")
        expect(shown).to_have_text(shared.plain(t))  # the form without emoji, shown
        head_shown, plain_turns, _ = shown.inner_text().split("\n")
        assert head_shown == head and set(plain_turns.split(":")[-1].split()) <= set(PLAIN.values())
        if locale == "fr-FR":
            assert english_left(shown.inner_text()) == [] and english_left(streak.inner_text()) == []
        page.locator("[data-share-plain]").click()
        found += problems(page, f"{locale} daily, shared")
    assert len(pars) == 1  # the same par for both: the computer on the same dice
    assert (ranks[ann] < ranks[bob], ranks[ann] == ranks[bob]) == (played[ann]["score"] > played[bob]["score"],
                                                                   played[ann]["score"] == played[bob]["score"])
    assert found == []


# -- 4. your turn while the tab sleeps -------------------------------------------------------------------------

# The tab's visibility as the page reads it (the test hides and shows it; a reload keeps it), and the
# notifications it shows, kept.
SLEEPY = """
  window.__hidden = sessionStorage.getItem("hidden") === "1";
  Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState",
                        { get: () => (window.__hidden ? "hidden" : "visible"), configurable: true });
  window.__notes = [];
  if ("Notification" in window) {
    const Shown = window.Notification;
    window.Notification = class extends Shown {
      constructor(title, options) { window.__notes.push(title); super(title, options); }
    };
  }
"""


def hide(page: Page, hidden: bool) -> None:
    page.evaluate("(hidden) => { window.__hidden = hidden; sessionStorage.setItem('hidden', hidden ? '1' : '0');"
                  " document.dispatchEvent(new Event('visibilitychange')); }", hidden)


def notes(page: Page) -> list[str]:
    return list(page.evaluate("() => window.__notes"))


def icon(page: Page) -> str:
    return page.locator('link[rel="icon"]').get_attribute("href") or ""


def test_a_hidden_tab_shows_your_turn_and_notifies_once_a_turn_only_with_leave(
        open_page: Open, viewport: dict[str, int], locale: str) -> None:
    ann, bob, t = two_players(open_page, viewport, locale)
    bob.context.grant_permissions(["notifications"])  # Bob said yes; Ann was never asked
    code, game, seats = online_game(ann, bob, "farkle,target=10000")  # no end within the four turns played
    found: list[str] = []
    for page in (ann, bob):
        page.context.add_init_script(SLEEPY)
        page.goto(f"/t/{code}")
        expect(page.locator("#table")).to_have_attribute("data-live", "1")
    ask = ann.locator("#notify-turns")
    expect(ask).to_have_text(t("turn.notify_ask"))  # offered, not asked on load
    assert ann.evaluate("() => Notification.permission") == "default"
    expect(bob.locator("#notify-turns")).to_be_hidden()  # already allowed
    found += problems(ann, f"{locale} table, notifications offered")
    ask.click()  # asked now, after her click; this browser refuses (a headless one without leave)
    expect(ask).to_be_hidden()
    assert ann.evaluate("() => Notification.permission") != "granted"
    plain = bob.title()

    if to_act(seats, game)[0] is bob:  # Bob's turn, his tab in view: no badge, no notification
        expect(bob.locator("#table")).to_have_attribute("data-your-turn", "1")
        play_turn(seats, game)
    expect(bob.locator("#table")).to_have_attribute("data-your-turn", "0")
    assert bob.title() == plain and notes(bob) == []
    hide(bob, True)
    hide(ann, True)
    assert bob.title() == plain and notes(bob) == []  # hidden, but not his turn
    assert ann.title().startswith(t("turn.title_badge")) and notes(ann) == []  # her turn; no leave to notify

    n = play_turn(seats, game)["n"]
    bob.wait_for_function("(n) => Number(document.getElementById('table').dataset.n) >= n", arg=n)
    assert bob.title() == f"{t('turn.title_badge')} {plain}" and "favicon-turn" in icon(bob)
    assert notes(bob) == [t("turn.notify_title")]
    expect(ann.locator("#table")).to_have_attribute("data-your-turn", "0")
    assert not ann.title().startswith(t("turn.title_badge"))
    found += problems(bob, f"{locale} table, hidden, your turn")
    hide(bob, False)
    assert bob.title() == plain and "favicon-turn" not in icon(bob)
    hide(bob, True)
    assert notes(bob) == [t("turn.notify_title")]  # the same turn: one notification

    hide(bob, False)
    play_turn(seats, game)  # Bob's turn, then Ann's while Bob looks at his tab: nothing shown
    n = play_turn(seats, game)["n"]
    bob.wait_for_function("(n) => Number(document.getElementById('table').dataset.n) >= n", arg=n)
    assert bob.title() == plain and notes(bob) == [t("turn.notify_title")]
    hide(bob, True)  # his turn, seen in view before he hid it: the badge, no notification
    assert bob.title() == f"{t('turn.title_badge')} {plain}" and notes(bob) == [t("turn.notify_title")]
    bob.reload()  # hidden on his turn from the start (a tab restored in the background)
    expect(bob.locator("#table")).to_have_attribute("data-your-turn", "1")
    assert bob.title() == f"{t('turn.title_badge')} {plain}" and "favicon-turn" in icon(bob)
    assert found == []
