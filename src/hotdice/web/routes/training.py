"""Training: scoring questions and bank-or-roll drills (never recorded)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.deps import SessionDep, VisitorDep
from hotdice.web.schemas import EDGE, DrillAnswer, MistakeAnswer, QuestionAnswer, RulesQuery, refusals
from hotdice.web.services import reviews, training

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


@router.get("/mistakes")
def mistakes(session: SessionDep, visitor: VisitorDep) -> list[dict[str, Any]]:
    """Learn from your mistakes: the mistakes and blunders of this device's player in their last finished games, each
    a position to play again (its choices without their values until answered). Never recorded."""
    return reviews.mistakes(session, None if visitor is None else visitor.id)


@router.post("/mistakes", responses=refusals(404, 409))
def check_mistake(body: MistakeAnswer, session: SessionDep) -> dict[str, Any]:
    """An answer to one of those exercises, checked against the exact values of its game's review."""
    return reviews.check_mistake(session, body.game, body.step, body.decision)
