"""What a French screen must not show: the words of the English catalogue's messages that French words otherwise.

A message is cut at its placeholders (names, numbers, dice, rules strings fill them) and markup; each piece of
three words or more that no French message holds is English a French player would read."""

from __future__ import annotations

import re
from functools import cache

from hotdice import i18n

__all__ = ["english_left", "english_pieces"]

_CUTS = re.compile(r"\{[^{}]*\}|\[/?\w+\]|\n")
_EDGES = " .,:;!?()—–-·…'\"«»/"


@cache
def english_pieces(context: str | None = None) -> tuple[str, ...]:
    """The English pieces of the catalogue (a front end's ``context``: its own wording too)."""
    english, french = i18n.catalog("en", context), i18n.catalog("fr", context)
    every_french = "\n".join(french.values())
    pieces = set()
    for key, text in english.items():
        if french.get(key) == text:
            continue
        for piece in _CUTS.split(text):
            piece = piece.strip(_EDGES)
            if len(piece.split()) >= 3 and piece not in every_french:
                pieces.add(piece)
    return tuple(sorted(pieces))


def english_left(text: str, context: str | None = None) -> list[str]:
    """The English pieces ``text`` shows."""
    return [piece for piece in english_pieces(context) if piece in text]
