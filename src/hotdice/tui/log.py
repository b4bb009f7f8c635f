"""The game's log: each event's line, worded from what the play layer says it says (its catalogue key and values,
:class:`hotdice.play.view.Entry`), the very facts the pages word; and the moment a batch of events makes."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import RichLog

from hotdice.game.engine import EventKind, RollOff
from hotdice.i18n import Translator
from hotdice.i18n.told import said
from hotdice.play.view import Entry

__all__ = ["GameLog", "event_line"]

# Which of a batch of events is the moment shown above the dice (highest first), and its look.
_MOMENT_RANK = {
    EventKind.GAME_OVER: 9,
    EventKind.PENALTY: 8,
    EventKind.BUST: 7,
    EventKind.FARKLE: 6,
    EventKind.LAST_ROUND: 5,
    EventKind.ENTRY_MISSED: 4,
    EventKind.HOT_DICE: 4,
    EventKind.BANK: 3,
}
_MOMENT_CLASS = {
    EventKind.GAME_OVER: "winner",
    EventKind.PENALTY: "farkle",
    EventKind.BUST: "farkle",
    EventKind.FARKLE: "farkle",
    EventKind.LAST_ROUND: "last-round",
    EventKind.ENTRY_MISSED: "farkle",
    EventKind.HOT_DICE: "hot-dice",
    EventKind.BANK: "bank",
}


def event_line(t: Translator, names: Sequence[str], event: Entry) -> str:
    """An event's line in ``t``'s words, each player by the name the table shows (``names``, by seat)."""
    return said(t, event.key, event.values, lambda seat, name: names[seat])


class GameLog(RichLog, can_focus=False):
    """The game's log: told from the engine's events; never takes the keys from the table."""

    def tell(
        self, t: Translator, names: Sequence[str], events: Sequence[Entry], pass_turns: bool
    ) -> tuple[str, str] | None:
        """Write each event's line; the batch's weightiest moment as (text, class), None if it has none.
        ``pass_turns``: players pass the device, so a new turn is a moment too ("pass to ...")."""
        best: tuple[int, str, str] | None = None
        for event in events:
            line = event_line(t, names, event)
            self.write(line)
            if event.kind is EventKind.TURN and pass_turns:
                best = best or (1, t("table.pass_to", name=names[event.seat]), "turn")
            rank = _MOMENT_RANK.get(event.kind)
            if rank is not None and (best is None or rank >= best[0]):
                best = (rank, line, _MOMENT_CLASS[event.kind])
        return None if best is None else (best[1], best[2])

    def roll_off(self, t: Translator, names: Sequence[str], off: RollOff) -> None:
        """Who rolled what for the first turn, round by round, and who starts."""
        for number, rolled in enumerate(off.rounds):
            rolls = ", ".join(f"{names[p]} {d}" for p, d in rolled)
            self.write(t("roll_off.line", rolls=rolls) if number == 0 else f"  {rolls}")
        self.write(t("roll_off.starts", name=names[off.first]))
