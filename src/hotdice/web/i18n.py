"""The pages' language: the cookie's, else the browser's (``Accept-Language``), else English; the messages are
hotdice's one catalogue (:mod:`hotdice.i18n`), which the browser gets too (``catalog.<lang>.js``)."""

from __future__ import annotations

from typing import Any

from hotdice import i18n
from hotdice.i18n import LANGUAGES

__all__ = ["COOKIE", "LANGUAGES", "Translator", "pick_language"]

COOKIE = "hotdice_lang"


class Translator(i18n.Translator):
    """The catalogue's translator; the pages group French digits with a narrow no-break space."""

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

    def number(self, n: int) -> str:
        """10 000 in French (narrow no-break space), 10,000 in English."""
        return f"{n:,}".replace(",", "\u202f" if self.lang == "fr" else ",")


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language, else the browser's first known one, else English."""
    if cookie is not None and cookie in LANGUAGES:
        return cookie
    for part in (accept_language or "").split(","):
        lang = part.split(";")[0].strip().lower()[:2]
        if lang in LANGUAGES:
            return lang
    return "en"
