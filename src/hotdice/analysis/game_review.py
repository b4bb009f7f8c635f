"""The game review: every step of a finished (or unfinished) game weighed in the mode's measure, for every seat.

One typed object, :class:`GameReview`, computed here from a record or a game and only shown by the front ends
(CLI, web, terminal): the value of the game for each player after every roll and decision, every decision of
every seat with what was best and what it lost, labelled, and each roll's luck.

The measure is the coach's (:func:`hotdice.analysis.coach.measure_for`), turned into a value of the whole game:

- ``win``: the player's chance to win (a shared win counts its share), from the solved two-player table. With
  three or more players the coach's approximation values the player to act (the strongest opponent stands for
  all); the others share the rest in proportion to their two-player chances against the player to act.
- ``points``: expected final score: the banked score, the expected points of the turn under way, and the
  expected points of a fresh turn for each turn still to play (a turn limit); exact where turns do not carry
  state (no entry, no three-farkle penalty), an approximation otherwise.
- ``turns``: the solo race, expected turns for the whole game (turns played + expected turns still needed);
  fewer is better.

How a game's value moves, per player (values "higher is better"; under ``turns`` read minus the turns):

- a decision of the player loses ``loss`` = value of the best choice − value of the choice played (never
  negative); a decision is a set-aside with the roll or bank after it, or a roll or bank alone; a step with a
  single legal choice is no decision and is not listed;
- a roll's ``luck`` for the player who rolled = value after the roll − value of rolling;
- ``luck`` in a player's summary = every change of their value that their own choices did not make: the dice
  (theirs and the opponents') and the opponents' choices. Hence, per player, exactly (to rounding):
  ``end − start = luck − skill_lost`` (``win``, ``points``) and ``start − end = luck − skill_lost`` (``turns``).

Accuracy (0–100): the mean over the player's decisions of ``100 · 2^(−loss / mistake)``, ``mistake`` being the
measure's mistake threshold: a best move scores 100, a loss the size of a mistake 50, the smallest blunder 7 (win),
9 (points) or 10 (turns). Optimal play (Hard) scores 100; a player without decisions has none (null).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from hotdice.analysis.coach import MEASURES, Advice, Choice, Measure, advise, measure_for
from hotdice.analysis.expectation import turn_values
from hotdice.analysis.solver import UNIT, two_player_solution
from hotdice.game.engine import Action, Decision, Game, Phase, Roll
from hotdice.game.record import Record, replay
from hotdice.game.refusals import expect, expect_choice
from hotdice.game.scoring import SetAside

__all__ = [
    "LABELS",
    "THRESHOLDS",
    "Exercise",
    "GameReview",
    "PlayerSummary",
    "ReviewChoice",
    "ReviewStep",
    "Thresholds",
    "exercises",
    "game_review",
    "label_of",
    "values_at",
]

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
BEST_TOLERANCE = 1e-9  # a loss below it is rounding: the choice is (one of) the best
DIGITS = 6  # decimals of the JSON's values: the identity holds to this rounding


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss of each label, in the measure's unit (win: chance, 0.01 = one point of win-%)."""

    inaccuracy: float
    mistake: float
    blunder: float

    def to_json(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


# Chosen from the loss distributions of Easy and Medium (bench/bench_review_thresholds.py, BENCHMARKS.md, 2026-12-04:
# 1,000 games per level under farkle): of their decisions that lost anything, pooled, the median loss is an
# inaccuracy, the 80th percentile a mistake, the 95th a blunder (two significant figures).
#   win (Easy 52.8 % of 26,992 decisions lost something, Medium 5.7 % of 45,201): p50 0.0086, p80 0.018, p95 0.069
#   points (ten turns; Easy 45.6 % of 15,462, Medium none): p50 93, p80 140, p95 490
#   turns (race; Easy 45.1 % of 32,340, Medium 2.9 % of 39,690): p50 0.16, p80 0.24, p95 0.80
THRESHOLDS: dict[str, Thresholds] = {
    "win": Thresholds(inaccuracy=0.0086, mistake=0.018, blunder=0.069),
    "points": Thresholds(inaccuracy=93.0, mistake=140.0, blunder=490.0),
    "turns": Thresholds(inaccuracy=0.16, mistake=0.24, blunder=0.8),
}


def label_of(loss: float, measure: str) -> Label:
    """The label of a decision that lost ``loss`` (never negative) in ``measure``."""
    t = THRESHOLDS[measure]
    if loss <= BEST_TOLERANCE:
        return "best"
    if loss < t.inaccuracy:
        return "good"
    if loss < t.mistake:
        return "inaccuracy"
    return "mistake" if loss < t.blunder else "blunder"


@dataclass(frozen=True)
class ReviewChoice:
    """One legal decision at a step, with the game's value for the seat to act if it is played."""

    decision: str  # the engine's notation, read back by Decision.parse: "set aside 155, then roll", "bank"
    value: float
    loss: float


@dataclass(frozen=True)
class ReviewStep:
    """One roll or decision. ``before``/``after``: the value for ``seat`` (the one who rolled or decided);
    ``values``: every seat's value after the step (the graph)."""

    seat: int
    kind: Literal["roll", "decision"]
    turn: int  # the game's turn, from 1 (all seats together)
    position: str  # the position the step was played from (Game.position: dice to roll, or the roll on the table)
    before: float
    after: float
    values: tuple[float, ...]
    dice: tuple[int, ...] | None = None  # a roll: the dice that came up
    luck: float | None = None  # a roll: value after minus value of rolling, for the seat (turns: fewer is good)
    played: str | None = None  # a decision: what was played, what was best, what it lost and its label
    best: str | None = None
    loss: float | None = None
    label: Label | None = None
    choices: tuple[ReviewChoice, ...] = ()  # a decision: every set-aside with its best continuation, best first


@dataclass(frozen=True)
class PlayerSummary:
    seat: int
    name: str
    start: float
    end: float
    luck: float
    skill_lost: float
    accuracy: float | None  # None without a decision
    decisions: int
    labels: dict[str, int]  # inaccuracy, mistake, blunder


@dataclass(frozen=True)
class GameReview:
    """The review of one game (see the module docstring for what each number means)."""

    measure: Measure
    approximate: bool  # values from the coach's approximation (three or more players, or carried state)
    rules: str
    players: tuple[PlayerSummary, ...]
    steps: tuple[ReviewStep, ...]
    start: tuple[float, ...]  # every seat's value before the first step
    finished: bool

    @property
    def thresholds(self) -> Thresholds:
        return THRESHOLDS[self.measure]

    def as_json(self) -> dict[str, Any]:
        """The review as a JSON object (values rounded to :data:`DIGITS` decimals), the web API's ``ReviewOut``:

        - ``measure`` (win, points, turns), ``approximate``, ``rules``, ``finished``, ``thresholds`` (the smallest
          loss of each label), ``start`` (every seat's value before the first roll);
        - ``players``: per seat ``seat``, ``name``, ``start``, ``end``, ``luck``, ``skill_lost``, ``accuracy`` (null
          without a decision), ``decisions``, ``labels`` (how many inaccuracies, mistakes, blunders);
        - ``steps``: per roll or decision ``seat``, ``kind`` (roll, decision), ``turn`` (from 1), ``position`` (the
          engine's position text it was played from), ``before`` and ``after`` (the seat's value), ``values``
          (every seat's value after it), ``dice`` and ``luck`` (a roll), ``played``, ``best``, ``loss``, ``label``
          and ``choices`` (a decision: each ``decision`` in the engine's notation with its ``value`` and ``loss``);
          the fields of the other kind are null (``choices`` empty).
        """
        r = _rounded
        return {
            "measure": self.measure,
            "approximate": self.approximate,
            "rules": self.rules,
            "finished": self.finished,
            "thresholds": self.thresholds.to_json(),
            "start": [r(v) for v in self.start],
            "players": [
                {"seat": p.seat, "name": p.name, "start": r(p.start), "end": r(p.end), "luck": r(p.luck),
                 "skill_lost": r(p.skill_lost), "accuracy": None if p.accuracy is None else round(p.accuracy, 1),
                 "decisions": p.decisions, "labels": dict(p.labels)}
                for p in self.players
            ],
            "steps": [
                {"seat": s.seat, "kind": s.kind, "turn": s.turn, "position": s.position, "before": r(s.before),
                 "after": r(s.after), "values": [r(v) for v in s.values],
                 "dice": None if s.dice is None else "".join(map(str, s.dice)),
                 "luck": None if s.luck is None else r(s.luck), "played": s.played, "best": s.best,
                 "loss": None if s.loss is None else r(s.loss), "label": s.label,
                 "choices": [{"decision": c.decision, "value": r(c.value), "loss": r(c.loss)} for c in s.choices]}
                for s in self.steps
            ],
        }


    def json_text(self) -> str:
        """:meth:`as_json` as the web API and ``hotdice review --json`` write it, byte for byte: UTF-8 text, no
        spaces."""
        return json.dumps(self.as_json(), ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Exercise:
    """"Learn from your mistakes": a decision a player got wrong (a mistake or a blunder), to be played again from
    the same position and checked against the exact values of the review."""

    step: int  # its index in the review's steps
    seat: int
    measure: Measure
    rules: str
    position: str  # Game.position: scores, turn total, the roll on the table
    label: Label  # what the player's own play was
    played: str
    choices: tuple[ReviewChoice, ...]  # best first

    @property
    def best(self) -> str:
        return self.choices[0].decision

    def check(self, answer: str) -> ReviewChoice:
        """The choice ``answer`` names (the engine's notation, any spelling Decision.parse reads), with its exact value
        and loss: a loss of at most :data:`BEST_TOLERANCE` finds the best play. ValueError for a choice not on offer."""
        wanted = str(Decision.parse(answer))
        found = next((c for c in self.choices if c.decision == wanted), None)
        if found is None:
            raise ValueError(f"'{answer}' is not one of this position's choices")
        return found

    def as_json(self, *, answered: bool = False) -> dict[str, Any]:
        """The exercise as a page shows it: the choices in the notation's order, with their values only once
        ``answered`` (the question must not give its answer away)."""
        shown = sorted(self.choices, key=lambda c: c.decision) if not answered else list(self.choices)
        return {"step": self.step, "seat": self.seat, "measure": self.measure, "rules": self.rules,
                "position": self.position, "label": self.label,
                "choices": [{"decision": c.decision, **({"value": _rounded(c.value), "loss": _rounded(c.loss)}
                                                        if answered else {})} for c in shown],
                **({"played": self.played, "best": self.best} if answered else {})}


def exercises(review: GameReview, seats: Sequence[int]) -> list[Exercise]:
    """The mistakes and blunders of ``seats`` in the review, in the order played, as exercises."""
    return [Exercise(k, s.seat, review.measure, review.rules, s.position, s.label, s.played or "", s.choices)
            for k, s in enumerate(review.steps)
            if s.kind == "decision" and s.seat in seats and s.label in ("mistake", "blunder")]


def _rounded(value: float) -> float:
    out = round(value, DIGITS)
    return 0.0 if out == 0 else out  # never -0.0


def game_review(record_or_game: Record | Game, measure: str | None = None) -> GameReview:
    """Replay the game from its root and weigh every roll and decision of every seat (module docstring).

    ``measure``: the coach's for the game (:func:`measure_for`) unless given (a front end without the table at
    hand may ask for ``points``). A record that does not replay raises :class:`hotdice.game.record.RecordError`.
    """
    expect(record_or_game, (Record, Game), "record_or_game")
    if measure is not None:
        expect_choice(measure, MEASURES, "measure")
    game = record_or_game if isinstance(record_or_game, Game) else replay(record_or_game)
    return _Reviewer(game, measure).run()


def values_at(game: Game, measure: str | None = None) -> tuple[float, ...]:
    """Every seat's value of ``game`` as it stands (not while dice are to be rolled): what the review's graph
    shows there. The value of rolling is the mean of these over the roll's outcomes (tests check it)."""
    if game.phase is Phase.CHANCE:
        raise ValueError("dice are being rolled: the value is the mean over the roll's outcomes")
    return _Reviewer(game, measure).fresh(game)


class _Reviewer:
    def __init__(self, game: Game, measure: str | None) -> None:
        self.game = game
        self.now = game.root()
        self.measure = cast(Measure, measure or measure_for(self.now))  # a given one is one of MEASURES
        self.sign = -1.0 if self.measure == "turns" else 1.0
        rules = game.rules
        self.approximate = (self.measure == "win" and len(game.players) > 2) or (
            self.measure == "points" and game.turn_limit is not None and bool(rules.entry or rules.three_farkles))
        self.steps: list[ReviewStep] = []
        self.cur: tuple[float, ...] = ()

    # -- values ------------------------------------------------------------------------------------

    def spread(self, game: Game, value: float) -> tuple[float, ...]:
        """Every seat's value of the game, given the coach's ``value`` for the seat to act."""
        n = len(game.players)
        me = game.current
        if self.measure == "turns":
            return (game.turns_played[0] + value,)
        if self.measure == "points":
            tv = turn_values(game.rules)
            out = []
            for p in range(n):
                future = 0.0
                if game.turn_limit is not None:
                    left = game.turn_limit - game.turns_played[p] - (1 if p == me else 0)
                    future = max(left, 0) * tv.turn_value(entered=game.entered[p])
                out.append(game.scores[p] + future + (value if p == me else 0.0))
            return tuple(out)
        if n == 2:
            return (value, 1.0 - value) if me == 0 else (1.0 - value, value)
        return self._shared(game, value)

    def _shared(self, game: Game, value: float) -> tuple[float, ...]:
        """Three or more players: the others share ``1 - value`` by their two-player chances against ``me``."""
        sol = two_player_solution(game.rules)
        st = sol.seats
        me = game.current

        def seat(p: int) -> int:
            return st.seat_of(min(game.scores[p] // UNIT, st.target - 1), game.entered[p])

        weights = {p: float(sol.w[seat(p), seat(me)]) for p in range(len(game.players)) if p != me}
        total = sum(weights.values())
        rest = 1.0 - value
        return tuple(value if p == me else rest * (weights[p] / total if total > 0 else 1 / len(weights))
                     for p in range(len(game.players)))

    def fresh(self, game: Game) -> tuple[float, ...]:
        """Every seat's value at a node: the result once over, else the best play of the seat to act."""
        outcome = game.outcome
        if outcome is not None:
            if self.measure == "win":
                return tuple(1.0 / len(outcome.winners) if p in outcome.winners else 0.0
                             for p in range(len(game.players)))
            if self.measure == "points":
                return tuple(float(s) for s in game.scores)
            return (float(game.turns_played[0]),)
        return self.spread(game, self.advice(game).best.value)

    def advice(self, game: Game) -> Advice:
        return advise(game, self.measure)

    # -- the walk ----------------------------------------------------------------------------------

    def run(self) -> GameReview:
        now = self.now
        self.cur = start = self.fresh(now)
        own: list[list[float]] = [[] for _ in self.game.players]  # each seat's losses
        moved = [0.0] * len(self.game.players)  # each seat's value moved by its own decisions
        lines = [step.move for step in self.game.history]
        k = 0
        while k < len(lines):
            move = lines[k]
            if isinstance(move, Roll):
                self._roll(move.dice)
                k += 1
                continue
            k, step = self._decision(lines, k)
            if step is not None and step.loss is not None:
                own[step.seat].append(step.loss)
                moved[step.seat] += step.after - step.before
        end = self.fresh(now) if now.outcome is not None else self.cur
        mistake = THRESHOLDS[self.measure].mistake
        players = []
        for p, name in enumerate(self.game.players):
            losses = own[p]
            # Everything but the seat's own choices is luck: the rolls of every seat, the others' choices, and
            # what an approximation leaves between a bank and the next turn's value.
            luck = self.sign * (end[p] - start[p] - moved[p])
            accuracy = sum(100 * 2 ** (-loss / mistake) for loss in losses) / len(losses) if losses else None
            counts = {lab: sum(1 for loss in losses if label_of(loss, self.measure) == lab)
                      for lab in ("inaccuracy", "mistake", "blunder")}
            players.append(PlayerSummary(p, name, start[p], end[p], luck, sum(losses), accuracy, len(losses), counts))
        return GameReview(self.measure, self.approximate, str(self.game.rules), tuple(players), tuple(self.steps),
                          start, now.outcome is not None)

    def _roll(self, dice: tuple[int, ...]) -> None:
        now = self.now
        seat, turn, position = now.current, now.turn + 1, now.position()
        before = self.cur
        now.apply_roll(dice)
        after = self.fresh(now)
        self.cur = after
        self.steps.append(ReviewStep(seat, "roll", turn, position, before[seat], after[seat], after, dice=dice,
                                     luck=self.sign * (after[seat] - before[seat])))

    def _decision(self, lines: Sequence[Action | Roll], k: int) -> tuple[int, ReviewStep | None]:
        """Apply the decision at line ``k`` (a set-aside and the roll or bank after it, or a roll or bank alone);
        return the next line's index and its step (None: a single legal choice, no decision)."""
        now = self.now
        seat, turn, position = now.current, now.turn + 1, now.position()
        first = self.advice(now)
        best = first.best
        values = functools.partial(self.spread, now.clone())  # the seats' scores and turns hold until the bank
        move = lines[k]
        if isinstance(move, SetAside):
            played = next(c for c in first.choices if c.set_aside == move)
            now.apply(move)
            k += 1
            then: tuple[Choice, ...] = ()
            if now.phase is Phase.DECIDE and k < len(lines):  # else the exact target was won at once
                then = self.advice(now).choices
                after_move = lines[k]
                played = next(c for c in then if c.decision.then is after_move)
                assert not isinstance(after_move, Roll | SetAside)
                now.apply(after_move)
                k += 1
            decision = Decision(move, played.decision.then)
            choices = _choices(first, move, then)
        else:
            assert not isinstance(move, Roll)
            played = next(c for c in first.choices if c.decision == Decision(None, move))
            decision = played.decision
            choices = list(first.choices)
            now.apply(move)
            k += 1
        if len(choices) == 1:
            return k, None  # a single legal choice is no decision: the value moves with the dice alone
        sign = self.sign
        before = self.cur
        best_values, played_values = values(best.value), values(played.value)
        self.cur = after = tuple(c + p - b for c, p, b in zip(before, played_values, best_values, strict=True))
        loss = max(0.0, sign * (best.value - played.value))
        shown = tuple(ReviewChoice(str(c.decision), values(c.value)[seat], max(0.0, sign * (best.value - c.value)))
                      for c in choices)
        step = ReviewStep(seat, "decision", turn, position, before[seat], after[seat], after, played=str(decision),
                          best=str(best.decision), loss=loss, label=label_of(loss, self.measure), choices=shown)
        self.steps.append(step)
        return k, step


def _choices(first: Advice, played: SetAside, then: Sequence[Choice]) -> list[Choice]:
    """Every set-aside with its best continuation (the coach's), and the played set-aside's other one."""
    out = list(first.choices)
    for c in then:
        whole = Choice(Decision(played, c.decision.then), c.value, c.cost)
        if all(str(o.decision) != str(whole.decision) for o in out):
            out.append(whole)
    sign = -1.0 if first.measure == "turns" else 1.0
    out.sort(key=lambda c: -sign * c.value)
    return out


