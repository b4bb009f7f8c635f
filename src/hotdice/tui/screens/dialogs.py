"""Windows over the table: the scoring table of the rules in force, and the results at the end of a game."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from hotdice.game.rules import Rules
from hotdice.game.scoring import scoring_table
from hotdice.i18n.scoring import combination_name
from hotdice.play.modes import Mode
from hotdice.tui.i18n import Translator
from hotdice.tui.screens.base import HotDiceModal
from hotdice.tui.session import Session

__all__ = ["GameOverScreen", "ScoringScreen", "combination_name", "rules_summary"]

def rules_summary(t: Translator, rules: Rules) -> list[str]:
    """How the game ends and the house rules in force, one line each."""
    lines = [t(f"scoring.target.{rules.end.value}", target=t.number(rules.target))]
    if rules.entry:
        lines.append(t("scoring.entry", entry=t.number(rules.entry)))
    if rules.min_bank:
        lines.append(t("scoring.min_bank", points=t.number(rules.min_bank)))
    lines.append(t(f"scoring.hot_dice.{rules.hot_dice.value}"))
    if rules.three_farkles:
        lines.append(t("scoring.three_farkles", points=t.number(rules.three_farkles)))
    if rules.validate:
        lines.append(t("scoring.validate"))
    if rules.five_1s_win:
        lines.append(t("scoring.five_1s"))
    return lines


class ScoringScreen(HotDiceModal):
    """The scoring table of the rules in force (``?`` at the table)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        rows = [(combination_name(t, line), t.number(line.points)) for line in scoring_table(self.rules)]
        half = (len(rows) + 1) // 2  # two columns of combinations: the table fits 80 x 24
        table = Table(box=None, pad_edge=False)
        for number, title in enumerate(("scoring.combination", "scoring.points", "", "scoring.combination",
                                        "scoring.points")):
            table.add_column(t(title) if title else "", justify="right" if number in (1, 4) else "left")
        for left, right in zip(rows[:half], [*rows[half:], ("", "")], strict=False):
            table.add_row(left[0], left[1], "", right[0], right[1])
        with Vertical(id="scoring-box", classes="dialog"):
            yield Static(Text(t("scoring.title", rules=str(self.rules)), style="bold"))
            yield Static(table, id="scoring-table")
            yield Static("\n".join([t("scoring.note"), *rules_summary(t, self.rules)]), id="scoring-rules")
            yield Static(t("scoring.keys"), classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss()


class GameOverScreen(HotDiceModal):
    """Who won and why, every score, and whether the game was recorded. Enter plays again, Esc the menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "again", show=False),
        Binding("escape", "menu", show=False),
        Binding("q", "menu", show=False),
    ]

    def __init__(self, session: Session, note: str) -> None:
        super().__init__()
        self.session = session
        self.note = note

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        game = self.session.game
        outcome = game.outcome
        assert outcome is not None
        rules = game.rules
        winners = outcome.winners
        names = self.hotdice.names(self.session)
        if len(game.players) == 1:
            key = "over.race" if self.session.mode is Mode.RACE else "over.solo"
            headline = t(key, score=t.number(game.scores[0]), turns=t.plural("turns", game.turns_played[0]))
        elif self.session.computer is not None:
            computer = self.session.setup.computer
            assert computer is not None
            won = winners == (computer,)
            headline = t("over.computer_wins", name=names[computer]) if won else t("over.you_win")
        elif len(winners) == 1:
            headline = t("over.winner", name=names[winners[0]])
        else:
            headline = t("over.winners", names=t("log.and").join(names[w] for w in winners))
        why = t(f"over.why.{outcome.termination.value}", target=t.number(rules.target))
        table = Table("", "", "", box=None, show_header=False, pad_edge=False)
        for i, (name, score, turns) in enumerate(zip(names, game.scores, game.turns_played, strict=True)):
            mark = "★" if i in winners and len(game.players) > 1 else " "
            table.add_row(f"{mark} {name}", t.number(score), t.plural("turns", turns))
        with Vertical(id="over-box", classes="dialog"):
            yield Static(Text(t("over.title"), style="bold"))
            yield Static(Text(headline, style="bold"), id="over-headline")
            yield Static(why, id="over-why")
            yield Static(table, id="over-scores")
            if self.session.setup.challenge is not None:
                yield Static(t("over.challenge", code=self.session.setup.challenge.code), id="over-code")
            yield Static(self.note, id="over-note")
            yield Static(t("over.keys"), classes="dialog-keys")

    def action_again(self) -> None:
        self.hotdice.play_again(self.session)

    def action_menu(self) -> None:
        self.hotdice.back_to_menu()
