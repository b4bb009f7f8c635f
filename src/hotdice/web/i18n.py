"""The pages' language: the cookie's, else the browser's (``Accept-Language``), else English; the messages are
hotdice's one catalogue (:mod:`hotdice.i18n`), which the browser gets too (``catalog.<lang>.js``)."""

from __future__ import annotations

from hotdice.i18n import LANGUAGES, Translator

__all__ = ["COOKIE", "LANGUAGES", "Translator", "pick_language"]

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
