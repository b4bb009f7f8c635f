"""The device player's statistics and records, as JSON (the page draws the charts)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.deps import SessionDep, VisitorDep
from hotdice.web.schemas import EDGE
from hotdice.web.services.stats import player_stats

router = APIRouter(prefix="/api/stats", tags=["stats"], responses=EDGE)


@router.get("")
def stats(session: SessionDep, visitor: VisitorDep) -> dict[str, Any]:
    found = player_stats(session, visitor)
    if found is None:
        return {"games": 0}
    scores = {mode: [score for _, score in points] for mode, points in found.scores.items()}
    return {**found.stats.to_json(), "scores": scores}
