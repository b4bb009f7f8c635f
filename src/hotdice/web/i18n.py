"""The pages' language: the cookie's, else the browser's (``Accept-Language``), else English; the messages are
hotdice's one catalogue (:mod:`hotdice.i18n`), which the browser gets too (``catalog.<lang>.js``)."""

from __future__ import annotations

from typing import Any

from hotdice.i18n import LANGUAGES, Translator

__all__ = ["COOKIE", "LANGUAGES", "Translator", "pick_language", "seat_name"]

COOKIE = "hotdice_lang"


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language, else the browser's first known one, else English."""
    if cookie is not None and cookie in LANGUAGES:
        return cookie
    for part in (accept_language or "").split(","):
        lang = part.split(";")[0].strip().lower()[:2]
        if lang in LANGUAGES:
            return lang
    return "en"


def seat_name(t: Translator, name: str, default: dict[str, Any] | None = None) -> str:
    """A seat's name as shown: one nobody chose (``default``, its code: :mod:`hotdice.play.names`; or a stored
    name left empty) in ``t``'s language, a chosen one as it was typed. hd.js ``seatName`` says the same."""
    if default is None:
        return name or t("home.default_name")
    if default.get("code") == "computer":
        level = default.get("level")
        return t("name.computer", level=t(f"level.{level}")) if level else t("game.computer")
    n = default.get("n")
    return t("home.player_n", n=n) if n else t("home.default_name")
