"""The web pages in English and French: one catalog per language (``locales/*.json``), the same keys in
both (a test checks it), ``{name}`` placeholders. The browser gets the catalog of its page too.

The engine's own messages (why a move is refused) are English; the pages only show those that a click
cannot avoid, and the table's buttons are enabled only when the move is legal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["CATALOGS", "COOKIE", "LANGUAGES", "Translator", "pick_language"]

LANGUAGES = ("en", "fr")
COOKIE = "hotdice_lang"
_HERE = Path(__file__).parent / "locales"
CATALOGS: dict[str, dict[str, str]] = {
    lang: json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES
}


class Translator:
    """``t("key", name=...)`` in one language; a missing key falls back to English, then to the key."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in CATALOGS else "en"
        self.catalog = CATALOGS[self.lang]

    def __call__(self, key: str, **params: Any) -> str:
        text = self.catalog.get(key) or CATALOGS["en"].get(key) or key
        return text.format(**params) if params else text

    def seat_name(self, name: str, default: dict[str, Any] | None = None) -> str:
        """A seat's name as shown: one nobody chose (``default``, its code: :mod:`hotdice.play.names`; or a
        stored name left empty) in this language, a chosen one as it was typed. hd.js ``seatName`` says the same."""
        if default is None:
            return name or self("home.default_name")
        if default.get("code") == "computer":
            level = default.get("level")
            return self("name.computer", level=self(f"level.{level}")) if level else self("game.computer")
        n = default.get("n")
        return self("home.player_n", n=n) if n else self("home.default_name")

    def number(self, value: int) -> str:
        """10 000 in French (narrow no-break space), 10,000 in English."""
        return f"{value:,}".replace(",", "\u202f" if self.lang == "fr" else ",")


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language, else the browser's first known one, else English."""
    if cookie is not None and cookie in LANGUAGES:
        return cookie
    for part in (accept_language or "").split(","):
        lang = part.split(";")[0].strip().lower()[:2]
        if lang in LANGUAGES:
            return lang
    return "en"
