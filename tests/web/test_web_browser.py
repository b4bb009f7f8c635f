"""The web app in a real browser: Debian's chromium driven by Playwright, against ``hotdice serve`` running
as a real process on a free loopback port, with its own SQLite file.

Every click is a person's click (or key): the tests read the game's state from the API only to decide what
to do and to wait until the page shows it. Screenshots of every open page are kept when a test fails (the
folder, by default hotdice-web-failures in the temporary folder, is printed; ``HOTDICE_WEB_SCREENSHOTS``
chooses another). Needs ``apt-get install -y chromium`` and ``pip install playwright``: a missing browser
fails these tests, it never skips them.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Response, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from hotdice.game.record import Record
from hotdice.store import DB_FILE
from tests.analysis.test_background import fresh_rules
from tests.french_support import english_left
from tests.web_servers import free_port, wait_up
from tests.web_support import next_intent

CHROMIUM = os.environ.get("HOTDICE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
DAILY_KEY = "browser tests' daily key"
# Each refusal of the page's Content-Security-Policy, as the page's own event reports it (a listener the browser
# adds before the page's scripts: the policy does not apply to it), on the console.
REPORT_CSP = """document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || "inline code"}`));"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hotdice serve`` in its own process, on a free port, with a fresh data folder."""
    port = free_port()
    data = tmp_path_factory.mktemp("web-data")
    # The tests ask the API for the game on the page's own device at every action, on top of what the page
    # asks, and click as fast as the page answers: twice a player's requests, at a pace no player keeps. The
    # device's limit is raised to match (the limits themselves: test_web_limits.py).
    env = {**os.environ, "HOTDICE_DATA_DIR": str(data), "HOTDICE_DAILY_KEY": DAILY_KEY,
           "HOTDICE_RATE_PLAYER": "20/s burst 80"}
    env.pop("HOTDICE_DATABASE_URL", None)
    log = (data / "server.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "hotdice.cli", "serve", "--port", str(port)], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_up(port, process)
        except (RuntimeError, TimeoutError) as exc:
            raise RuntimeError(f"hotdice serve did not start ({exc}): {(data / 'server.log').read_text()}") from None
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no chromium at {CHROMIUM}: apt-get install -y chromium (these tests are not skipped)")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield browser
    browser.close()


Open = Callable[..., Page]


@pytest.fixture
def open_page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Open]:
    """Open a page in a new browser context (a new device); screenshots of them all if the test fails."""
    contexts: list[tuple[str, BrowserContext, Page]] = []
    failed_before = request.session.testsfailed

    def open_(name: str = "device", viewport: dict[str, int] | None = None, motion: str = "reduce",
              locale: str = "en-US") -> Page:
        context = browser.new_context(viewport=viewport or DESKTOP, base_url=server, reduced_motion=motion,  # type: ignore[arg-type]
                                      locale=locale, has_touch=viewport == PHONE)
        context.set_default_timeout(30_000)  # generous: a loaded 2-core machine
        context.add_init_script(REPORT_CSP)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors  # type: ignore[attr-defined]
        violations: list[str] = []  # the event's reports and chromium's own ("... Content Security Policy ...")
        page.on("console", lambda message: violations.append(message.text)
                if "CSP violation" in message.text or "Content Security Policy" in message.text else None)
        page.csp_violations = violations  # type: ignore[attr-defined]
        contexts.append((name, context, page))
        return page

    yield open_
    if request.session.testsfailed > failed_before:
        folder = Path(os.environ.get("HOTDICE_WEB_SCREENSHOTS") or Path(tempfile.gettempdir()) / "hotdice-web-failures")
        folder.mkdir(parents=True, exist_ok=True)
        for i, (name, _, page) in enumerate(contexts):
            try:
                page.screenshot(path=str(folder / f"{request.node.name}-{i}-{name}.png"), full_page=True)
            except Exception as exc:  # a crashed page: keep what the others show
                print(f"no screenshot of {name}: {exc}")
        print(f"\nscreenshots of the failed test: {folder}")
    for _, context, page in contexts:
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        assert not page.csp_violations, page.csp_violations  # type: ignore[attr-defined]  # every page, every test
        context.close()


# -- playing through the page ---------------------------------------------------------------------------------


def game_id(page: Page) -> str:
    match = re.search(r"/play/([\w-]+)", page.url)
    if match:
        return match.group(1)
    embedded = page.evaluate("() => JSON.parse(document.getElementById('view').textContent).id")
    return str(embedded)


def api_view(page: Page, gid: str) -> dict[str, Any]:
    try:
        answer = page.request.get(f"/api/games/{gid}")
    except PlaywrightError as exc:
        # A kept-alive connection the server closed as it was reused (uvicorn closes idle ones after 5 s):
        # a browser sends an idempotent GET again, and so does this.
        if "ECONNRESET" not in str(exc):
            raise
        answer = page.request.get(f"/api/games/{gid}")
    assert answer.ok, answer.text()
    view = answer.json()
    assert isinstance(view, dict)
    return view


def shows(page: Page, n: int) -> int:
    """Wait until the page shows the game at action number n or later (the computer may have moved on)."""
    page.wait_for_function(f"() => Number(document.getElementById('table')?.dataset.n) >= {n}")
    return int(page.evaluate("() => Number(document.getElementById('table').dataset.n)"))


def act_once(page: Page, view: dict[str, Any], keyboard: bool = False, best: bool = False) -> int:
    """One intent of the test strategy, by tapping the dice and pressing Roll or Bank (or keys); ``best``: its
    set-aside (the best-points one) by one tap on the best set-aside's button (or key A), then Roll or Bank.
    Returns the action number the page passes once the last of it is shown."""
    intent = next_intent(view)
    if best and "keep" in intent:
        option = view["options"][0]
        assert intent["keep"] == view["best"] == option["set_aside"]
        button = page.locator("#best")
        expect(button).to_have_text(f"Best: {' '.join(option['set_aside'])} (+{option['points']:,})")
        if keyboard:
            page.keyboard.press("a")
        else:
            button.click()
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
        expect(button).to_be_hidden()  # set aside: the dice are in the tray, the roll or the bank follows
        if "then" not in intent:
            return  # the set-aside reached the exact target: won
    elif "keep" in intent:
        taken: list[int] = []
        for face in intent["keep"]:
            index = next(i for i, f in enumerate(view["roll"]) if f == int(face) and i not in taken)
            taken.append(index)
            if keyboard:
                page.keyboard.press(str(index + 1))
            else:
                page.locator(f'#dice button.die[data-index="{index}"]').click()
            expect(page.locator(f'#dice button.die[data-index="{index}"]')).to_have_attribute("aria-pressed", "true")
    button = page.locator("#bank" if intent.get("then", "bank") == "bank" else "#roll")
    expect(button).to_be_enabled()
    if keyboard:
        page.keyboard.press("b" if intent.get("then", "bank") == "bank" else "r")
    else:
        button.click()
    # The action number the page must pass before the next view is read: after the best set-aside (already
    # shown), the roll or bank that follows it.
    return view["n"] + 1 if best and "keep" in intent else view["n"]


def play(page: Page, gid: str, *, keyboard: bool = False, best: bool = False, limit: int = 600) -> dict[str, Any]:
    """Play the page's seats to the end of the game (the computer plays its own, step by step)."""
    for _ in range(limit):
        view = api_view(page, gid)
        if shows(page, view["n"]) > view["n"]:
            continue  # the page is ahead: the computer has played on
        if view["outcome"] is not None:
            expect(page.locator("#over")).to_be_visible()
            return view
        if view["to_act"] not in view["you"]:
            # The computer, or another device, is playing: wait for the page to show it, without asking the API
            # (polling it here, on the page's own device, ran into the device's rate limit once answers were quick).
            shows(page, view["n"] + 1)
            continue
        shown = act_once(page, view, keyboard, best)
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {shown}")
    raise AssertionError("the game did not end")


def set_rules(page: Page, rules: str) -> None:
    assert page.request.post("/api/me", data={"rules": rules}).ok


# -- the tests -------------------------------------------------------------------------------------------------


def test_a_whole_game_against_the_computer(open_page: Open) -> None:
    page = open_page("player", motion="no-preference")
    page.goto("/")
    set_rules(page, "farkle,target=1500")
    page.get_by_role("button", name="Easy").click()
    page.wait_for_url("**/play/**")
    expect(page.locator("#scores li")).to_have_count(2)
    expect(page.locator("#scores")).to_contain_text("Computer (Easy)")
    gid = game_id(page)
    steps_seen = set()
    page.on("request", lambda r: steps_seen.add(r.url) if r.url.endswith("/computer") else None)
    final = play(page, gid, keyboard=True)
    assert final["outcome"]["termination"] == "target"
    assert steps_seen  # the computer's turns came one step at a time
    shared = len(final["outcome"]["winners"]) == 2  # equal scores after the last round share the win
    expect(page.locator("#over-title")).to_have_text(
        "Player & Computer (Easy) share the win" if shared else re.compile(r"You win!|Computer \(Easy\) wins"))
    expect(page.locator("#log")).to_contain_text("Computer (Easy) rolls")
    for player in final["players"]:  # no penalty under these rules: each one's last bank left the final score
        if player["score"]:
            banks = page.locator("#log li.bank", has_text=f"{player['name']} banks")
            expect(banks.last).to_have_text(re.compile(rf"→ {player['score']:,}$"))
    page.goto("/stats")
    expect(page.locator(".tile").first).to_contain_text("1")
    expect(page.locator("svg.chart")).to_have_count(2)


def test_hard_shows_how_far_it_has_worked_out_new_rules(open_page: Open) -> None:
    page = open_page("player")
    page.goto("/")
    set_rules(page, str(fresh_rules("farkle,target=6000")))  # unsolved, seconds to solve
    page.get_by_role("button", name="Hard").click()
    page.wait_for_url("**/play/**")
    line = page.locator("#solver-line")
    expect(line).to_contain_text(re.compile(r"Hard is working out these rules: \d+\.\d\u202f%"), timeout=5_000)
    expect(line).to_contain_text("plays for expected points")
    expect(line).to_be_hidden(timeout=120_000)  # asked again every second until the table is ready
    assert api_view(page, game_id(page))["solver"]["state"] == "ready"


def test_hard_waits_for_its_exact_play_if_the_player_chose_it(open_page: Open) -> None:
    page = open_page("player")
    page.goto("/")
    expect(page.locator("#versus-wait")).to_have_count(0)  # a table at hand: Hard plays exactly at once
    set_rules(page, str(fresh_rules("farkle,target=8000")))  # unsolved: longer to solve than the player's turn
    page.goto("/")
    page.get_by_label("Hard waits for its exact play").check()
    page.get_by_role("button", name="Hard").click()
    page.wait_for_url("**/play/**")
    gid = game_id(page)
    line = page.locator("#solver-line")
    expect(line).to_contain_text(re.compile(r"Hard is working out these rules: \d+\.\d\u202f%"), timeout=5_000)
    expect(line).to_contain_text("it waits for its exact play")
    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/computer") else None)
    view = api_view(page, gid)
    assert view["seats"][1]["wait"]
    while view["to_act"] == 0 and view["outcome"] is None:  # the player's own turn is not held
        act_once(page, view)
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
        view = api_view(page, gid)
    assert view["outcome"] is None
    expect(line).to_contain_text("it waits for its exact play")  # the computer's turn, its table still pending
    expect(line).to_be_hidden(timeout=240_000)  # the computer's step asked again every second until then
    shows(page, view["n"] + 1)  # then Hard plays
    waited = [a.json() for a in answers if a.json().get("waiting")]
    assert waited and all(w["game"]["n"] == view["n"] for w in waited)  # no move while it waited


def test_a_pass_and_play_game_of_three(open_page: Open) -> None:
    page = open_page()
    page.goto("/")
    set_rules(page, "farkle,target=1000")
    page.reload()
    form = page.locator('[data-names-form="together"]')
    form.locator("input").nth(0).fill("Ann")
    form.locator("input").nth(1).fill("Ben")
    form.get_by_role("button", name="+ Player").click()
    form.locator("input").nth(2).fill("Cy")
    form.get_by_label("Roll a die for who starts").check()
    form.get_by_role("button", name="Start").click()
    page.wait_for_url("**/play/**")
    expect(page.locator("#scores li")).to_have_count(3)
    expect(page.locator("#roll-off")).to_contain_text("starts")
    final = play(page, game_id(page))
    assert len(final["players"]) == 3 and final["outcome"] is not None
    expect(page.locator("#final li")).to_have_count(3)


def test_the_coach_words_the_hints_facts_and_picks_its_dice(open_page: Open) -> None:
    """The hint box words the typed answer of /hint (set-aside, then, value in its measure) and its button picks
    the best choice's dice on the table."""
    page = open_page()
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "solo", "rules": "farkle"})
    page.goto(made.json()["url"])
    gid = game_id(page)
    view = api_view(page, gid)
    while view["phase"] != "set-aside":  # rolled until the roll scores (a farkle: the next turn)
        page.locator("#roll").click()
        shows(page, view["n"] + 1)  # the roll answered: read before, the view could be the one before it
        view = api_view(page, gid)
        shows(page, view["n"])
    page.locator("#hint").click()
    expect(page.locator("#hint-box")).to_be_visible()
    hint = page.request.get(f"/api/games/{gid}/hint").json()
    best = hint["choices"][0]
    assert hint["measure"] == "points" and best["set_aside"] is not None
    said = f"set aside {' '.join(best['set_aside'])}, then {best['then']} — {round(best['value']):,} points expected"
    expect(page.locator("#hint-box li").first).to_have_text(said)
    expect(page.locator("#hint-box li")).to_have_count(min(4, len(hint["choices"])))
    page.locator("#hint-use").click()
    expect(page.locator('#dice button.die[aria-pressed="true"]')).to_have_count(len(best["set_aside"]))
    picked = page.locator('#dice button.die[aria-pressed="true"]').evaluate_all("(b) => b.map((d) => d.dataset.face)")
    assert "".join(sorted(picked)) == best["set_aside"]


def test_the_daily_game_then_a_second_unofficial_attempt(open_page: Open) -> None:
    page = open_page()
    page.goto("/")
    page.get_by_label("Your name").fill("Dee")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#toast")).to_contain_text("Hello, Dee!")
    page.get_by_role("button", name="Play today's game").click()
    page.wait_for_url("**/play/**")
    expect(page.locator(".table-title")).to_contain_text("Daily game")
    expect(page.locator("#hint")).to_be_hidden()  # no coach where scores are compared
    first = play(page, game_id(page))
    with page.expect_download() as download:  # the record, as `hotdice verify` reads it
        page.get_by_role("link", name="Download the record").click()
    record = Record.from_json(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record.seed is None and record.result.scores == (first["players"][0]["score"],)  # key not yet revealed
    page.get_by_role("link", name="Leaderboard and par").click()
    expect(page.locator("table.board")).to_contain_text("Dee")
    expect(page.locator("#commitment")).to_have_text(re.compile(r"[0-9a-f]{64}"))
    expect(page.locator(".par")).to_contain_text("Par: the computer scored")
    expect(page.locator(".attempts li")).to_have_count(1)
    expect(page.locator(".attempts")).to_contain_text(f"{first['players'][0]['score']:,}")
    page.get_by_role("button", name="Play again (unofficial)").click()
    page.wait_for_url("**/play/**")
    expect(page.locator(".table-title")).to_contain_text("unofficial")
    play(page, game_id(page), keyboard=True, best=True)
    page.goto("/daily")
    expect(page.locator(".attempts li")).to_have_count(2)
    expect(page.locator(".attempts li").nth(1)).to_contain_text("unofficial")
    expect(page.locator("table.board tbody tr")).to_have_count(1)  # the unofficial one is not on the board


def test_a_friend_challenge_played_by_two_browsers(open_page: Open) -> None:
    host = open_page("host")
    host.goto("/")
    host.get_by_label("Your name").fill("Hana")
    host.get_by_role("button", name="Save").click()
    expect(host.locator("#toast")).to_be_visible()
    host.locator("#challenge-preset").select_option("5000")
    host.get_by_role("button", name="Create").click()
    host.wait_for_url(re.compile(r"/c/[0-9A-Z]{5}-[0-9A-Z]{5}$"))
    code = host.locator("#challenge-code").inner_text()
    link = host.locator("#share-link").input_value()
    assert link.endswith(f"/c/{code}")
    friend = open_page("friend")
    friend.goto("/")
    friend.get_by_label("Your name").fill("Femi")
    friend.get_by_role("button", name="Save").click()
    expect(friend.locator("#toast")).to_be_visible()
    friend.locator("#challenge-code").fill(code.lower().replace("-", ""))
    friend.locator("[data-code-form='/c/'] button").click()
    friend.get_by_role("button", name="Play the challenge").click()
    friend.wait_for_url("**/play/**")
    expect(friend.locator(".table-title")).to_contain_text(code)
    played = {"friend": play(friend, game_id(friend))}
    host.get_by_role("button", name="Play the challenge").click()
    host.wait_for_url("**/play/**")
    played["host"] = play(host, game_id(host), best=True)  # the same dice, each set-aside by the best button
    assert played["host"]["players"][0]["score"] == played["friend"]["players"][0]["score"]
    host.get_by_role("link", name="See the results").click()
    board = host.locator("#ranking")
    expect(board).to_contain_text("Hana")
    expect(board).to_contain_text("Femi")
    friend.goto(f"/c/{code}/results")
    expect(friend.locator("#ranking tr.you")).to_contain_text("Femi")
    host.get_by_role("button", name="Close the challenge now").click()
    expect(host.locator("#dice-key")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    revealed = bytes.fromhex(host.locator("#dice-key").inner_text())
    assert host.locator("#commitment").inner_text() == hashlib.sha256(revealed).hexdigest()  # the key promised


def test_a_challenge_closed_mid_game_lets_it_finish_then_ends_it_on_the_page(
        open_page: Open, tmp_path_factory: pytest.TempPathFactory) -> None:
    host = open_page("host")
    host.goto("/")
    made = host.request.post("/api/challenges", data={"preset": "farkle"}).json()
    player = open_page("player")
    player.goto(f"/c/{made['code']}")
    player.get_by_role("button", name="Play the challenge").click()
    player.wait_for_url("**/play/**")
    gid = game_id(player)
    view = api_view(player, gid)
    act_once(player, view)
    shows(player, view["n"] + 1)
    assert host.request.post(f"/api/challenges/{made['code']}/close").ok  # no new attempt; this one goes on
    host.goto(f"/c/{made['code']}/results")
    expect(host.locator("#reveal")).to_contain_text("Attempts under way may finish until")
    expect(host.locator("#dice-key")).to_have_count(0)
    player.reload()
    expect(player.locator("#over")).to_be_hidden()
    expect(player.locator("#finish-by")).to_contain_text("closed: finish by ")  # the grace deadline, shown
    view = api_view(player, gid)
    act_once(player, view)  # played on after the close
    shows(player, view["n"] + 1)
    # The grace deadline passes (the close moved 24 hours back in the server's database): the key is revealed.
    database = next(tmp_path_factory.getbasetemp().glob(f"web-data*/{DB_FILE}"))
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE web_challenges SET closes_at = ? WHERE code = ?",
                           ((datetime.now(UTC) - timedelta(hours=25)).strftime("%Y-%m-%d %H:%M:%S.%f"), made["code"]))
    player.reload()
    at = api_view(player, gid)["outcome"]["at"]
    expect(player.locator("#over")).to_contain_text(f"Ended unfinished: the key was revealed at {at[11:16]} UTC")
    expect(player.locator("#record")).to_be_visible()  # the record, to download
    expect(player.locator("#roll")).to_be_disabled()
    host.goto(f"/c/{made['code']}/results")
    expect(host.locator("#reveal")).to_contain_text("the grace deadline passed")
    expect(host.locator("#dice-key")).to_be_visible()


def test_an_online_table_of_two_browsers_playing_live(open_page: Open) -> None:
    host = open_page("host")
    host.goto("/")
    set_rules(host, "farkle,target=1000")
    host.get_by_label("Your name").fill("Ada")
    host.get_by_role("button", name="Save").click()
    expect(host.locator("#toast")).to_be_visible()
    host.get_by_role("button", name="Host a table").click()
    host.wait_for_url(re.compile(r"/t/[0-9A-Z]{6}$"))
    code = host.url.rsplit("/", 1)[1]
    guest = open_page("guest", viewport=PHONE)
    guest.goto("/")
    guest.locator("#table-code").fill(code.lower())
    guest.get_by_role("button", name="Join").click()
    guest.wait_for_url(f"**/t/{code}")
    guest.locator("#join-name").fill("Bea")
    guest.get_by_role("button", name="Sit down").click()
    expect(host.locator("#seats")).to_contain_text("Bea")  # the host's lobby hears of it live
    host.get_by_role("button", name="Start the game").click()
    expect(guest.locator("#table")).to_be_attached()  # the guest's lobby turns into the table by itself
    expect(host.locator("#table")).to_be_attached()
    watcher = open_page("watcher")
    watcher.goto(f"/t/{code}")
    expect(watcher.locator("#scores")).to_contain_text("Ada")
    gid = game_id(host)
    seats = {0: host, 1: guest}
    for _ in range(400):
        view = api_view(host, gid)
        for page in (host, guest, watcher):
            shows(page, view["n"])  # every screen is up to date, without reloading
        if view["outcome"] is not None:
            break
        mover = seats[view["to_act"]]
        expect(seats[1 - view["to_act"]].locator("#roll")).to_be_disabled()
        act_once(mover, view)
        mover.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
    else:
        raise AssertionError("the game did not end")
    for page in (host, guest, watcher):
        expect(page.locator("#over")).to_be_visible()
    # A player who drops and comes back finds the game as it is.
    guest.reload()
    expect(guest.locator("#over")).to_be_visible()


def test_changing_house_rules(open_page: Open) -> None:
    page = open_page()
    page.goto("/rules")
    page.locator("#preset").select_option("5000")
    expect(page.locator("#rules-text")).to_have_value("5000")
    expect(page.locator("#knob-dice")).to_have_value("5")
    page.locator("#knob-entry").fill("500")
    page.locator("#knob-entry").dispatch_event("change")
    expect(page.locator("#rules-text")).to_have_value("5000,entry=500")
    page.locator("#rules-text").fill("5000,entry=-50")
    expect(page.locator("#rules-error")).to_contain_text("entry")
    page.locator("#rules-text").fill("5000,three_pairs=750")  # the engine's refusal, worded by the page
    expect(page.locator("#rules-error")).to_contain_text("three pairs needs six dice")
    page.locator("#rules-text").fill("5000,entry=500,three_farkles=1000")
    expect(page.locator("#knob-three_farkles")).to_have_value("1000")
    expect(page.locator("#rules-error")).to_be_hidden()
    page.get_by_role("button", name="Use these rules for my games").click()
    expect(page.locator("#saved")).to_contain_text("5000,entry=500,three_farkles=1000")
    page.goto("/")
    expect(page.locator(".me .rules-string")).to_have_text("5000,entry=500,three_farkles=1000")
    page.get_by_role("button", name="Race to 5,000").click()
    page.wait_for_url("**/play/**")
    expect(page.locator("#rules-string")).to_have_text("5000,entry=500,three_farkles=1000")
    expect(page.locator("#dice .die.ghost")).to_have_count(5)
    page.get_by_role("button", name="Roll 5").click()
    expect(page.locator("#log")).to_contain_text("Player rolls")


def test_the_french_interface(open_page: Open) -> None:
    page = open_page(locale="fr-FR")
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Lancez les dés, tentez votre chance.")  # from Accept-Language
    page.get_by_role("link", name="English").click()
    expect(page.locator("h1")).to_have_text("Roll the dice, push your luck.")
    page.get_by_role("link", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("button", name="Dix tours").click()
    page.wait_for_url("**/play/**")
    expect(page.locator("#turn-line")).to_contain_text("À vous de jouer")
    page.get_by_role("button", name="Lancer 6").click()
    expect(page.locator("#log")).to_contain_text("Manche 1")
    expect(page.locator("#log")).to_contain_text("Joueur lance")
    page.goto("/rules")
    expect(page.locator("legend")).to_have_text("Règles maison")


def test_a_game_started_in_english_is_all_french_in_french(open_page: Open) -> None:
    """The default names are codes: the same game shown in French names its players in French."""
    page = open_page()
    page.goto("/")
    set_rules(page, "farkle")
    page.get_by_role("button", name="Easy").click()
    page.wait_for_url("**/play/**")
    page.get_by_role("button", name="Roll 6").click()
    expect(page.locator("#log")).to_contain_text("Player rolls")
    path = page.evaluate("location.pathname")
    page.goto(f"/lang/fr?next={path}")
    expect(page.locator("#scores")).to_contain_text("L’ordinateur (Facile)")
    expect(page.locator("#log")).to_contain_text("Joueur lance")
    text = page.evaluate("document.body.innerText")
    for english in ("Player", "Computer", "Easy", "rolls"):
        assert english not in text, english


def test_every_page_and_table_state_in_french_shows_no_english_message(open_page: Open) -> None:
    """Each page and each state of the table the other tests reach, shown in French, holds no piece of an English
    catalogue message that French words otherwise (names and rules strings apart: they fill placeholders)."""
    page = open_page("french", locale="fr-FR")
    english: dict[str, list[str]] = {}

    def seen(state: str) -> None:
        page.wait_for_load_state()
        found = english_left(page.evaluate("document.body.innerText"))
        if found:
            english[state] = found

    page.goto("/")
    seen("home")
    page.locator("#me-name").fill("   ")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#toast")).to_be_visible()
    seen("toast: an empty name")
    page.goto("/rules")
    seen("rules")
    page.locator("#rules-text").fill("farkle,entry=123")
    expect(page.locator("#rules-error")).to_be_visible()
    seen("rules: a refused rules string")
    set_rules(page, "farkle,target=1500")
    page.goto("/")
    page.get_by_role("button", name="Facile").click()
    page.wait_for_url("**/play/**")
    gid = game_id(page)
    states: set[str] = set()
    for _ in range(600):
        view = api_view(page, gid)
        if shows(page, view["n"]) > view["n"]:
            continue
        kinds = {e["kind"] for e in view["events"]}
        state = "game over" if view["outcome"] is not None else "farkle" if "farkle" in kinds else "rolling"
        seen(state)
        states.add(state)
        if view["outcome"] is not None:
            break
        if view["to_act"] not in view["you"]:
            shows(page, view["n"] + 1)
            continue
        if view["roll"] and "refusal shown" not in states:
            roll = view["roll"]
            dead = next((i for i, f in enumerate(roll) if f in (2, 3, 4, 6) and roll.count(f) < 3), None)
            if dead is not None:
                die = page.locator(f'#dice button.die[data-index="{dead}"]')
                die.click()
                expect(page.locator("#selection .bad")).to_be_visible()
                seen("refusal shown")
                states.add("refusal shown")
                die.click()
        if view["roll"] and "set aside chosen" not in states:
            scoring = next((i for i, f in enumerate(view["roll"]) if f in (1, 5)), None)
            if scoring is not None:
                die = page.locator(f'#dice button.die[data-index="{scoring}"]')
                die.click()
                expect(die).to_have_attribute("aria-pressed", "true")
                seen("set aside chosen")
                states.add("set aside chosen")
                die.click()
        act_once(page, view)
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
    assert {"rolling", "set aside chosen", "refusal shown", "game over"} <= states, states
    for address, state in (("/stats", "stats"), ("/daily", "daily"), ("/training", "training"),
                           ("/play/AAAAAAAAAAAAAAAA", "error: no game"), ("/c/00000-00000", "error: challenge typo"),
                           ("/t/ZZZZZZ", "error: no table"), ("/nowhere", "error: nothing here")):
        page.goto(address)
        seen(state)
    code = page.request.post("/api/challenges", data={"preset": "farkle"}).json()["code"]
    page.goto(f"/c/{code}")
    seen("challenge")
    page.goto(f"/c/{code}/results")
    seen("challenge results")
    table = page.request.post("/api/tables", data={}).json()["code"]
    page.goto(f"/t/{table}")
    seen("lobby")
    assert english == {}


def test_a_phone_sized_screen(open_page: Open) -> None:
    page = open_page(viewport=PHONE, motion="no-preference")
    page.goto("/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Ten turns").click()
    page.wait_for_url("**/play/**")
    gid = game_id(page)
    for _ in range(6):
        view = api_view(page, gid)
        shows(page, view["n"])
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for button in ("#roll", "#bank"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 44
        act_once(page, view)
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
    dice = page.locator("#dice .die")
    for i in range(dice.count()):
        box = dice.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] >= 40  # big enough to tap
    play(page, gid)
    expect(page.locator("#over")).to_be_visible()


def test_every_page_works_under_the_content_security_policy_which_refuses_injected_code(open_page: Open) -> None:
    """The pages run with script-src 'self' and style-src 'self' (the fixture fails a test at any violation);
    code injected into a page, as an XSS would, is refused and reported."""
    page = open_page()
    for path, shown in [("/", "#me-form"), ("/daily", "main h1"), ("/stats", "main h1"),
                        ("/rules", "#scoring tbody tr"), ("/play/nope", "main h1")]:
        page.goto(path)
        expect(page.locator(shown).first).to_be_visible()
    page.goto("/training")
    expect(page.locator("#quiz-dice .die").first).to_be_visible()  # drawn by training.js from the API
    page.locator("#drill-roll").click()
    expect(page.locator("#drill-state")).not_to_be_empty()
    assert not page.csp_violations  # type: ignore[attr-defined]
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.injected = 'script'";
        document.body.append(script);
        document.body.insertAdjacentHTML("beforeend",
          '<img src="/static/none" onerror="window.injected = \\'handler\\'">');
        document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: rgb(1, 2, 3)">x</p>');
    }""")
    page.wait_for_function("() => document.querySelector('img[src=\"/static/none\"]').complete")
    assert page.evaluate("() => window.injected") is None
    assert page.evaluate("() => getComputedStyle(document.getElementById('styled')).color") != "rgb(1, 2, 3)"
    for _ in range(100):  # the console messages come after the page's work: wait for the three of them
        seen = " ".join(page.csp_violations)  # type: ignore[attr-defined]
        if all(directive in seen for directive in ("script-src-elem", "script-src-attr", "style-src-attr")):
            break
        page.wait_for_timeout(100)
    assert "script-src-elem" in seen and "script-src-attr" in seen and "style-src-attr" in seen, seen
    page.csp_violations.clear()  # type: ignore[attr-defined]  # the ones this test made on purpose


def test_a_form_on_another_sites_page_cannot_act_for_the_player(open_page: Open, server: str) -> None:
    """The page of another origin on the same site (here another port of the host; a sibling subdomain in
    production) gets the player's SameSite=Lax cookie sent with its form: before the Origin check, its POST
    closed the player's challenge."""
    page = open_page("player")
    page.goto("/")
    made = page.request.post("/api/challenges", data={"preset": "farkle"})
    assert made.ok, made.text()
    code = made.json()["code"]
    elsewhere = f"http://127.0.0.1:{free_port()}"
    form = (f'<form method="post" action="{server}/api/challenges/{code}/close"></form>'
            "<script>document.forms[0].submit()</script>")
    page.route(f"{elsewhere}/**", lambda route: route.fulfill(content_type="text/html", body=form))
    with page.expect_response(f"{server}/api/challenges/{code}/close") as answer:
        page.goto(elsewhere + "/")
    assert answer.value.status == 403 and answer.value.json()["code"] == "cross-origin"
    assert page.request.get(f"/api/challenges/{code}").json()["closed"] is False
    page.goto(f"/c/{code}/results")  # the player's own page still closes it
    page.get_by_role("button", name="Close the challenge now").click()
    expect(page.locator("#dice-key")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))


def test_the_manifest_and_an_offline_page_in_the_players_language(open_page: Open) -> None:
    """The browser finds the manifest the page links; with the server out of reach, a navigation shows the
    service worker's offline page (in the language of the pages shown before) instead of the browser's error."""
    page = open_page(locale="fr-FR")
    page.goto("/rules")
    manifest = page.evaluate("""async () => {
        const link = document.querySelector('link[rel="manifest"]');
        const answer = await fetch(link.href);
        return { type: answer.headers.get("content-type"), body: await answer.json() };
    }""")
    assert manifest["type"].startswith("application/manifest+json")
    assert manifest["body"]["display"] == "standalone" and manifest["body"]["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["body"]["icons"]} == {"192x192", "512x512"}
    assert page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const registration = await navigator.serviceWorker.getRegistration();
        return registration.scope;
    }""") == page.url.removesuffix("rules")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto("/stats")
    expect(page.locator("h1")).to_have_text("Vous êtes hors ligne")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"  # its CSS kept
    page.context.set_offline(False)
    page.get_by_role("link", name="Réessayer").click()
    expect(page.locator("main h1")).not_to_have_text("Vous êtes hors ligne")
    page.get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    told = """async () => {  // the page tells the worker its language as it loads; the worker keeps it
        for (const name of await caches.keys()) {
            const kept = await (await caches.open(name)).match("/offline/lang");
            if (kept) return kept.text();
        }
        return null;
    }"""
    for _ in range(100):
        if page.evaluate(told) == "en":
            break
        page.wait_for_timeout(50)
    page.context.set_offline(True)
    page.goto("/daily")
    expect(page.locator("h1")).to_have_text("You are offline")
    page.context.set_offline(False)


FAMILY = "\N{WOMAN}\N{ZERO WIDTH JOINER}\N{WOMAN}\N{ZERO WIDTH JOINER}\N{GIRL}"  # one character, 5 code points


def test_names_of_joined_emoji_are_taken_and_a_refusal_says_whose_name_in_french(open_page: Open) -> None:
    page = open_page(locale="fr-FR")
    page.goto("/")
    page.locator("#me-name").fill(FAMILY * 25)
    page.locator("#me-form [type=submit]").click()
    expect(page.locator("#toast")).to_have_text(f"le nom du joueur 1, « {FAMILY * 25} », dépasse 24 caractères")
    page.locator("#me-name").fill(FAMILY * 24)  # 120 code points, 24 characters: kept whole by the field too
    page.locator("#me-form [type=submit]").click()
    expect(page.locator("#toast")).to_have_text(f"Bonjour, {FAMILY * 24} !")
    assert page.request.get("/api/me").json()["name"] == FAMILY * 24


def test_a_race_ends_on_its_turns_and_never_announces_a_last_round(open_page: Open) -> None:
    page = open_page(locale="fr-FR")
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "race", "rules": "farkle,target=1000"})
    page.goto(made.json()["url"])
    seen: list[str] = []  # every moment the table shows, as it shows it
    page.expose_function("sawMoment", lambda text: seen.append(text))
    page.evaluate("""() => new MutationObserver(() => window.sawMoment(document.getElementById('moment').textContent))
        .observe(document.body, { subtree: true, childList: true, characterData: true })""")
    view = play(page, game_id(page))
    turns = view["players"][0]["turns"]
    plural = "1 tour" if turns == 1 else f"{turns} tours"
    score = f"{view['players'][0]['score']:,}".replace(",", "\u202f")
    expect(page.locator("#over-title")).to_have_text(f"{plural} pour atteindre 1\u202f000 : {score}")
    assert "dernier tour" not in page.locator("#log").inner_text().lower()
    assert not any("Dernier tour" in moment for moment in seen), seen


def test_three_farkles_at_0_points_never_say_minus_0(open_page: Open) -> None:
    """A score pad (the dice typed in): Ann farkles three times at 0, banks 150, farkles three times again."""
    page = open_page()
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "pad", "names": ["Ann"], "rules": "farkle,three_farkles=500"})
    gid = made.json()["id"]
    n = 0
    for intent in [*[{"then": "roll", "dice": "223466"}] * 3, {"then": "roll", "dice": "152346"},
                   {"keep": "15", "then": "bank"}, *[{"then": "roll", "dice": "223466"}] * 3]:
        answer = page.request.post(f"/api/games/{gid}/act", data={"n": n, **intent})
        assert answer.ok, answer.text()
        n = answer.json()["game"]["n"]
    page.goto(f"/play/{gid}")
    log = page.locator("#log")
    expect(log).to_contain_text("Three farkles in a row: no points to lose (the penalty of 500 stops at 0)")
    expect(log).to_contain_text("Three farkles in a row: −150, down to 0 (the penalty of 500 stops at 0)")
    assert "−0" not in log.inner_text()


@pytest.mark.parametrize("viewport", [DESKTOP, {"width": 320, "height": 700}])
def test_the_computers_name_is_not_cut_and_the_card_and_turn_line_agree_on_the_turn(
    open_page: Open, viewport: dict[str, int]
) -> None:
    page = open_page(viewport=viewport)
    page.goto("/")
    page.goto(page.request.post("/api/games", data={"mode": "versus", "level": "medium"}).json()["url"])
    name = page.locator("#scores .name", has_text="Computer")
    expect(name).to_have_text("Computer (Medium)")
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    page.goto(page.request.post("/api/games", data={"mode": "solo"}).json()["url"])
    gid = game_id(page)
    for turn in (1, 2):
        expect(page.locator("#turn-line")).to_contain_text(f"turn {turn} of 10")
        expect(page.locator("#scores .score.current .meta")).to_contain_text(f"turn {turn}/10")
        view = api_view(page, gid)
        while view["turn"] == turn - 1:
            act_once(page, view)
            shows(page, view["n"] + 1)
            view = api_view(page, gid)


def test_a_french_page_words_the_servers_refusals_without_english(open_page: Open) -> None:
    """What the page's script shows for a refusal (hd.js): a seat nobody named, in French; the guards' and the
    validator's refusals, worded from the catalogue key they carry, not their English ``detail``."""
    page = open_page(locale="fr-FR")
    page.goto("/")
    made = page.request.post("/api/games", data={"mode": "versus", "level": "easy"})
    assert made.ok, made.text()
    game = made.json()["id"]
    answers = [
        page.request.post(f"/api/games/{game}/computer", data={"n": 0}),  # Alice's turn, she chose no name
        page.request.post("/api/games", data={"mode": "solo", "names": ["x" * 20_000]}),  # 413
        page.request.post("/api/games", data={"mode": 5}),  # 422
    ]
    bodies = [answer.json() for answer in answers]
    assert [answer.status for answer in answers] == [409, 413, 422], bodies
    shown = page.evaluate("(bodies) => bodies.map((body) => new HD.ApiError(400, body).message)", bodies)
    assert shown == ["c’est le tour de Joueur, pas celui de l’ordinateur",
                     "le corps de la requête dépasse 16384 octets",
                     "valeur refusée pour le champ mode"], shown
    assert all(not english_left(text) for text in shown)
