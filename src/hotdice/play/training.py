"""Training (RULES.md, "Modes"): a scoring quiz and bank-or-roll drills; nothing there is a game, nothing is
ever recorded."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from hotdice.analysis.expectation import may_bank, turn_values
from hotdice.analysis.odds import roll_odds
from hotdice.game.engine import Game, Phase
from hotdice.game.refusals import Code, Refusal
from hotdice.game.rules import Rules
from hotdice.game.scoring import Combination, DiceError, SetAside, scorer
from hotdice.play.modes import ten_turn_rules

__all__ = ["Answer", "Drill", "ScoringQuestion"]


@dataclass(frozen=True)
class Answer:
    """Whether an answer is right, and why."""

    correct: bool
    explanation: str


def _points(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _dice(dice: Iterable[int]) -> str:
    return " ".join(map(str, dice))


@dataclass(frozen=True)
class ScoringQuestion:
    """A scoring quiz question: what is the best score of this roll, and which set-aside gives it?"""

    rules: Rules
    roll: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.roll) <= self.rules.dice or any(d not in range(1, 7) for d in self.roll):
            raise DiceError(Refusal(Code.NOT_A_QUESTION, {"roll": self.roll, "dice": self.rules.dice}))

    @classmethod
    def random(cls, rules: Rules, rng: random.Random, dice: int | None = None) -> ScoringQuestion:
        """A random roll of ``dice`` dice (a random number of them if not given)."""
        n = rng.randint(1, rules.dice) if dice is None else dice
        return cls(rules, tuple(rng.randint(1, 6) for _ in range(n)))

    @property
    def best_score(self) -> int:
        best = scorer(self.rules).best(self.roll)
        return best.points if best else 0

    @property
    def best_set_aside(self) -> SetAside | None:
        """The set-aside with the most points, fewest dice among equals; None on a farkle."""
        best = scorer(self.rules).best(self.roll)
        return best.set_aside if best else None

    @property
    def combinations(self) -> tuple[Combination, ...]:
        """What the best set-aside is made of (which dice make which combination, worth what), largest first;
        none on a farkle. The front ends word them: the quiz's explanation."""
        set_aside = self.best_set_aside
        return () if set_aside is None else tuple(scorer(self.rules).partition(set_aside))

    @property
    def rest(self) -> tuple[int, ...]:
        """The dice of the roll outside its best set-aside (the whole roll on a farkle), sorted."""
        rest = sorted(self.roll)
        for die in self.best_set_aside or ():
            rest.remove(die)
        return tuple(rest)

    @property
    def explanation(self) -> str:
        set_aside = self.best_set_aside
        if set_aside is None:
            return f"{_dice(self.roll)}: nothing scores, a farkle (0)"
        parts = ", ".join(f"{c.name} = {c.points}" for c in self.combinations)
        return f"{_dice(self.roll)}: {parts}; set aside {set_aside} for {self.best_score}"

    def check_score(self, answer: int) -> Answer:
        right = answer == self.best_score
        return Answer(right, ("Right. " if right else f"No, {self.best_score}. ") + self.explanation)

    def check_set_aside(self, answer: str | Iterable[int]) -> Answer:
        """Right if the set-aside is legal and worth the best score; "farkle" (or "none") when nothing scores."""
        if isinstance(answer, str) and answer.strip().lower() in ("farkle", "none", "nothing", "-", ""):
            right = self.best_set_aside is None
        else:
            set_aside = SetAside.parse(answer, self.rules.dice)
            option = scorer(self.rules).option_for(self.roll, set_aside)
            right = option is not None and option.points == self.best_score
        return Answer(right, ("Right. " if right else "No. ") + self.explanation)


@dataclass(frozen=True)
class Drill:
    """A bank-or-roll drill: with this turn total and these dice in hand, bank or roll? Solo view (exact)."""

    rules: Rules
    turn_total: int
    dice_in_hand: int
    entered: bool = True
    hot_dice: bool = False

    def __post_init__(self) -> None:
        turn_values(self.rules).value(self.turn_total, self.dice_in_hand, entered=self.entered, hot_dice=self.hot_dice)
        if not may_bank(self.rules, self.turn_total, entered=self.entered, hot_dice=self.hot_dice):
            raise ValueError(
                f"banking {self.turn_total} is not allowed here under these rules, so there is nothing to decide"
            )

    @classmethod
    def random(cls, rules: Rules, rng: random.Random) -> Drill:
        """A state met in play: a turn played with random dice and set-asides, stopped where banking is allowed."""
        table = ten_turn_rules(rules).replace(entry=0)
        while True:
            game = Game(table, ("drill",))
            while game.turns_played == (0,):
                if game.phase is Phase.SET_ASIDE:
                    game.apply(rng.choice(game.options()).set_aside)
                elif game.why_not_bank() is None and rng.random() < 0.4:
                    return cls(rules, game.turn_total, game.dice_in_hand, hot_dice=game.hot_dice)
                else:
                    game.apply("roll")
                    game.apply_roll(tuple(rng.randint(1, 6) for _ in range(game.dice_in_hand)))

    @property
    def roll_value(self) -> float:
        return turn_values(self.rules).roll_value(self.turn_total, self.dice_in_hand, entered=self.entered)

    @property
    def bank_value(self) -> float:
        bank = turn_values(self.rules).bank_value(self.turn_total, entered=self.entered, hot_dice=self.hot_dice)
        assert bank is not None
        return bank

    @property
    def farkle_chance(self) -> Fraction:
        """The exact chance that rolling on farkles at once (the turn total lost)."""
        return roll_odds(self.rules, self.dice_in_hand).farkle

    @property
    def answer(self) -> str:
        """ "roll" or "bank": the choice with the most expected points (bank when they are equal)."""
        tv = turn_values(self.rules)
        rolling = tv.should_roll(self.turn_total, self.dice_in_hand, entered=self.entered, hot_dice=self.hot_dice)
        return "roll" if rolling else "bank"

    @property
    def explanation(self) -> str:
        hot = " (hot dice)" if self.hot_dice else ""
        dice = f"{self.dice_in_hand} {'die' if self.dice_in_hand == 1 else 'dice'}{hot}"
        return (
            f"Rolling {dice} is worth {_points(self.roll_value)} expected points "
            f"against {_points(self.bank_value)} for banking: {self.answer}"
        )

    def check(self, answer: str) -> Answer:
        """Right if the answer is worth as much as the best choice (both are right when they are equal)."""
        word = {"r": "roll", "roll": "roll", "b": "bank", "bank": "bank"}.get(answer.strip().lower())
        if word is None:
            raise ValueError(f"'{answer}' is not an answer: say roll or bank")
        chosen = self.roll_value if word == "roll" else self.bank_value
        right = chosen >= max(self.roll_value, self.bank_value) - 1e-9
        return Answer(right, ("Right. " if right else "No. ") + self.explanation)
