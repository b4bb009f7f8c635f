"""One player on several devices in a real browser (chromium via Playwright, ``hotdice serve``): two browser
contexts, a laptop and a phone. The laptop makes a link code (its QR drawn in the page), the phone opens the
code's address — the code leaves the address at once — and becomes the same player with the same games; the
laptop lists both devices and signs the phone out, which is a new player at its next page. On phone and
desktop, in French and English, axe clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.test_web_browser import DESKTOP, PHONE, Open
from tests.web.test_web_browser_come_back import asked, play_out
from tests.web.test_web_phone import problems

pytestmark = pytest.mark.slow

WORDS = {"en-US": ("Use on another device", "Use this device"), "fr-FR": ("Utiliser sur un autre appareil",
                                                                          "Utiliser cet appareil")}


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_link_code_makes_the_phone_the_same_player_until_signed_out(open_page: Open, viewport: dict[str, int],
                                                                      locale: str) -> None:
    laptop = open_page("laptop", viewport=viewport, locale=locale)
    phone = open_page("phone", viewport=PHONE, locale=locale)
    laptop.goto("/")
    asked(laptop, "POST", "/api/me", {"name": "Ann"})
    game = asked(laptop, "POST", "/api/games", {"mode": "versus", "level": "easy", "rules": "farkle,target=1000"})
    play_out(laptop, game["id"])
    phone.goto("/")
    asked(phone, "POST", "/api/games", {"mode": "solo"})  # the phone has played on its own: it leaves that behind

    laptop.goto("/devices")
    expect(laptop.get_by_role("heading", name=WORDS[locale][0])).to_be_visible()
    laptop.locator("#link-make").click()
    expect(laptop.locator("#link-qr svg path.qr-dark")).to_be_attached()
    code = laptop.locator("#link-code").inner_text()
    assert len(code) == 19 and code.count("-") == 3
    expect(laptop.locator("#link-expires")).to_contain_text(":")
    found = problems(laptop, f"{locale} devices, a code made")

    phone.goto(f"/link#{code}")
    phone.wait_for_function("() => location.hash === ''")  # the code leaves the address, and its history entry
    assert "#" not in phone.url and code not in phone.url
    expect(phone.locator("#link-input")).to_have_value(code)
    found += problems(phone, f"{locale} link page")
    phone.get_by_role("button", name=WORDS[locale][1]).click()
    phone.wait_for_url("**/")
    expect(phone.locator("#me-name")).to_have_value("Ann")
    expect(phone.locator(f'#games-finished a[href="/review/{game["id"]}"]')).to_be_visible()
    expect(phone.locator("#games-in-progress")).to_have_count(0)  # its own solo stayed with the player it was

    laptop.goto("/devices")
    rows = laptop.locator("#device-list li")
    expect(rows).to_have_count(2)
    found += problems(laptop, f"{locale} devices, two")
    laptop.locator("[data-sign-out]:not([data-current])").click()
    expect(rows).to_have_count(1)
    phone.goto("/")
    expect(phone.locator("#me-name")).to_have_value("")  # signed out: a new player
    expect(phone.locator("#your-games")).to_have_count(0)
    assert found == []


def test_a_mangled_code_in_the_address_is_shown_and_refused_with_why(open_page: Open) -> None:
    """A fragment that is not percent-encoding (a lone "%") does not stop the page: it is shown as it came, left
    out of the address, and the claim says why it is refused."""
    phone = open_page("phone", viewport=PHONE, locale="en-US")
    phone.goto("/link#ABCD-%ZZ")
    phone.wait_for_function("() => location.hash === ''")
    expect(phone.locator("#link-input")).to_have_value("ABCD-%ZZ")
    phone.get_by_role("button", name="Use this device").click()
    expect(phone.locator("#toast")).to_contain_text("no such link code")
    assert phone.url.endswith("/link")  # no code in the address, nor a query
