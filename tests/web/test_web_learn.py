"""How to play, in a real browser (issue 15, item 1): the first visit's guided first turn, the rules page's
"how the game goes" and scoring table, and training that explains its answers and counts a streak — each in
English and in French. The fixtures (a served app, chromium, a page per device) are test_web_browser's."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from playwright.sync_api import Page, Route, expect

from hotdice.game.rules import Rules
from hotdice.play.training import Drill
from tests.web.test_web_browser import PHONE, Open, browser, open_page, playwright, server, set_rules

__all__ = ["browser", "open_page", "playwright", "server"]  # the fixtures this module uses

# What each step of the guided first turn says under the plain farkle rules. The dice are the guided turn's
# (hotdice.play.first_turn.ROLLS); the points are RULES.md's table, added by hand: three 3s = 300, a 1 = 100,
# a 5 = 50, so 400, then 400 + 150 = 550, all lost on the farkle.
GUIDED = {
    "en": [
        "A turn starts with all 6 dice in your hand.",
        "You rolled 1 3 3 3 2 6. What scores: 3 3 3 → Three 3s = 300; 1 → A 1 = 100. Nothing else scores (2 6).",
        "Set aside the scoring dice: 1 3 3 3 for 400. Turn total: 400. 2 dice left in your hand. Now you choose",
        "You rolled 5 1. What scores: 1 → A 1 = 100; 5 → A 5 = 50.",
        "Hot dice! Every die has scored: all 6 come back to your hand, and the turn total of 550 rides on.",
        "You rolled 2 2 3 4 6 6: nothing scores. Farkle! The turn total of 550 is lost",
        "That was a whole turn.",
    ],
    "fr": [
        "Un tour commence avec les 6 dés en main.",
        "Vous avez lancé 1 3 3 3 2 6. Ce qui marque\u00a0: 3 3 3 → Trois 3 = 300\u202f; 1 → Un 1 = 100. "
        "Le reste ne marque rien (2 6).",
        "Mettez de côté les dés qui marquent\u00a0: 1 3 3 3 pour 400. Total du tour\u00a0: 400. 2 dés restent en main.",
        "Vous avez lancé 5 1. Ce qui marque\u00a0: 1 → Un 1 = 100\u202f; 5 → Un 5 = 50.",
        "Main pleine\u202f! Tous les dés ont marqué\u00a0: les 6 reviennent en main",
        "Vous avez lancé 2 2 3 4 6 6\u00a0: rien ne marque. Farkle\u202f! Le total du tour, 550, est perdu",
        "Voilà un tour complet.",
    ],
}
WELCOME = {"en": ("Show me", "No thanks", "How to play"), "fr": ("Montrez-moi", "Non merci", "Comment jouer")}
LOCALE = {"en": "en-US", "fr": "fr-FR"}


def walk_the_guided_turn(page: Page, lang: str) -> None:
    texts = GUIDED[lang]
    for n, text in enumerate(texts):
        expect(page.locator("#learn-step")).to_contain_text(f"{n + 1}")
        expect(page.locator("#learn-text")).to_contain_text(text)
        if n < len(texts) - 1:
            page.locator("#learn-next").click()
    expect(page.locator("#learn-done")).to_be_visible()


def test_a_first_visit_offers_the_guided_first_turn_and_a_returning_player_is_not_bothered(open_page: Open) -> None:
    for lang in ("en", "fr"):
        go, skip, link = WELCOME[lang]
        page = open_page(f"newcomer-{lang}", locale=LOCALE[lang])
        page.goto("/")
        expect(page.locator("#welcome")).to_be_visible()
        page.get_by_role("link", name=go).click()
        page.wait_for_url("**/learn")
        expect(page.locator("#learn-dice .die")).to_have_count(6)
        page.locator("#learn-next").click()
        expect(page.locator('#learn-dice .die[data-set-aside="false"]')).to_have_count(6)
        page.locator("#learn-next").click()  # the set-aside: its four dice stand out from the roll
        expect(page.locator('#learn-dice .die[data-set-aside="true"]')).to_have_count(4)
        page.goto("/learn")
        walk_the_guided_turn(page, lang)
        page.goto("/")  # back after the guided turn: no offer any more, the link stays
        expect(page.locator(".how-to-play")).to_have_text(link)
        expect(page.locator("#welcome")).to_be_hidden()

        other = open_page(f"skipper-{lang}", locale=LOCALE[lang])
        other.goto("/")
        other.get_by_role("button", name=skip).click()
        expect(other.locator("#welcome")).to_be_hidden()
        other.reload()
        expect(other.locator("#me-form")).to_be_visible()
        expect(other.locator("#welcome")).to_be_hidden()
        other.get_by_role("link", name=link).click()  # reachable later
        other.wait_for_url("**/learn")
        walk_the_guided_turn(other, lang)


def test_the_guided_turn_follows_the_players_rules(open_page: Open) -> None:
    """Under 5000-fr the first 400 cannot be banked (750 to enter) and hot dice must be rolled again: the
    engine's refusals, worded by the page."""
    page = open_page()
    set_rules(page, "5000-fr")
    page.goto("/learn")
    expect(page.locator("#learn-dice .die")).to_have_count(5)
    page.locator("#learn-next").click()
    page.locator("#learn-next").click()
    expect(page.locator("#learn-text")).to_contain_text("You may not bank yet: a first bank needs 750 in one turn.")
    page.locator("#learn-next").click()
    page.locator("#learn-next").click()
    expect(page.locator("#learn-text")).to_contain_text("Under these rules hot dice must be rolled again")


HOW = {
    "en": (
        "How the game goes",
        "Rules and house rules",
        [
            "roll all 5 dice",
            "your first bank needs at least 750 in one turn",
            "Reach exactly 5,000 to win",
            "all 5 come back to your hand and must be rolled again",
            "Three farkles in a row cost 500",
            "Five 1s in one roll win the game at once",
            "Every scoring die of a roll is set aside",
        ],
        ["A 1", "A 5", "Three 1s", "Three 2s", "Straight 1-5", "Straight 2-6"],
    ),
    "fr": (
        "Comment se joue une partie",
        "Règles et variantes",
        [
            "lancez les 5 dés",
            "votre premier encaissement doit atteindre 750 en un tour",
            "Atteignez exactement 5\u202f000 pour gagner",
            "les 5 reviennent en main et il faut les relancer",
            "Trois farkles d’affilée coûtent 500",
            "Cinq 1 en un lancer gagnent la partie aussitôt",
        ],
        ["Un 1", "Un 5", "Trois 1", "Trois 2", "Suite 1-5", "Suite 2-6"],
    ),
}


def test_the_rules_page_tells_how_the_game_goes_then_the_scoring_before_the_house_rules(open_page: Open) -> None:
    for lang in ("en", "fr"):
        title, heading, sentences, lines = HOW[lang]
        page = open_page(lang, locale=LOCALE[lang])
        set_rules(page, "5000-fr,three_farkles=500")
        page.goto("/rules")
        expect(page.locator("h1")).to_have_text(heading)
        expect(page.locator("#how-it-goes h2")).to_have_text(title)
        for sentence in sentences:
            expect(page.locator("#how-it-goes")).to_contain_text(sentence)
        names = page.locator("#scoring tbody td:first-child")
        expect(names).to_have_count(len(lines) + 4)  # four more triples, 3s to 6s
        for line in lines:
            expect(names.filter(has_text=re.compile(f"^{line}$", re.I))).to_have_count(1)
        # The scoring table comes before the house-rules editor, in the page and on the screen.
        assert page.evaluate("""() => Boolean(document.getElementById('scoring').compareDocumentPosition(
            document.getElementById('rules-form')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
        table, form = page.locator("#scoring").bounding_box(), page.locator("#rules-form").bounding_box()
        assert table is not None and form is not None and table["y"] < form["y"]
        # Redrawn in the page's language as the rules are edited.
        page.locator("#preset").select_option("farkle")
        expect(names.filter(has_text=re.compile("^(three pairs|trois paires) ", re.I))).to_have_count(1)


QUESTION = [1, 1, 1, 5, 2, 3]  # three 1s = 1000 and a 5 = 50, best 1050 (RULES.md's table); 2 and 3 score nothing
QUIZ = {
    "en": (
        "Right!",
        "Not quite.",
        "What scores: 1 1 1 → Three 1s = 1,000; 5 → A 5 = 50. Nothing else scores (2 3).",
        "Streak: {n} · best {best}",
        "Bank now = 300 points. Roll on = {roll} expected points (a 27.8\u202f% chance",
        "Best: roll on.",
    ),
    "fr": (
        "Bravo\u202f!",
        "Pas tout à fait.",
        "Ce qui marque\u00a0: 1 1 1 → Trois 1 = 1\u202f000\u202f; 5 → Un 5 = 50. Le reste ne marque rien (2 3).",
        "Série\u00a0: {n} · meilleure {best}",
        "Encaisser maintenant = 300 points. Relancer = {roll} points espérés (27,8\u202f% de risque",
        "Le mieux\u00a0: relancer.",
    ),
}


def fixed(body: dict[str, object]):  # type: ignore[no-untyped-def]
    """A route answering a GET with ``body`` (the question or drill drawn at random, made known for the test)."""

    def handle(route: Route) -> None:
        if route.request.method == "GET":
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    return handle


def test_training_explains_each_answer_and_counts_a_streak_on_the_page_only(open_page: Open) -> None:
    drill = Drill(Rules.parse("farkle"), 300, 3)
    # The farkle chance of three dice, counted by hand: no 1 or 5 on any die (4^3 = 64 of 216 rolls), less the
    # four triples 222, 333, 444, 666: 60 / 216.
    assert drill.farkle_chance == Fraction(60, 216)
    for lang in ("en", "fr"):
        right, wrong, why, streak, compare, better = QUIZ[lang]
        roll = f"{drill.roll_value:.1f}".replace(".", "," if lang == "fr" else ".")
        page = open_page(lang, locale=LOCALE[lang])
        sent: list[str] = []
        page.on("request", lambda request, sent=sent: sent.append(request.url) if request.method == "POST" else None)
        page.route("**/api/training/question*", fixed({"rules": "farkle", "roll": QUESTION}))
        page.route(
            "**/api/training/drill*", fixed({"rules": "farkle", "turn_total": 300, "dice": 3, "hot_dice": False})
        )
        page.goto("/training")
        expect(page.locator("#streak")).to_have_text(re.compile("^" + re.escape(streak.format(n=0, best=0))))
        for index in (0, 1, 2, 3):  # 1 1 1 5: the best set-aside
            page.locator(f'#quiz-dice .die[data-index="{index}"]').click()
        page.locator("#quiz-check").click()
        expect(page.locator("#quiz-feedback")).to_contain_text(right)
        expect(page.locator("#quiz-why")).to_have_text(why)
        expect(page.locator("#streak")).to_contain_text(streak.format(n=1, best=1))
        page.locator("#quiz-check").click()  # the same question again: it explains, it does not count twice
        expect(page.locator("#streak")).to_contain_text(streak.format(n=1, best=1))
        page.locator("#drill-roll").click()
        expect(page.locator("#drill-feedback")).to_contain_text(f"{right} {better}")
        expect(page.locator("#drill-values")).to_contain_text(compare.format(roll=roll))
        expect(page.locator("#streak")).to_contain_text(streak.format(n=2, best=2))
        page.locator("#drill-next").click()
        expect(page.locator("#drill-values")).to_be_empty()
        page.locator("#drill-bank").click()
        expect(page.locator("#drill-feedback")).to_contain_text(wrong)
        expect(page.locator("#streak")).to_contain_text(streak.format(n=0, best=2))
        page.reload()  # a new visit of the page: a new streak
        expect(page.locator("#streak")).to_contain_text(streak.format(n=0, best=0))
        assert sent and all("/api/training/" in url for url in sent), sent  # nothing else was told
        assert page.request.get("/api/stats").json() == {"games": 0}


def test_how_to_play_fits_a_phone(open_page: Open) -> None:
    """No horizontal scroll on a phone: the offer on the home page, each step of the guided turn, the rules
    page's how-it-goes and scoring table."""
    for lang in ("en", "fr"):
        page = open_page(lang, viewport=PHONE, locale=LOCALE[lang])
        page.goto("/")
        expect(page.locator("#welcome")).to_be_visible()
        box = page.locator("#welcome").bounding_box()  # the home page's own width is test_web_browser's
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        page.goto("/learn")
        for _ in range(len(GUIDED[lang]) - 1):
            expect(page.locator("#learn-text")).not_to_be_empty()
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.locator("#learn-next").click()
        page.goto("/rules")
        expect(page.locator("#how-it-goes")).to_be_visible()
        assert page.evaluate("document.getElementById('how-it-goes').parentElement.scrollWidth") <= PHONE["width"]
