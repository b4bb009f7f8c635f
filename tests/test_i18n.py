"""The one catalogue (hotdice.i18n): both languages have every message with the same placeholders, read here
from the .po files with Babel itself; the compiled cache gives exactly the .po's messages, is rebuilt when a
.po changes, and is not needed when the cache folder cannot be written."""

from __future__ import annotations

import datetime
import io
import re
import shutil
import string
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from hotdice import i18n
from hotdice.tui.i18n import CONTEXT
from hotdice.tui.i18n import Translator as TerminalTranslator
from hotdice.web.i18n import Translator as PageTranslator
from tests.french_support import english_left, english_pieces

Id = tuple[str | None, str]  # (context, key)


def read(lang: str, locales: Path = i18n.LOCALES) -> Catalog:
    with open(locales / lang / "LC_MESSAGES" / "hotdice.po", "rb") as po:
        return read_po(po)


def placeholders(text: str) -> set[tuple[str, str]]:
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def forms(message: Message) -> str:
    """A message's text, its plural forms side by side."""
    return " ".join(message.string) if isinstance(message.string, tuple) else str(message.string)


def same_placeholders(english: str, other: str) -> bool:
    """The same names, each written the way English writes it or plainly (French drops the English names of
    ``{knob:six_dice}``)."""
    mine, theirs = placeholders(english), placeholders(other)
    plain = {(name, "") for name, _ in mine}
    return {name for name, _ in mine} == {name for name, _ in theirs} and theirs <= mine | plain


def differences(catalogs: dict[str, Iterable[Message]]) -> list[str]:
    """What is wrong between the languages: a message id missing from one, or a message whose placeholders
    differ from the English one's."""
    ids = {lang: {(m.context, m.id): forms(m) for m in messages if m.id} for lang, messages in catalogs.items()}
    english = ids["en"]
    wrong = []
    for lang, found in ids.items():
        wrong += [f"{lang} lacks {key}" for key in sorted(english.keys() - found.keys(), key=str)]
        wrong += [f"{lang} has {key}, English does not" for key in sorted(found.keys() - english.keys(), key=str)]
        wrong += [
            f"{lang} {key}: placeholders differ"
            for key, text in found.items()
            if key in english and not same_placeholders(str(english[key]), str(text))
        ]
    return wrong


def test_both_languages_have_every_message_with_the_same_placeholders() -> None:
    catalogs = {lang: list(read(lang)) for lang in i18n.LANGUAGES}
    assert len(catalogs["en"]) > 500
    assert differences(catalogs) == []


def test_a_missing_message_or_a_changed_placeholder_is_found() -> None:
    english = [Message("a.one", "{n} die"), Message("a.two", "Hi"), Message("a.two", "Yo {name}", context="tui")]
    french = [Message("a.one", "{count} dé"), Message("a.two", "Salut")]
    assert differences({"en": english, "fr": french}) == [
        "fr lacks ('tui', 'a.two')",
        "fr (None, 'a.one'): placeholders differ",
    ]
    assert differences({"en": english, "fr": [*french, Message("a.three", "en trop")]})[1] == (
        "fr has (None, 'a.three'), English does not"
    )
    assert placeholders("{keep:dice} {n}") == {("keep", "dice"), ("n", "")}
    assert not same_placeholders("{keep:dice}", "{keep:or}") and same_placeholders("{knob:six_dice}", "{knob}")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_translators_give_the_po_files_messages(lang: str) -> None:
    messages = {(m.context, m.id): m.string for m in read(lang) if m.id}
    terminal, pages = TerminalTranslator(lang), PageTranslator(lang)
    for (context, key), text in messages.items():
        if isinstance(key, tuple):  # plural forms: the singular for 1 (and 0 in French), the plural for 2
            one, many = text
            assert pages.plural(key[0].removesuffix(".one"), 1) == one.format(n=1), key
            assert pages.plural(key[0].removesuffix(".one"), 2) == many.format(n=2), key
        elif context is None:
            assert pages(key) == text, key
            assert i18n.catalog(lang)[key] == text, key
            if (CONTEXT, key) not in messages:
                assert terminal(key) == text, key
        else:
            assert context == CONTEXT and terminal(key) == text, key
    assert terminal("no.such.key") == pages("no.such.key") == "no.such.key"


def test_plurals_by_the_catalogue() -> None:
    english, french = PageTranslator("en"), PageTranslator("fr")
    assert [english.dice(n) for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert [french.dice(n) for n in (0, 1, 2)] == ["0 dé", "1 dé", "2 dés"]
    assert french.plural("turns", 0) == "0 tour" and english.plural("turns", 0) == "0 turns"


def test_the_terminal_and_the_pages_word_a_key_their_own_way() -> None:
    values = {"name": "Léa", "points": 300, "score": 800}
    assert TerminalTranslator("fr")("log.bank", **values) == "Léa\u00a0: encaisse 300, score 800"
    assert PageTranslator("fr")("log.bank", **values) == "Léa encaisse 300 → 800"


def copy_locales(tmp_path: Path) -> Path:
    return Path(shutil.copytree(i18n.LOCALES, tmp_path / "locales"))


def test_the_catalogue_is_compiled_once_and_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = copy_locales(tmp_path)
    monkeypatch.setattr(i18n, "LOCALES", locales)
    monkeypatch.setenv("HOTDICE_CACHE_DIR", str(tmp_path / "cache"))
    compiled = i18n._mo("fr")
    cached = list((tmp_path / "cache" / "locales").iterdir())
    assert len(cached) == 1 and cached[0].read_bytes() == compiled
    assert i18n._mo("fr") == compiled and list((tmp_path / "cache" / "locales").iterdir()) == cached
    po = locales / "fr" / "LC_MESSAGES" / "hotdice.po"
    po.write_text(po.read_text(encoding="utf-8").replace('"Quitter"', '"Sortir"'), encoding="utf-8")
    changed = i18n._mo("fr")
    assert changed != compiled and len(list((tmp_path / "cache" / "locales").iterdir())) == 2
    assert i18n._Messages(io.BytesIO(changed)).gettext("menu.quit") == "Sortir"


def test_an_unwritable_cache_costs_time_not_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("HOTDICE_CACHE_DIR", str(blocked))
    assert i18n._mo("en") == i18n._compile(i18n.po_path("en").read_bytes(), "en")


@given(st.integers(-(10**9), 10**9))
def test_numbers_by_the_locale(n: int) -> None:
    assert i18n.number(n, "en") == f"{n:,}"  # English as it always was
    assert i18n.number(n, "fr") == f"{n:,}".replace(",", "\u202f")  # CLDR: a narrow no-break space


@given(st.floats(0, 1))
def test_percentages_and_decimals_by_the_locale(p: float) -> None:
    shown = f"{100 * p:.1f}"
    assert i18n.percent(p, "en") == f"{shown}%"
    assert i18n.percent(p, "fr") == shown.replace(".", ",") + "\u00a0%"  # CLDR's French percent: "66,7 %"
    for digits in (1, 2):
        assert i18n.decimal(1000 * p, "en", digits) == f"{1000 * p:.{digits}f}"
        assert i18n.decimal(1000 * p, "fr", digits) == f"{1000 * p:.{digits}f}".replace(".", ",")


def test_the_figures_of_the_issue() -> None:
    assert i18n.percent(2 / 3, "fr") == "66,7\u00a0%" and i18n.percent(2 / 3, "en") == "66.7%"
    assert i18n.number(10_000, "fr") == "10\u202f000" and i18n.number(10_000, "en") == "10,000"


NO_BREAK = "\u00a0\u202f"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
KEY_NAME = re.compile(r"(?:^|· )\? ")  # the ? key in a line of keys ("· ? barème"), not a question
URL = re.compile(r"\w+://\S+")


def typography_faults(text: str) -> list[str]:
    """Where a French text breaks French typography: a ":" "!" "?" ";" or "%" without a no-break space before
    it, or quotes « » without no-break spaces inside (placeholders, URLs and the ? key left out)."""
    prose = URL.sub("URL", KEY_NAME.sub("· KEY ", PLACEHOLDER.sub("X", text)))
    faults = [f"{m.group(0)!r}" for m in re.finditer(rf"(?:^|[^{NO_BREAK}])[:!?;%]", prose)]
    faults += [f"{m.group(0)!r}" for m in re.finditer(rf"«[^{NO_BREAK}]|[^{NO_BREAK}]»", prose)]
    return faults


def test_the_french_catalogue_follows_french_typography() -> None:
    faults = {m.id: typography_faults(forms(m)) for m in read("fr") if m.id}
    assert {key: found for key, found in faults.items() if found} == {}


def test_typography_faults_are_found() -> None:
    assert typography_faults("Score : 10") == ["' :'"] and typography_faults("Score: 10") == ["'e:'"]
    assert typography_faults("Juste !") and typography_faults("« code »") and typography_faults("66,7 %")
    assert typography_faults("Juste\u202f! «\u00a0{code}\u00a0» {keep:dice}\u00a0: 66,7\u00a0%") == []
    assert typography_faults("r relancer · ? barème · voir https://example.org/a?b") == []


def test_dates_by_the_catalogues_cldr_pattern() -> None:
    day = datetime.date(2026, 12, 1)
    assert PageTranslator("en").date(day) == "2026-12-01" == PageTranslator("en").date("2026-12-01")
    assert PageTranslator("fr").date(day) == "1 décembre 2026" and PageTranslator("fr").date("2027-02-05") == (
        "5 février 2027"
    )


def test_the_command_knows_the_catalogues_languages_without_importing_it() -> None:
    from hotdice.cli.common import LANGUAGES

    assert LANGUAGES == i18n.LANGUAGES
def test_a_screen_with_english_is_found_and_one_in_french_is_not() -> None:
    """The check of the French screens (tests/french_support.py) finds English, and only English."""
    assert len(english_pieces()) > 100 and len(english_pieces("tui")) > 100
    assert english_left("Léa — a name cannot be empty") == ["a name cannot be empty"]
    assert english_left("un nom ne peut pas être vide · farkle,entry=500 · Léa") == []
