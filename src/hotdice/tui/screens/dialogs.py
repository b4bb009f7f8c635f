"""Windows over the table: the scoring table of the rules in force, and the results at the end of a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from hotdice.game.rules import Rules
from hotdice.game.scoring import CombinationKind, scoring_table
from hotdice.i18n.scoring import combination_name
from hotdice.play.modes import Mode, shown_rules
from hotdice.tui.i18n import Translator
from hotdice.tui.panels import KeysLine
from hotdice.tui.screens.base import HotDiceModal
from hotdice.tui.session import Session

__all__ = [
    "ConfirmScreen",
    "GameOverScreen",
    "HowToPlayScreen",
    "ScoringScreen",
    "combination_name",
    "how_to_play",
    "rules_summary",
]

def rules_summary(t: Translator, rules: Rules, turns: int | None = None) -> list[str]:
    """How the game ends (after ``turns`` turns each, when the mode has them) and the house rules in force,
    one line each."""
    ends = t(f"scoring.target.{rules.end.value}", target=t.number(rules.target))
    lines = [ends if turns is None else t("scoring.turns", n=turns)]
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


def scoring_columns(t: Translator, rules: Rules) -> Table:
    """The scoring table of ``rules`` in two columns of combinations, so that it fits 80 x 24."""
    rows = [(combination_name(t, line), t.number(line.points)) for line in scoring_table(rules)]
    half = (len(rows) + 1) // 2
    table = Table(box=None, pad_edge=False)
    for number, title in enumerate(("scoring.combination", "scoring.points", "", "scoring.combination",
                                    "scoring.points")):
        table.add_column(t(title) if title else "", justify="right" if number in (1, 4) else "left")
    for left, right in zip(rows[:half], [*rows[half:], ("", "")], strict=False):
        table.add_row(left[0], left[1], "", right[0], right[1])
    return table


def how_to_play(t: Translator, rules: Rules) -> list[str]:
    """A turn told step by step for a new player, worded from ``rules``: its dice, the faces that score alone,
    then the rules in force (the end, entry, hot dice, three farkles...) as the scoring table says them."""
    singles = [str(line.face) for line in scoring_table(rules) if line.kind is CombinationKind.SINGLE]
    steps = [
        t("howto.roll", dice=t.dice(rules.dice)),
        t("howto.score", singles=t("howto.or").join(singles)),
        t("howto.set_aside", n=rules.dice),
        t("howto.roll_or_bank"),
        t("howto.farkle"),
        t("howto.hot_dice", n=rules.dice),
    ]
    return [*steps, "", *rules_summary(t, rules)]


class _RulesWindow(HotDiceModal):
    """A window about the rules in force; Esc, ?, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, rules: Rules, turns: int | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.turns = turns  # the ten-turn modes: their lifted target is not shown

    def action_close(self) -> None:
        self.dismiss()


class HowToPlayScreen(_RulesWindow):
    """How to play (``?`` or F1 on the menu): a turn step by step, the rules in force, the scoring table.
    It scrolls when the terminal is too small for it."""

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        with VerticalScroll(id="howto-box", classes="dialog"):
            yield Static(Text(t("howto.title", rules=shown_rules(self.rules)), style="bold"))
            yield Static("\n".join(how_to_play(t, self.rules)), id="howto-text")
            yield Static(scoring_columns(t, self.rules), id="scoring-table")
            yield Static(t("howto.keys"), classes="dialog-keys")


class ConfirmScreen(HotDiceModal):
    """A question before something that cannot be taken back: Enter does it, Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "yes", show=False),
        Binding("escape", "no", show=False),
        Binding("q", "no", show=False),
    ]

    def __init__(self, question: str, then: Callable[[], None]) -> None:
        super().__init__()
        self.question = question
        self.then = then

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(Text(self.question, style="bold"), id="confirm-question")
            yield Static(self.hotdice.t("confirm.keys"), classes="dialog-keys")

    def action_yes(self) -> None:
        self.dismiss()
        self.then()

    def action_no(self) -> None:
        self.dismiss()


class ScoringScreen(_RulesWindow):
    """The scoring table of the rules in force (``?`` at the table)."""

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        with Vertical(id="scoring-box", classes="dialog"):
            yield Static(Text(t("scoring.title", rules=shown_rules(self.rules)), style="bold"))
            yield Static(scoring_columns(t, self.rules), id="scoring-table")
            yield Static("\n".join([t("scoring.note"), *rules_summary(t, self.rules, self.turns)]), id="scoring-rules")
            yield Static(t("scoring.keys"), classes="dialog-keys")


class GameOverScreen(HotDiceModal):
    """Who won and why, every score, and whether the game was recorded (with the daily's share text). Enter is
    the rematch (:meth:`hotdice.tui.app.HotDiceApp.play_again`), R the review, Esc the menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "again", show=False),
        Binding("escape", "menu", show=False),
        Binding("q", "menu", show=False),
        Binding("r", "review", show=False),
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
            headline = t(key, score=t.number(game.scores[0]), turns=t.plural("turns", game.turns_played[0]),
                         target=t.number(rules.target))  # a race's headline leads with its turns
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
            yield Static(t(KeysLine.KEYS[KeysLine.over(self.session.mode)]), classes="dialog-keys")

    def action_again(self) -> None:
        self.hotdice.play_again(self.session)

    def action_review(self) -> None:
        from hotdice.tui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen(self.session.game))

    def action_menu(self) -> None:
        self.hotdice.back_to_menu()
