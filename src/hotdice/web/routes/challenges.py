"""Friend challenges."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.web.deps import PlayerDep, SessionDep, VisitorDep
from hotdice.web.schemas import EDGE, ChallengeMade, Code, Made, NewChallenge, refusals
from hotdice.web.services import challenges

router = APIRouter(prefix="/api/challenges", tags=["challenges"], responses=EDGE)


@router.post("", status_code=201, response_model=ChallengeMade)
def create(body: NewChallenge, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    found = challenges.create(session, player, body.preset)
    session.commit()
    return {"code": found.code, "url": f"/c/{found.code}", "commitment": challenges.commitment(found)}


@router.get("/{code}", responses=refusals(404))
def results(code: Code, session: SessionDep, visitor: VisitorDep) -> dict[str, Any]:
    """The challenge as it stands; opened by someone other than its creator, it waits in their games."""
    found = challenges.results(session, code, visitor)
    challenges.opened(session, code, visitor)
    session.commit()
    return found


@router.post("/{code}/play", status_code=201, response_model=Made, responses=refusals(404, 409))
def play(code: Code, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    row = challenges.play(session, player, code)
    session.commit()
    return {"id": row.id, "url": f"/play/{row.id}"}


@router.post("/{code}/close", responses=refusals(403, 404))
def close(code: Code, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    challenges.close(session, player, code)
    session.commit()
    return challenges.results(session, code, player)
