"""Names nobody chose, kept as codes: a seat named by default is stored so and worded by each front end in the
language of whoever looks, so that a game resumed or shown in another language names its players in that one.

A default name is a code with values: ``you`` (the terminal's own player), ``player`` (someone who chose no
name; ``n``: the seat's number where several share a table), ``computer`` (``level``: its level, where the
front end names it). The game's record holds its English words (:meth:`DefaultName.english`), as it holds the
engine's own default names ("Player", "Player 2"); a seat whose stored name is no code is a name someone chose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hotdice.play.players import LEVELS

__all__ = ["CODES", "DefaultName"]

CODES = ("you", "player", "computer")


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
