"""Training: the scoring quiz and bank-or-roll drills of :mod:`hotdice.play.training`. Nothing here is ever recorded."""

from __future__ import annotations

import random
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from hotdice.game.rules import Rules
from hotdice.game.scoring import ScoringLine, SetAside, scorer
from hotdice.i18n.scoring import combination_name
from hotdice.play.training import Drill, ScoringQuestion
from hotdice.tui.screens.base import HotDiceScreen
from hotdice.tui.widgets import DiceRow

__all__ = ["TrainingScreen"]


class TrainingScreen(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 7)),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "pick_cursor", show=False),
        Binding("enter", "answer", show=False),
        Binding("r", "drill('roll')", show=False),
        Binding("b", "drill('bank')", show=False),
        Binding("n", "next", show=False),
        Binding("t", "switch", show=False),
        Binding("escape", "back", show=False),
        Binding("q", "back", show=False),
    ]

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        super().__init__()
        self.rules = rules
        self.rng = rng
        self.quiz = True
        self.question: ScoringQuestion | None = None
        self.drill: Drill | None = None
        self.answered = False
        self.right = self.asked = 0
        self.picked: set[int] = set()
        self.cursor = 0
        self.feedback = Text("")

    def compose(self) -> ComposeResult:
        yield Static(id="training-title")
        yield Static(id="training-prompt")
        yield DiceRow(id="dice")
        yield Static(id="training-feedback")
        yield Static(id="training-tally")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.action_next()

    def draw(self) -> None:
        t = self.hotdice.t
        part = t("training.quiz" if self.quiz else "training.drill")
        self.query_one("#training-title", Static).update(Text(f"{t('training.title')} · {part}", style="bold"))
        dice = self.query_one("#dice", DiceRow)
        if self.quiz and self.question is not None:
            n = len(self.question.roll)
            prompt = t("training.quiz_prompt", n=n)
            dice.faces, dice.tone = self.question.roll, "live"
            dice.picked = frozenset(self.picked)
            dice.cursor = -1 if self.answered else self.cursor
            keys = t("training.keys_quiz", n=n)
        else:
            assert self.drill is not None
            d = self.drill
            hot = t("training.hot") if d.hot_dice else ""
            prompt = t("training.drill_prompt", total=t.number(d.turn_total), dice=t.dice(d.dice_in_hand), hot=hot)
            dice.faces, dice.tone, dice.picked, dice.cursor = (None,) * d.dice_in_hand, "waiting", frozenset(), -1
            keys = t("training.keys_drill")
        self.query_one("#training-prompt", Static).update(prompt)
        self.query_one("#training-feedback", Static).update(self.feedback)
        self.query_one("#training-tally", Static).update(t("training.tally", right=self.right, asked=self.asked))
        self.query_one("#keys", Static).update(keys)

    def action_next(self) -> None:
        self.answered = False
        self.picked = set()
        self.cursor = 0
        self.feedback = Text("")
        if self.quiz:
            self.question = ScoringQuestion.random(self.rules, self.rng)
        else:
            self.drill = Drill.random(self.rules, self.rng)
        self.draw()

    def action_switch(self) -> None:
        self.quiz = not self.quiz
        self.action_next()

    def action_pick(self, index: int) -> None:
        if not self.quiz or self.answered or self.question is None or index >= len(self.question.roll):
            return
        self.picked ^= {index}
        self.cursor = index
        self.draw()

    def action_cursor(self, step: int) -> None:
        if self.quiz and self.question is not None and not self.answered:
            self.cursor = (self.cursor + step) % len(self.question.roll)
            self.draw()

    def action_pick_cursor(self) -> None:
        self.action_pick(self.cursor)

    def action_answer(self) -> None:
        if not self.quiz or self.answered or self.question is None:
            return
        t = self.hotdice.t
        q = self.question
        set_aside = SetAside(*(q.roll[i] for i in sorted(self.picked)))
        answer = q.check_set_aside(set_aside if set_aside else "farkle")
        self.score(answer.correct)
        best = q.best_set_aside
        if best is None:
            detail = t("training.farkle")
        else:
            detail = t("training.best", keep=" ".join(map(str, best)), points=t.number(q.best_score))
            parts = [  # which dice make which combination, worth what
                t("combo.part", dice=" ".join(map(str, c.dice)), points=t.number(c.points),
                  name=combination_name(t, ScoringLine(c.kind, len(c.dice), c.dice[0], c.points)))
                for c in q.combinations
            ]
            detail += "\n" + t("combo.scores", parts=" · ".join(parts))
            if q.rest:
                detail += "\n" + t("combo.rest", dice=" ".join(map(str, q.rest)))
            others = [o for o in scorer(self.rules).options(q.roll) if o.set_aside != best][:3]
            if others:
                listed = ", ".join(f"{' '.join(map(str, o.set_aside))} = {t.number(o.points)}" for o in others)
                detail += "\n" + t("training.others", options=listed)
        self.feedback.append("\n" + detail)
        self.draw()

    def action_drill(self, choice: str) -> None:
        if self.quiz or self.answered or self.drill is None:
            return
        t = self.hotdice.t
        d = self.drill
        self.score(d.check(choice).correct)
        self.feedback.append("\n" + t(
            "training.drill_values",
            dice=t.dice(d.dice_in_hand),
            roll=t.decimal(d.roll_value),
            bank=t.decimal(d.bank_value),
            answer=t(f"training.answer.{d.answer}"),
        ))
        self.draw()

    def score(self, correct: bool) -> None:
        t = self.hotdice.t
        self.answered = True
        self.asked += 1
        self.right += correct
        self.feedback = Text(t("training.right" if correct else "training.wrong"), style="bold")

    def action_back(self) -> None:
        self.app.pop_screen()
