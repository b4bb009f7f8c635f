"""Phones, keyboard and accessibility in a real browser (Debian's chromium, as in test_web_browser.py).

Every page and table state these tests reach is looked at on the phones' widths (320 to 414 px) for what a
player would see as broken: the page scrolling sideways, a button's label running out of it, two buttons
over each other, a button hidden under the sticky Roll/Bank bar; and it is run through axe-core (the copy
axe-playwright-python bundles), which must find no violation at all.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.web.test_web_browser import Open, act_once, api_view, game_id, set_rules, shows

PHONES = [(320, 568), (360, 740), (390, 844), (414, 896)]
LONG = "Wilhelmina Bartholomew-X"  # 24 characters, the most a name may have
assert len(LONG) == 24
AXE = Axe()

# What the eye sees as broken, measured in the page: each item a line of the failure's message.
LAYOUT = """() => {
  const problems = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > window.innerWidth) {
    problems.push(`scrolls sideways: ${root.scrollWidth} px in ${window.innerWidth}`);
  }
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const buttons = [...document.querySelectorAll("button, a.button, .top a")].filter(shown);
  const rects = (css) => [...document.querySelectorAll(css)].filter(shown).map((el) => el.getBoundingClientRect());
  const tops = new Set(rects(".top nav a").map((r) => r.top));
  if (!document.querySelector(".menu-open") && tops.size > 1) problems.push(`the navigation takes ${tops.size} lines`);
  const head = rects(".top > .brand, .top > .menu-button, .top > .lang");
  if (head.some((r) => r.top >= head[0].bottom)) problems.push("the header's brand, menu and language take two lines");
  const name = (el) => (el.id ? `#${el.id}` : `"${(el.getAttribute("aria-label") || el.textContent).trim()}"`);
  for (const el of buttons) {
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)}: its label runs out of it (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }
  const boxes = buttons.filter((el) => !el.closest(".tray, .pad-typed")).map((el) => [el, el.getBoundingClientRect()]);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 1 && h > 1) problems.push(`${name(a)} and ${name(b)} overlap`);
    }
  }
  return problems;
}"""

# A control brought into view at the bottom of the screen, as a thumb scrolling down finds it: what is on top of it?
COVERED = """(selector) => {
  const problems = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.getClientRects().length === 0) continue;
    el.scrollIntoView({ block: "end" });
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top && !el.contains(top)) problems.push(`${el.id || el.textContent.trim()} is under ${top.id || top.tagName}`);
  }
  window.scrollTo(0, 0);
  return problems;
}"""


def problems(page: Page, state: str) -> list[str]:
    """What is wrong with the page as it stands: layout, then axe-core's violations (each rule, where)."""
    found = [f"{state}: {p}" for p in page.evaluate(LAYOUT)]
    results = AXE.run(page)
    for v in results.response["violations"]:
        where = [n["target"] for n in v["nodes"]][:4]
        found.append(f"{state}: axe {v['id']} ({v['impact']}): {v['help']} at {json.dumps(where)}")
    return found


def new_game(page: Page, body: dict[str, Any]) -> str:
    made = page.request.post("/api/games", data=body)
    assert made.ok, made.text()
    page.goto(made.json()["url"])
    return game_id(page)


def pick(roll: list[int], keep: str) -> list[int]:
    """The indices of the roll's dice that make up keep."""
    taken: list[int] = []
    for face in keep:
        taken.append(next(i for i, f in enumerate(roll) if f == int(face) and i not in taken))
    return taken


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize(("width", "height"), PHONES, ids=[f"{w}px" for w, _ in PHONES])
def test_every_state_fits_a_phone_and_passes_axe(open_page: Open, width: int, height: int) -> None:
    viewport = {"width": width, "height": height}
    page = open_page(viewport=viewport)
    found: list[str] = []

    # The pages, in both languages; the French navigation fits its line (or folds into a menu).
    for lang in ("fr", "en"):
        page.goto(f"/lang/{lang}?next=/")
        for path in ("/", "/learn", "/daily", "/stats", "/training", "/rules", "/play/nope", f"/offline/{lang}"):
            page.goto(path)
            found += problems(page, f"{lang} {path}")
    # The navigation behind its Menu button: opened, looked at, closed with Escape.
    page.goto("/lang/fr?next=/")
    menu = page.get_by_role("button", name="Menu")
    expect(page.get_by_role("link", name="Statistiques")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("link", name="Statistiques")).to_be_visible()
    found += problems(page, "fr menu open")
    page.keyboard.press("Escape")
    expect(page.get_by_role("link", name="Statistiques")).to_be_hidden()
    expect(menu).to_be_focused()
    page.goto("/lang/en?next=/")
    # A challenge, its results, an online table's lobby (with a guest of a long name).
    code = page.request.post("/api/challenges", data={"preset": "farkle"}).json()["code"]
    table = page.request.post("/api/tables", data={}).json()["code"]
    for path in (f"/c/{code}", f"/c/{code}/results", f"/t/{table}"):
        page.goto(path)
        found += problems(page, path)
    # The rules page after saving a long rules string.
    page.goto("/rules")
    page.locator("#rules-text").fill("farkle,target=10000,entry=500,three_farkles=1000")
    expect(page.locator("#knob-three_farkles")).to_have_value("1000")  # the server has read it
    page.get_by_role("button", name="Use these rules for my games").click()
    expect(page.locator("#saved")).to_contain_text("three_farkles")
    found += problems(page, "rules saved")

    # Eight players with long names, passing the phone round: the dice and Roll/Bank in view at each hand-over.
    set_rules(page, "farkle,target=1000")
    names = [f"{LONG[:22]}{i}{i}" for i in range(8)]
    gid = new_game(page, {"mode": "together", "names": names})
    found += problems(page, "8 players")
    current = None
    for _ in range(40):
        view = api_view(page, gid)
        shows(page, view["n"])
        if view["outcome"] is not None:
            break
        if view["current"] != current and view["phase"] == "decide":
            current = view["current"]
            for selector in ("#dice .die", "#roll", "#bank"):
                if not in_view(page, selector):
                    found.append(f"8 players, hand-over to {current}: {selector} is not in view")
            if current in (1, 7):
                found += problems(page, f"8 players, hand-over to {current}")
        act_once(page, view)
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
    found += problems(page, "8 players, a roll")

    # House rules with an entry score: "Stop (not recorded)" beside Roll and Hint.
    set_rules(page, "farkle,entry=5000")  # more than one roll scores
    gid = new_game(page, {"mode": "solo"})
    view = api_view(page, gid)
    while view["phase"] != "set-aside":  # rolled until the roll scores (a farkle: the next turn)
        page.locator("#roll").click()
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
        view = api_view(page, gid)
        shows(page, view["n"])
    for index in pick(view["roll"], view["options"][0]["set_aside"]):
        page.locator(f'#dice button.die[data-index="{index}"]').click()
    expect(page.locator("#bank")).to_have_text("Stop (not recorded)")
    page.locator("#hint").click()
    expect(page.locator("#hint-box")).to_be_visible()
    found += problems(page, "stop not recorded")

    # The score pad with a long name: its typed roll, its buttons, none under the Roll/Bank bar.
    set_rules(page, "farkle")
    new_game(page, {"mode": "pad", "names": [LONG]})
    found += problems(page, "pad")
    page.locator("#roll").click()
    expect(page.locator("#pad-entry")).to_be_visible()
    page.locator(".face-button").nth(4).click()
    found += problems(page, "pad entry")
    found += [f"pad entry: {p}" for p in page.evaluate(COVERED, "#pad-entry button")]

    assert not found, "\n".join(found)


FOCUS = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return { id: el.id, die: el.matches("#dice button.die"), inTable: document.getElementById("table").contains(el),
           ring: el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 };
}"""


def test_the_keyboard_keeps_its_place_on_the_table(open_page: Open) -> None:
    """Tab to Roll, Enter: the focus goes to the dice, which show a ring; after Bank it waits on the felt
    while the computer plays, then comes back to Roll; the log can be reached and scrolled; axe is clean."""
    page = open_page()
    page.goto("/")
    set_rules(page, "farkle,target=1000")
    gid = new_game(page, {"mode": "versus", "level": "easy"})
    log = page.get_by_role("list", name="Game log")
    expect(log).to_have_attribute("tabindex", "0")
    found = problems(page, "versus")
    page.locator("#roll").focus()
    for _ in range(300):
        view = api_view(page, gid)
        if shows(page, view["n"]) > view["n"]:
            continue
        if view["outcome"] is not None:
            break
        if view["to_act"] != 0:
            shows(page, view["n"] + 1)
            continue
        focus = page.evaluate(FOCUS)
        if view["phase"] == "set-aside":  # after Roll: on the dice, with a visible ring
            assert focus["die"] and focus["ring"], focus
            for index in pick(view["roll"], view["options"][0]["set_aside"]):
                page.keyboard.press(str(index + 1))
            then = "bank" if view["options"][0]["records"] and not view["options"][0]["wins"] else "roll"
            while page.evaluate("document.activeElement.id") != then:  # Tab on from the dice to the button
                page.keyboard.press("Tab")
        else:  # the player's turn again, or hot dice: on Roll
            assert focus["id"] == "roll", focus
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.n) > {view['n']}")
        after = api_view(page, gid)
        shows(page, after["n"])
        focus = page.evaluate(FOCUS)
        assert focus["inTable"], focus  # never lost to <body>
        if after["to_act"] == 1 and after["outcome"] is None:
            assert focus["id"] == "felt", focus  # waiting for the computer
            found += problems(page, "the computer's turn") if not found else []
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#over")).to_be_visible()
    found += problems(page, "game over")
    for _ in range(30):  # Tab on from the end of the game: the log is in the tab order
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "log":
            break
    else:
        raise AssertionError("Tab never reached the log")
    assert not found, "\n".join(found)
