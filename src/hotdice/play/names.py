"""Players' names, as every front end takes them: spaces trimmed and runs of them made one, 1 to
:data:`MAX_NAME` characters as a reader counts them (graphemes, Unicode's text segmentation: 👩‍👩‍👧 or é
written e + accent is one), and no control character (a newline, an escape: they break every line they are
shown on). Joiners, variation selectors and marks are parts of characters, not controls."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import regex

from hotdice.game.refusals import Code, Refusal, Refused

__all__ = ["MAX_NAME", "MAX_NAME_CODE_POINTS", "clean_name", "clean_names", "graphemes"]

MAX_NAME = 24  # a name fits on a phone's scoreboard
MAX_NAME_CODE_POINTS = 200  # what a name may take in storage (hotdice.store.NAME_LENGTH): marks piled on letters
_GRAPHEME = regex.compile(r"\X")


def graphemes(text: str) -> int:
    """How many characters a reader sees in ``text``."""
    return len(_GRAPHEME.findall(text))


def clean_name(name: str, seat: int = 1) -> str:
    """``name`` as it is kept, or :class:`Refused` saying what is wrong with the name of player ``seat``."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise Refused(Refusal(Code.NO_NAME, {"seat": seat}))
    controls = [ch for ch in cleaned if unicodedata.category(ch) == "Cc"]
    if controls:
        shown = "".join("\N{REPLACEMENT CHARACTER}" if ch in controls else ch for ch in cleaned)
        raise Refused(
            Refusal(Code.NAME_CONTROL, {"seat": seat, "name": shown, "character": f"U+{ord(controls[0]):04X}"})
        )
    if graphemes(cleaned) > MAX_NAME or len(cleaned) > MAX_NAME_CODE_POINTS:
        raise Refused(Refusal(Code.NAME_TOO_LONG, {"seat": seat, "name": cleaned, "max": MAX_NAME}))
    return cleaned


def clean_names(names: Sequence[str]) -> tuple[str, ...]:
    """Every player's name cleaned, each different from the others."""
    cleaned = tuple(clean_name(name, seat) for seat, name in enumerate(names, 1))
    if len(set(cleaned)) != len(cleaned):
        raise Refused(Refusal(Code.SAME_NAME, {"names": cleaned}))
    return cleaned
