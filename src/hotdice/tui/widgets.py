"""Widgets of the table: the dice drawn as faces, and the scoreboard. Both only draw what they are given.

Their reactive attributes are set by the screens from the engine's state; no widget holds game state.
Meaning never rests on colour alone (NO_COLOR): picked dice are drawn in reverse and marked with a tick,
the cursor with arrows, and the scoreboard writes its marks as symbols.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from hotdice.i18n import number

__all__ = ["DiceRow", "ScoreLine", "Scoreboard", "die_face"]

# Pips of each face on a 3 x 3 grid (row, column).
_PIPS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(1, 1)}),
    2: frozenset({(0, 2), (2, 0)}),
    3: frozenset({(0, 2), (1, 1), (2, 0)}),
    4: frozenset({(0, 0), (0, 2), (2, 0), (2, 2)}),
    5: frozenset({(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)}),
    6: frozenset({(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)}),
}
DIE_WIDTH = 7


def die_face(face: int | None) -> list[str]:
    """The five lines of one die, 7 characters wide; None draws a die still to be rolled."""
    rows = []
    for r in range(3):
        if face is None:
            inner = "  ?  " if r == 1 else "     "
        else:
            inner = " ".join("●" if (r, c) in _PIPS[face] else " " for c in range(3))
        rows.append(f"│{inner}│")
    return ["┌─────┐", *rows, "└─────┘"]


class DiceRow(Widget):
    """A row of dice with their keys below; picked dice in reverse with a tick, the cursor between arrows."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "dicerow--picked",
        "dicerow--farkle",
        "dicerow--waiting",
        "dicerow--cursor",
    }
    DEFAULT_CSS = "DiceRow { height: 6; }"

    faces: reactive[tuple[int | None, ...]] = reactive(())
    picked: reactive[frozenset[int]] = reactive(frozenset())
    cursor: reactive[int] = reactive(-1)  # -1: no cursor (not the player's choice)
    tone: reactive[str] = reactive("live")  # live | farkle | waiting

    def render(self) -> Text:
        if not self.faces:
            return Text("")
        lines = [Text() for _ in range(6)]
        tone_style = {
            "farkle": self.get_component_rich_style("dicerow--farkle"),
            "waiting": self.get_component_rich_style("dicerow--waiting"),
        }.get(self.tone)
        picked_style = self.get_component_rich_style("dicerow--picked")
        cursor_style = self.get_component_rich_style("dicerow--cursor")
        for i, face in enumerate(self.faces):
            style = picked_style if i in self.picked else tone_style
            for row, text in enumerate(die_face(face)):
                if i:
                    lines[row].append(" ")
                lines[row].append(text, style=style or "")
            mark = "✓" if i in self.picked else " "
            key = f"›{i + 1}‹" if i == self.cursor else f" {i + 1} "
            label = f" {key}{mark} " if face is not None else " " * DIE_WIDTH
            if i:
                lines[5].append(" ")
            lines[5].append(label, style=cursor_style if i == self.cursor else "")
        return Text("\n").join(lines)


@dataclass(frozen=True)
class ScoreLine:
    """One player's line: what the scoreboard shows of the engine's state."""

    name: str
    score: int
    entered: bool
    farkles_in_row: int
    to_play: bool


class Scoreboard(Widget):
    """Every player's score, whose turn it is, whether they are on the board, and farkles in a row."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"scoreboard--current", "scoreboard--legend"}

    lines: reactive[tuple[ScoreLine, ...]] = reactive(())
    legend: reactive[tuple[str, ...]] = reactive(())
    show_entry: reactive[bool] = reactive(False)
    lang: reactive[str] = reactive("en")  # the language the scores are written in

    def render(self) -> Text:
        out = Text()
        current = self.get_component_rich_style("scoreboard--current")
        width = max(self.size.width, 20)
        for line in self.lines:
            score = number(line.score, self.lang)
            marks = ("✓" if line.entered else "·") if self.show_entry else ""
            marks += "✗" * min(line.farkles_in_row, 3)
            pointer = "▶ " if line.to_play else "  "
            name_width = max(width - len(pointer) - len(score) - 5, 4)
            name = line.name if len(line.name) <= name_width else line.name[: name_width - 1] + "…"
            text = f"{pointer}{name:<{name_width}} {score:>{len(score)}} {marks:<3}"
            out.append(text[:width], style=current if line.to_play else "")
            out.append("\n")
        legend = self.get_component_rich_style("scoreboard--legend")
        for item in self.legend:
            out.append("\n" + item, style=legend)
        return out
