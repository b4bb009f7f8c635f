"""Training: scoring questions and bank-or-roll drills under the player's rules. Nothing here is a game:
nothing is stored, and the question comes back with the answer (it holds no secret)."""

from __future__ import annotations

import random
from typing import Any

from hotdice.game.refusals import Refusal
from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import Combination, DiceError
from hotdice.play.first_turn import guided_turn
from hotdice.play.training import Drill, ScoringQuestion
from hotdice.web.errors import BadRequest

__all__ = ["check_drill", "check_question", "drill", "first_turn", "question"]

_rng = random.SystemRandom()


def _rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BadRequest(f"bad rules: {exc}", because=exc) from None


def _combination(combo: Combination) -> dict[str, Any]:
    return {"kind": combo.kind.value, "dice": list(combo.dice), "points": combo.points}


def _refusal(refusal: Refusal | None) -> dict[str, Any] | None:
    return None if refusal is None else {"code": refusal.code.value, "values": refusal.values}


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
        "combinations": [_combination(c) for c in q.combinations],
        "rest": list(q.rest),
        "explanation": q.explanation,
    }


DRILL_MIN_BANK = 500  # Drill.random plays random turns until banking is allowed: it must come soon


def drill(rules: str) -> dict[str, Any]:
    r = _rules(rules)
    if r.min_bank > DRILL_MIN_BANK:
        raise BadRequest.said("error.drill_min_bank", max=DRILL_MIN_BANK, min_bank=r.min_bank)
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
        "farkle_chance": float(d.farkle_chance),
        "explanation": d.explanation,
    }


def first_turn(rules: str) -> dict[str, Any]:
    """The guided first turn under the player's rules: the engine's steps, as data for the page to word."""
    r = _rules(rules)
    steps = [
        {
            "kind": step.kind.value,
            "dice": list(step.dice),
            "points": step.points,
            "turn_total": step.turn_total,
            "dice_in_hand": step.dice_in_hand,
            "hot_dice": step.hot_dice,
            "combinations": [_combination(c) for c in step.combinations],
            "bank": _refusal(step.bank),
        }
        for step in guided_turn(r)
    ]
    return {"rules": str(r), "dice": r.dice, "steps": steps}
