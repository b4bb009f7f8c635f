"""Training: scoring questions and bank-or-roll drills (never recorded)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.schemas import EDGE, DrillAnswer, QuestionAnswer, RulesQuery
from hotdice.web.services import training

router = APIRouter(prefix="/api/training", tags=["training"], responses=EDGE)


@router.get("/question")
def question(rules: RulesQuery = "farkle") -> dict[str, Any]:
    return training.question(rules)


@router.post("/question")
def check_question(body: QuestionAnswer) -> dict[str, Any]:
    return training.check_question(body.rules, body.roll, body.keep)


@router.get("/drill")
def drill(rules: RulesQuery = "farkle") -> dict[str, Any]:
    return training.drill(rules)


@router.post("/drill")
def check_drill(body: DrillAnswer) -> dict[str, Any]:
    return training.check_drill(body.rules, body.turn_total, body.dice, body.hot_dice, body.answer)


@router.get("/first-turn")
def first_turn(rules: RulesQuery = "farkle") -> dict[str, Any]:
    return training.first_turn(rules)
