"""Players' names, as every front end takes them, and the names nobody chose.

A name is taken with spaces trimmed and runs of them made one, 1 to :data:`MAX_NAME` characters as a reader
counts them (graphemes, Unicode's text segmentation: 👩‍👩‍👧 or é written e + accent is one), and no control
character (a newline, an escape: they break every line they are shown on). Joiners, variation selectors and
marks are parts of characters, not controls.

A seat named by default is kept as a code (:class:`DefaultName`) and worded by each front end in the language
of whoever looks, so that a game resumed or shown in another language names its players in that one: ``you``
(the terminal's own player), ``player`` (someone who chose no name; ``n``: the seat's number where several
share a table), ``computer`` (``level``: its level, where the front end names it). The game's record holds its
English words (:meth:`DefaultName.english`), as it holds the engine's own default names ("Player",
"Player 2"); a seat whose stored name is no code is a name someone chose.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import regex

from hotdice.game.refusals import Code, Refusal, Refused
from hotdice.play.players import LEVELS

__all__ = [
    "CODES", "MAX_NAME", "MAX_NAME_CODE_POINTS", "DefaultName", "clean_name", "clean_names", "graphemes", "read_as",
]

MAX_NAME = 24  # a name fits on a phone's scoreboard
MAX_NAME_CODE_POINTS = 200  # what a name may take in storage (hotdice.store.NAME_LENGTH): marks piled on letters
_GRAPHEME = regex.compile(r"\X")
CODES = ("you", "player", "computer")


def graphemes(text: str) -> int:
    """How many characters a reader sees in ``text``."""
    return len(_GRAPHEME.findall(text))


def read_as(name: str) -> str:
    """What a reader tells ``name`` apart by: its compatibility form (NFKC: full-width letters are letters),
    case folded, without spaces or invisible characters (zero-width spaces, joiners): "PLAYER 1", "player1"
    and "Ｐｌａｙｅｒ 1" read the same."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and unicodedata.category(ch) != "Cf")


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


@dataclass(frozen=True)
class DefaultName:
    """The name of a seat nobody named: a code and its values."""

    code: str
    n: int | None = None
    level: str | None = None

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown default name '{self.code}': {', '.join(CODES)}")
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"unknown level '{self.level}': levels are {', '.join(LEVELS)}")

    def english(self) -> str:
        """Its English words, as the game's record holds them: You, Player 2, Computer (Hard)."""
        word = {"you": "You", "player": "Player", "computer": "Computer"}[self.code]
        if self.n is not None:
            word = f"{word} {self.n}"
        return word if self.level is None else f"{word} ({self.level.capitalize()})"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            **({} if self.n is None else {"n": self.n}),
            **({} if self.level is None else {"level": self.level}),
        }

    @classmethod
    def from_json(cls, data: Any) -> DefaultName | None:
        """The default name stored as ``data`` (None: a chosen name); ValueError if it is none."""
        if data is None:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            raise ValueError(f"not a default name: {data!r}")
        n, level = data.get("n"), data.get("level")
        if not (n is None or (isinstance(n, int) and n > 0)) or not (level is None or isinstance(level, str)):
            raise ValueError(f"not a default name: {data!r}")
        return cls(data["code"], n, level)
