"""Training: scoring questions and bank-or-roll drills under the player's rules. Nothing here is a game:
nothing is stored, and the question comes back with the answer (it holds no secret)."""

from __future__ import annotations

import random
from typing import Any

from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import DiceError
from hotdice.play.training import Drill, ScoringQuestion
from hotdice.web.errors import BadRequest

__all__ = ["check_drill", "check_question", "drill", "question"]

_rng = random.SystemRandom()


def _rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BadRequest(f"bad rules: {exc}", because=exc) from None


def question(rules: str) -> dict[str, Any]:
    r = _rules(rules)
    q = ScoringQuestion.random(r, random.Random(_rng.getrandbits(64)), dice=_rng.randint(2, r.dice))
    return {"rules": str(r), "roll": list(q.roll)}


def check_question(rules: str, roll: list[int], set_aside: str) -> dict[str, Any]:
    """Right if ``set_aside`` (the dice set aside, or "farkle") is a legal set-aside worth the roll's best score."""
    r = _rules(rules)
    try:
        q = ScoringQuestion(r, tuple(roll))
        answer = q.check_set_aside(set_aside)
    except DiceError as exc:
        raise BadRequest(str(exc), because=exc) from None
    best = q.best_set_aside
    return {
        "correct": answer.correct,
        "best_keep": None if best is None else str(best),
        "best_points": q.best_score,
        "explanation": q.explanation,
    }


DRILL_MIN_BANK = 500  # Drill.random plays random turns until banking is allowed: it must come soon


def drill(rules: str) -> dict[str, Any]:
    r = _rules(rules)
    if r.min_bank > DRILL_MIN_BANK:
        raise BadRequest(f"bank-or-roll drills need min_bank of at most {DRILL_MIN_BANK}, not {r.min_bank}")
    d = Drill.random(r, random.Random(_rng.getrandbits(64)))
    return {"rules": str(d.rules), "turn_total": d.turn_total, "dice": d.dice_in_hand, "hot_dice": d.hot_dice}


def check_drill(rules: str, turn_total: int, dice: int, hot_dice: bool, answer: str) -> dict[str, Any]:
    try:
        d = Drill(_rules(rules), turn_total, dice, hot_dice=hot_dice)
        checked = d.check(answer)
    except ValueError as exc:
        raise BadRequest(str(exc), because=exc) from None
    return {
        "correct": checked.correct,
        "answer": d.answer,
        "roll_value": d.roll_value,
        "bank_value": d.bank_value,
        "explanation": d.explanation,
    }
