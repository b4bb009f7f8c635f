"""The bodies the API accepts; sizes are bounded so that no request can ask for unbounded work."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path, Query
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Code",
    "DrillAnswer",
    "GameId",
    "IntentIn",
    "JoinTable",
    "MeIn",
    "NewChallenge",
    "NewGame",
    "NewTable",
    "QuestionAnswer",
    "RulesQuery",
    "StepIn",
]

Text = Annotated[str, Field(max_length=100)]
RulesText = Annotated[str, Field(max_length=600)]
# In the address: a game id (16 characters), a challenge or table code (a few dozen at most), a rules string.
GameId = Annotated[str, Path(max_length=32)]
Code = Annotated[str, Path(max_length=40)]
RulesQuery = Annotated[str, Query(max_length=600)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeIn(_Body):
    name: Text | None = None
    rules: RulesText | None = None


class NewGame(_Body):
    mode: Annotated[str, Field(max_length=16)]
    names: Annotated[list[Text], Field(min_length=1, max_length=8)] | None = None
    level: Annotated[str, Field(max_length=16)] = "medium"
    roll_off: bool = False
    rules: RulesText | None = None


class IntentIn(_Body):
    """Set ``keep`` aside, then ``roll`` or ``bank``; ``n`` is the game's action number the screen showed."""

    n: Annotated[int, Field(ge=0, le=1_000_000)]
    keep: Annotated[str, Field(max_length=20)] | None = None
    then: Literal["roll", "bank"] | None = None
    dice: Annotated[str, Field(max_length=20)] | None = None  # the score pad: the roll the table read


class StepIn(_Body):
    n: Annotated[int, Field(ge=0, le=1_000_000)]


class NewChallenge(_Body):
    preset: Annotated[str, Field(max_length=32)] = "farkle"


class NewTable(_Body):
    rules: RulesText | None = None
    roll_off: bool = False


class JoinTable(_Body):
    name: Text | None = None


class QuestionAnswer(_Body):
    rules: RulesText
    roll: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(min_length=1, max_length=6)]
    keep: Annotated[str, Field(max_length=20)]


class DrillAnswer(_Body):
    rules: RulesText
    turn_total: Annotated[int, Field(ge=0, le=1_000_000)]
    dice: Annotated[int, Field(ge=1, le=6)]
    hot_dice: bool = False
    answer: Annotated[str, Field(max_length=10)]
