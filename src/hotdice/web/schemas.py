"""The bodies the API accepts, bounded as the server bounds them (no request can ask for unbounded work), and
the refusals it answers with, so that the OpenAPI schema says what the server does."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path, Query
from pydantic import BaseModel, ConfigDict, Field

from hotdice.game.engine import MAX_PLAYERS
from hotdice.play.names import MAX_NAME_CODE_POINTS
from hotdice.web.services.games import GAME_ID, WebView

__all__ = [
    "EDGE",
    "ActedOut",
    "ChallengeMade",
    "Code",
    "DailyMade",
    "DrillAnswer",
    "GameId",
    "IntentIn",
    "JoinTable",
    "Made",
    "Me",
    "MeIn",
    "NewChallenge",
    "NewGame",
    "NewTable",
    "QuestionAnswer",
    "Refusal",
    "Refused",
    "RulesQuery",
    "Since",
    "StepIn",
    "TableMade",
    "refusals",
]

Name = Annotated[str, Field(max_length=MAX_NAME_CODE_POINTS)]  # graphemes counted by the play layer
RulesText = Annotated[str, Field(max_length=600)]
# In the address: a game id (what the server makes, nothing else reaches the database), a challenge or table
# code (read as people type them: spaces, dashes, any case), a rules string.
GameId = Annotated[str, Path(pattern=f"^{GAME_ID.pattern}$")]
Code = Annotated[str, Path(max_length=40)]
RulesQuery = Annotated[str, Query(max_length=600)]
Since = Annotated[int | None, Query(ge=0, le=1_000_000)]  # an event number, bounded as action numbers are


class Refused(BaseModel):
    """What the game or the rules refused, as data: a code of :class:`hotdice.game.refusals.Code`, the values its
    sentence needs, and whether the refused action was a bank ("cannot bank: ...")."""

    code: str
    values: dict[str, Any]
    bank: bool = False


class Said(BaseModel):
    """A message of the catalogue: its key and values, for a page to word in its own language."""

    key: str
    values: dict[str, Any]


class Refusal(BaseModel):
    """Every 4xx of the API: the reason, for a person, and a short code for a program; a few say more (a
    stale action: ``game``, the game now; a rate limit: ``limit``, which one; a refusal of the game or the
    rules: ``refusal``, its code and values)."""

    model_config = ConfigDict(extra="allow")

    detail: str
    code: str
    refusal: Refused | None = None
    message: Said | None = None  # a refusal the catalogue words: its detail is the English of this message


class Made(BaseModel):
    """A new game (or attempt): its id and its page."""

    id: str
    url: str


class DailyMade(Made):
    official: bool  # the first attempt of the day: the one on the leaderboard


class ChallengeMade(BaseModel):
    code: str
    url: str
    commitment: str  # SHA-256 of the challenge's dice key, revealed once it closes


class TableMade(BaseModel):
    code: str
    url: str


class Me(BaseModel):
    name: str
    rules: str


class ActedOut(BaseModel):
    """The answer to an action or a computer step: whether it changed the game, and the game now."""

    applied: bool
    message: str
    said: Said  # the message's key and values in the catalogue
    game: WebView
    waiting: dict[str, Any] | None = None  # a computer step not taken: the table its Hard waits for


class ReviewChoiceOut(BaseModel):
    """One legal decision of a step, with the game's value for the seat if it is played, and its loss."""

    decision: str = Field(description="the engine's notation: 'set aside 155, then roll', 'roll', 'bank'")
    value: float
    loss: float


class ReviewStepOut(BaseModel):
    """A roll or a decision. ``before``/``after``: the value for ``seat`` in the review's measure; ``values``:
    every seat's value after the step (the graph)."""

    seat: int
    kind: Literal["roll", "decision"]
    turn: int = Field(description="the game's turn, from 1, all seats together")
    position: str = Field(description="the position the step was played from (the engine's position text)")
    before: float
    after: float
    values: list[float]
    dice: str | None = Field(description="a roll: the dice that came up")
    luck: float | None = Field(description="a roll: value after the roll minus value of rolling (turns: saved)")
    played: str | None
    best: str | None
    loss: float | None = Field(description="a decision: value of the best choice minus the played one's (>= 0)")
    label: Literal["best", "good", "inaccuracy", "mistake", "blunder"] | None
    choices: list[ReviewChoiceOut] = Field(description="a decision: each set-aside with its best continuation")


class ReviewPlayerOut(BaseModel):
    """One seat's summary: ``end - start = luck - skill_lost`` (win, points), ``start - end`` for turns."""

    seat: int
    name: str
    start: float
    end: float
    luck: float = Field(description="what the player's own choices did not do: every roll, the others' choices")
    skill_lost: float = Field(description="the sum of the player's decisions' losses")
    accuracy: float | None = Field(description="mean of 100 * 2^(-loss / mistake threshold) over the decisions")
    decisions: int
    labels: dict[str, int] = Field(description="how many inaccuracies, mistakes and blunders")


class ReviewThresholdsOut(BaseModel):
    inaccuracy: float
    mistake: float
    blunder: float


class ReviewOut(BaseModel):
    """The review of a finished game (hotdice.analysis.game_review): the same object as ``hotdice review --json``.

    ``measure``: ``win`` (chance to win; a shared win counts its share), ``points`` (expected final points) or
    ``turns`` (expected turns for the whole race, fewer is better)."""

    measure: Literal["win", "points", "turns"]
    approximate: bool = Field(description="values from the computer's approximation (three players or more...)")
    rules: str
    finished: bool
    thresholds: ReviewThresholdsOut
    start: list[float]
    players: list[ReviewPlayerOut]
    steps: list[ReviewStepOut]


_WHY = {
    400: "Bad request (a bad rules string, name, code or Content-Length): the reason says what",
    401: "A bot token (Authorization: Bearer) that names no bot: never made here, or revoked",
    403: "Not yours: only a player of this game, the host or the creator may; or not for bots (the daily, challenges)",
    404: "No such game, challenge or table",
    409: "Well-formed, but not now: an illegal move, a stale action number, a closed challenge, a full table",
    410: "Gone: a link code used, expired, or made by a device signed out since",
    413: "The body is over the server's cap",
    414: "The address is too long",
    422: "The request does not fit this schema: the reason names the field",
    429: "Too many requests: wait Retry-After seconds",
    431: "The headers are too long",
}
_WAIT = {"Retry-After": {"description": "seconds to wait", "required": True, "schema": {"type": "integer"}}}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of an operation that may refuse with ``statuses``."""
    return {status: {"model": Refusal, "description": _WHY[status], **({"headers": _WAIT} if status == 429 else {})}
            for status in statuses}


# What any request of the API may be answered, most of them before its route is reached (limits.py).
EDGE = refusals(400, 413, 414, 422, 429, 431)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeIn(_Body):
    name: Name | None = None
    rules: RulesText | None = None


class NewGame(_Body):
    mode: Annotated[str, Field(max_length=16)]
    # None for a seat nobody named (its default name, worded when shown; the first: the device's player's name).
    names: Annotated[list[Name | None], Field(min_length=1, max_length=MAX_PLAYERS)] | None = None
    level: Annotated[str, Field(max_length=16)] = "medium"
    roll_off: bool = False
    wait: bool = False  # Hard waits for its exact play while its table is solved (else: expected points)
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
    name: Name | None = None


class BotTokenIn(_Body):
    name: Name  # the bot's name at the table


class BotToken(BaseModel):
    """A bot token a player made (never the token itself, which was shown once)."""

    id: str  # for DELETE /api/me/bot-tokens/{id}
    name: str
    revoked: bool
    created_at: str


class BotTokenMade(BotToken):
    token: str  # shown once: send it as "Authorization: Bearer <token>"


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


class MistakeAnswer(_Body):
    """Learn from your mistakes: the decision chosen at step ``step`` of game ``game``'s review."""

    game: Annotated[str, Field(pattern=f"^{GAME_ID.pattern}$")]
    step: Annotated[int, Field(ge=0, le=100_000)]
    decision: Annotated[str, Field(max_length=40)]
