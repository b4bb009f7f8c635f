"""The device's player (name, house rules) and the rules checker of the settings page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import scoring_table
from hotdice.i18n.scoring import combination_name
from hotdice.web.deps import PlayerDep, SessionDep, TranslatorDep
from hotdice.web.errors import BadRequest
from hotdice.web.schemas import EDGE, Me, MeIn, RulesQuery
from hotdice.web.services import players

router = APIRouter(prefix="/api", tags=["players"], responses=EDGE)


@router.get("/me", response_model=Me)
def me(player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    session.commit()
    return {"name": player.name, "rules": player.rules}


@router.post("/me", response_model=Me)
def update_me(body: MeIn, player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    players.update(player, name=body.name, rules=body.rules)
    session.commit()
    return {"name": player.name, "rules": player.rules}


@router.get("/rules")
def check_rules(t: TranslatorDep, text: RulesQuery = "farkle") -> dict[str, Any]:
    """A rules string read as the engine reads it: its shortest form, every knob, the scoring table (each line
    also named in the page's language, ``name``: the rules page redraws it as the rules are edited)."""
    try:
        rules = Rules.parse(text)
    except RulesError as exc:
        raise BadRequest(f"bad rules: {exc}", because=exc) from None
    lines = scoring_table(rules)
    return {**rules.to_json(),
            "scoring": [{"combination": c.name, "name": combination_name(t, c), "points": c.points} for c in lines]}
