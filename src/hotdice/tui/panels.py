"""The parts of the terminal's table, each showing one part of the view (:class:`hotdice.play.view.TableView`):
the title, the scores, the dice, what the roll offers and risks, and the coach's choices. Each is given what it
shows and words it; none holds game state or computes a rule (the log is :mod:`hotdice.tui.log`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from hotdice.game.engine import Game, Phase
from hotdice.game.refusals import Code, Refusal
from hotdice.game.scoring import SetAside
from hotdice.i18n import Translator
from hotdice.play.hint import Hint, hint_of
from hotdice.play.modes import Mode
from hotdice.play.view import TableView
from hotdice.tui.solver_watch import solver_line
from hotdice.tui.widgets import DiceRow, Scoreboard, ScoreLine

__all__ = [
    "CoachList", "DicePanel", "KeysLine", "MomentLine", "PadInput", "ScoresPanel", "StatusPanel", "TitleBar",
    "hint_text",
]

_STATUS_WIDTH = 50  # the status lines' room at 80 columns


class TitleBar(Static):
    """The mode and the rules on the left; the turn (of the turn limit) and the last round on the right."""

    def show(self, t: Translator, title: str, rules: str, view: TableView, width: int) -> None:
        if view.turn_limit is not None:
            right = t("table.turn_limit", n=view.round, limit=view.turn_limit)
        else:
            right = t("table.turn_number", n=view.round)
        if view.last_round_by is not None and view.outcome is None:
            right = f"{t('table.last_round')} · {right}"
        head = f" {title} · {rules}"
        width = max(width, 40)
        room = width - len(right) - 2
        head = head if len(head) <= room else head[: room - 1] + "…"
        self.update(f"{head}{' ' * (width - len(head) - len(right) - 1)}{right}", layout=False)


class ScoresPanel(Scoreboard):
    """Every seat's score, whose turn it is, who is on the board, farkles in a row; and what the marks mean."""

    def show(self, t: Translator, view: TableView, names: Sequence[str]) -> None:
        self.lang = t.lang
        self.show_entry = view.entry > 0
        self.lines = tuple(
            ScoreLine(name, p.score, p.entered, p.farkles_in_row, view.outcome is None and i == view.current)
            for i, (name, p) in enumerate(zip(names, view.players, strict=True))
        )
        legend = []
        if view.entry > 0:
            legend += [t("table.on_board"), t("table.not_on_board", entry=t.number(view.entry))]
        if any(p.farkles_in_row for p in view.players):
            legend.append(t("table.farkles_row"))
        self.legend = tuple(legend)
        self.border_title = t("table.scores")


class MomentLine(Static):
    """The moment above the dice: what just happened, else whose turn it is; ``kind`` gives its look."""

    def show(self, text: str, kind: str) -> None:
        self.update(text, layout=False)
        self.set_classes(f"moment-{kind}" if kind else "")


class DicePanel(DiceRow):
    """The roll on the table (the picked dice, the cursor), else the roll that farkled, else the dice in hand."""

    def show(self, view: TableView, picked: set[int], cursor: int) -> None:
        """``cursor``: -1 where the choice is not the player's."""
        if view.phase is Phase.SET_ASIDE and view.roll is not None:
            self.faces, self.tone = view.roll, "live"
        elif view.dead_roll is not None:
            self.faces, self.tone = view.dead_roll, "farkle"
        elif view.phase is Phase.OVER:
            self.faces, self.tone = (), "waiting"
        else:
            self.faces, self.tone = (None,) * view.dice_in_hand, "waiting"
        self.picked = frozenset(picked)
        self.cursor = cursor


class StatusPanel(Static):
    """What the roll offers and risks: the picked dice's worth or why they are refused, the turn total, the farkle
    risk of the next roll, and whether a bank is allowed (the view's options, refusals, risk and bank)."""

    def show(self, t: Translator, view: TableView, picked: SetAside | None, human: bool, pad: bool) -> None:
        """``human``: a person is to choose (the computer shows no prompt); ``pad``: the table rolls real dice."""
        self.update(self._text(t, view, picked, human, pad), layout=False)

    def _text(self, t: Translator, view: TableView, set_aside: SetAside | None, human: bool, pad: bool) -> Text:
        lines: list[Text] = []
        if view.outcome is not None:
            return Text("")
        total = view.turn_total
        if view.phase is Phase.SET_ASIDE:
            option = None if set_aside is None else view.option(str(set_aside))
            if set_aside is None:
                lines.append(Text(t("table.selection_none", n=len(view.roll or ())) if human else ""))
            elif option is not None:
                lines.append(Text(t("table.selection_ok", dice=" ".join(map(str, set_aside)),
                                    points=t.number(option.points)), style="bold"))
            elif (refused := view.refusals.get(str(set_aside))) is None or refused.code is Code.NOT_SCORING:
                lines.append(Text(t("table.selection_no_score", dice=" ".join(map(str, set_aside))), style="italic"))
            else:
                lines.append(Text(t("table.selection_refused", dice=" ".join(map(str, set_aside)),
                                    reason=t.refusal(refused)), style="italic"))
            if option is not None:
                after = total + option.points
                lines.append(Text(t("table.turn_total_after", total=t.number(total), after=t.number(after))))
                risk = t("table.risk", dice=t.dice(option.risk.dice), risk=t.percent(option.risk.p))
                if option.hot_dice:
                    risk += " · " + t("table.hot_dice_hand", n=view.dice)
                lines.append(Text(risk))
                lines.append(Text(_bank_line(t, view, after, option.bank_refusal, option.records)))
            else:
                lines.append(Text(t("table.turn_total", total=t.number(total))))
                lines.append(Text(t("table.risk_unknown")))
        else:
            lines.append(Text(_set_aside_line(t, view.set_asides)))
            hand = t("table.in_hand", dice=t.dice(view.dice_in_hand))
            if view.hot_dice:
                hand = t("table.hot_dice_hand", n=view.dice)
            lines.append(Text(f"{t('table.turn_total', total=t.number(total))} · {hand}"))
            if view.phase is Phase.CHANCE and pad:
                lines.append(Text(t("table.pad_roll")))
            else:
                lines.append(Text(t("table.risk", dice=t.dice(view.risk.dice), risk=t.percent(view.risk.p))))
            if view.phase is Phase.DECIDE:
                lines.append(Text(_bank_line(t, view, total, view.bank_refusal, view.bank_records)))
        return Text("\n").join(lines)


def _bank_line(t: Translator, view: TableView, total: int, refusal: Refusal | None, records: bool) -> str:
    if refusal is not None:
        return t("table.bank_no", reason=t.refusal(refusal))
    if not records:
        return t("table.bank_not_recorded", points=t.number(total), entry=t.number(view.entry))
    return t("table.bank_ok", points=t.number(total), score=t.number(view.players[view.current].score + total))


def _set_aside_line(t: Translator, set_asides: Sequence[str]) -> str:
    if not set_asides:
        return t("table.set_aside_none")
    groups = [" ".join(k) for k in set_asides]
    line = t("table.set_aside", dice=" │ ".join(groups))
    while len(line) > _STATUS_WIDTH and len(groups) > 1:  # a long turn: its latest set-asides
        groups.pop(0)
        line = t("table.set_aside", dice="… │ " + " │ ".join(groups))
    return line


class PadInput(Input):
    """The score pad's dice input, open while the table's real dice are to be typed in."""

    def show(self, t: Translator, dice: int | None) -> None:
        """``dice``: how many dice are to be typed in now; None: none are."""
        if dice is not None and not self.display:
            self.value = ""
            self.placeholder = t("table.pad_prompt", dice=t.dice(dice),
                                 example="".join(str(i % 6 + 1) for i in range(dice)))
            self.display = True
            self.disabled = False
            self.focus()
        elif dice is None and self.display:
            self.display = False
            self.disabled = True


class KeysLine(Static):
    """The keys the player has now: at the end, while the computer plays, on the score pad, in a small terminal,
    or at the table (``state``)."""

    KEYS: ClassVar[dict[str, str]] = {
        "over": "over.keys", "over-daily": "over.keys_daily", "over-challenge": "over.keys_challenge",
        "computer": "table.keys_computer", "pad": "table.keys_pad",
        "compact": "table.keys_compact", "table": "table.keys",
    }

    def show(self, t: Translator, state: str, dice: int) -> None:
        self.update(t(self.KEYS[state], n=dice), layout=False)

    @staticmethod
    def over(mode: Mode) -> str:
        """The state at a game's end: Enter is the rematch, but the daily's is another (unofficial) attempt and a
        friend challenge's is "challenge back" (:meth:`hotdice.tui.app.HotDiceApp.play_again`)."""
        return {Mode.DAILY: "over-daily", Mode.CHALLENGE: "over-challenge"}.get(mode, "over")


class CoachList(VerticalScroll, can_focus=False):
    """The coach's choices, best first: every one of them, scrolled with PgUp/PgDn when they do not fit. The coach
    is asked in a thread, on a copy of the game, so that play may go on; its answer comes as :class:`Answered`."""

    class Answered(Message):
        """The coach's hint, for the table to show if its game is still where it was asked."""

        def __init__(self, hint: Hint) -> None:
            super().__init__()
            self.hint = hint

    advice: Text | None = None  # what it shows; None: it is hidden

    def ask(self, t: Translator, game: Game) -> None:
        self.advice = Text(t("table.hint_thinking"), style="italic")
        self._think(game)

    @work(thread=True, exclusive=True, group="hint")
    def _think(self, game: Game) -> None:
        """A table not at hand is solved in the background: expected points meanwhile."""
        self.post_message(self.Answered(hint_of(game)))

    def show(self) -> None:
        self.display = self.advice is not None
        if self.advice is not None:
            self.query_one("#advice-text", Static).update(self.advice)


def hint_text(t: Translator, hint: Hint) -> Text:
    """The hint's facts in the table's words, the web's very answer (:class:`hotdice.play.hint.Hint`)."""
    text = Text(t("table.hint_title", measure=t(f"measure.{hint.measure}")), style="bold")
    if hint.solver is not None and not hint.solver.ready:
        text.append("\n" + solver_line(t, hint.solver, "table.coach_working"), style="italic")
    if len(hint.choices) > 2:  # more than the list's least height shows
        text.append(" · " + t("table.hint_scroll"), style="")
    for number, choice in enumerate(hint.choices):
        if choice.set_aside is None:
            what = t(f"hint.{choice.then}")
        else:
            what = t(f"hint.keep_{choice.then}", keep=" ".join(choice.set_aside))
        value = _measure(t, hint.measure, choice.value)
        cost = t("hint.best") if number == 0 else t("hint.cost", cost=_measure(t, hint.measure, choice.cost))
        text.append("\n" + t("hint.line", mark="▸" if number == 0 else " ", what=what, value=value, cost=cost))
    return text


def _measure(t: Translator, measure: str, value: float) -> str:
    if measure == "win":
        return t.percent(value)
    return t.decimal(value, 2 if measure == "turns" else 1)
