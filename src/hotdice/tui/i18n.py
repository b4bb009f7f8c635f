"""The terminal's words: hotdice's one catalogue (:mod:`hotdice.i18n`), with the terminal's own wording of the
keys it words differently from the pages (gettext context ``tui``: it has less room, and tells the whole turn
in its log)."""

from __future__ import annotations

from collections.abc import Mapping

from hotdice import i18n
from hotdice.i18n import LANGUAGES, detect_language

__all__ = ["CONTEXT", "LANGUAGES", "Translator", "catalog", "detect_language"]

CONTEXT = "tui"


class Translator(i18n.Translator):
    context = CONTEXT


def catalog(lang: str) -> Mapping[str, str]:
    """Every message the terminal shows in ``lang``: key -> text."""
    return i18n.catalog(lang, CONTEXT)
