"""Many games between greedy players at once, as numpy arrays: the fast path of large simulations.

The engine plays one game at a time through Python objects; a simulation of a million games wants every
game advanced together. This module plays greedy players only (:class:`~hotdice.players.GreedyPlayer`:
best set-aside, bank at the threshold) and re-states the engine's turn as array operations, reading the
engine's set-asides on offer (``engine.offered``) and the scorer's ``.best_points`` (keys ``sum(7 ** (face - 1))``).
It is the one place besides the engine that follows a turn's steps, so tests pin it to the engine: on the same
dice it gives the same final scores, turns, winners and endings, for every preset.

Dice come from a :class:`BatchDice`: :class:`SourceDice` draws each roll from one
:class:`~hotdice.dice.DiceSource` per game exactly as the engine's game loop does (``roll(n, turn,
roll)``), :class:`NumpyDice` draws fresh fair dice from a numpy generator, which is much faster.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from hotdice.dice import DiceSource
from hotdice.engine import MAX_PLAYERS, Termination, needs_validation, offered
from hotdice.rules import BelowEntry, End, HotDice, Rules
from hotdice.scoring import POW7, dice_key, scorer

__all__ = ["BatchDice", "BatchOutcome", "NumpyDice", "SourceDice", "play_greedy_batch"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_NOT_AN_OPTION = 1 << 40  # points of the padding after a roll's last option: never allowed, never chosen
_ENDINGS = (Termination.TARGET, Termination.EXACT, Termination.FIVE_ONES)


class BatchDice(Protocol):
    """Dice for many games at once: row ``i`` holds the roll of ``n[i]`` dice (in its first ``n[i]``
    columns of six) of roll number ``rolls[i]`` of turn ``turns[i]`` of game ``games[i]``."""

    def roll(self, games: IntArray, n: IntArray, turns: IntArray, rolls: IntArray) -> IntArray: ...


class SourceDice:
    """One :class:`~hotdice.dice.DiceSource` per game, asked exactly as the engine's game loop asks it."""

    def __init__(self, sources: Sequence[DiceSource]) -> None:
        self.sources = sources

    def roll(self, games: IntArray, n: IntArray, turns: IntArray, rolls: IntArray) -> IntArray:
        faces = np.ones((len(games), 6), dtype=np.int64)
        for i, (g, k, t, r) in enumerate(zip(games.tolist(), n.tolist(), turns.tolist(), rolls.tolist(), strict=True)):
            faces[i, :k] = self.sources[g].roll(k, t, r)
        return faces


class NumpyDice:
    """Fair dice from a numpy generator, drawn afresh for every roll; the same seed replays the same run."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def roll(self, games: IntArray, n: IntArray, turns: IntArray, rolls: IntArray) -> IntArray:
        return self.rng.integers(1, 7, size=(len(games), 6), dtype=np.int64)


@dataclass(frozen=True)
class BatchOutcome:
    """The end of every game: row ``g`` is game ``g``, column ``s`` its seat ``s`` (seat 0 plays first)."""

    scores: IntArray  # final scores
    turns: IntArray  # turns each seat played, the last one included
    winners: BoolArray  # a win shared by k seats has k True
    endings: IntArray  # how each game ended, as numbers: see termination()

    def termination(self, game: int) -> Termination:
        return _ENDINGS[int(self.endings[game])]


@dataclass(frozen=True)
class _Tables:
    """The set-asides of every roll of 1..dice dice, best first, as padded arrays indexed by roll."""

    index: IntArray  # roll key -> row of the tables (-1: not a roll)
    best_points: npt.NDArray[np.int32]  # roll key -> best points, 0 = farkle (the scorer's own array)
    points: IntArray  # [row, option]
    dice_left: IntArray
    validate: BoolArray  # the set-aside must be validated before a bank (engine.needs_validation)


@functools.lru_cache(maxsize=16)
def _tables(rules: Rules) -> _Tables:
    s = scorer(rules)
    rolls = [roll for n in range(1, rules.dice + 1) for roll in itertools.combinations_with_replacement(range(1, 7), n)]
    options = [offered(rules, roll) for roll in rolls]
    width = max(len(o) for o in options)
    index = np.full(7**6, -1, dtype=np.int64)
    points = np.full((len(rolls), width), _NOT_AN_OPTION, dtype=np.int64)
    dice_left = np.zeros((len(rolls), width), dtype=np.int64)
    validate = np.zeros((len(rolls), width), dtype=np.bool_)
    for row, (roll, opts) in enumerate(zip(rolls, options, strict=True)):
        index[dice_key(roll)] = row
        for col, o in enumerate(opts):
            points[row, col] = o.points
            dice_left[row, col] = o.dice_left
            validate[row, col] = needs_validation(rules, o)
    return _Tables(index, s.best_points, points, dice_left, validate)


def play_greedy_batch(rules: Rules, thresholds: npt.ArrayLike, dice: BatchDice) -> BatchOutcome:
    """Play one game per row of ``thresholds`` (shape games × seats): seat ``s`` of game ``g`` is a
    greedy player banking at ``thresholds[g, s]``, seat 0 plays first. Same play as the engine's
    :func:`~hotdice.players.play_game` with :class:`~hotdice.players.GreedyPlayer` in every seat."""
    return _Batch(rules, np.asarray(thresholds, dtype=np.int64), dice).run()


class _Batch:
    """The state of every game as arrays; each step, every unfinished game takes one decision."""

    def __init__(self, rules: Rules, thresholds: IntArray, dice: BatchDice) -> None:
        if thresholds.ndim != 2 or not 1 <= thresholds.shape[1] <= MAX_PLAYERS:
            raise ValueError(f"thresholds must be games × seats with 1 to {MAX_PLAYERS} seats")
        self.r = rules
        self.t = _tables(rules)
        self.dice = dice
        self.thresholds = thresholds
        games, seats = thresholds.shape
        self.seats = seats
        self.scores = np.zeros((games, seats), dtype=np.int64)
        self.entered = np.full((games, seats), rules.entry == 0)
        self.farkles = np.zeros((games, seats), dtype=np.int64)
        self.turns = np.zeros((games, seats), dtype=np.int64)
        self.current = np.zeros(games, dtype=np.int64)
        self.turn = np.zeros(games, dtype=np.int64)
        self.rolls = np.zeros(games, dtype=np.int64)
        self.turn_total = np.zeros(games, dtype=np.int64)
        self.in_hand = np.full(games, rules.dice, dtype=np.int64)
        self.must_validate = np.zeros(games, dtype=np.bool_)
        self.hot = np.zeros(games, dtype=np.bool_)
        self.last_round_by = np.full(games, -1, dtype=np.int64)
        self.over = np.zeros(games, dtype=np.bool_)
        self.winners = np.zeros((games, seats), dtype=np.bool_)
        self.endings = np.zeros(games, dtype=np.int64)

    def run(self) -> BatchOutcome:
        live = np.arange(len(self.current))
        while live.size:
            self._step(live)
            live = live[~self.over[live]]
        return BatchOutcome(self.scores, self.turns, self.winners, self.endings)

    def _step(self, g: IntArray) -> None:
        r = self.r
        cur = self.current[g]
        total = self.turn_total[g]
        entered = self.entered[g, cur]
        # Game.why_not_bank, in the same order.
        below = ~entered & (total < r.entry)
        after = self.scores[g, cur] + total
        near_exact = r.rule_4900 & (after >= r.target - 100) & (after < r.target)
        may_bank = (
            (total > 0)
            & ~(self.hot[g] & (r.hot_dice is HotDice.MUST))
            & ~self.must_validate[g]
            & np.where(below, r.below_entry is BelowEntry.LOST, (total >= r.min_bank) & ~near_exact)
        )
        # GreedyPlayer.choose: before its first bank counts, the entry is a threshold too.
        threshold = self.thresholds[g, cur]
        enough = np.where(entered, threshold, np.maximum(threshold, r.entry))
        banks = may_bank & (total >= enough)
        self._bank(g[banks])
        self._roll(g[~banks])

    def _roll(self, g: IntArray) -> None:
        r, t = self.r, self.t
        n = self.in_hand[g]
        faces = self.dice.roll(g, n, self.turn[g], self.rolls[g])
        self.rolls[g] += 1
        self.hot[g] = False
        rolled = np.arange(6) < n[:, None]
        keys = np.where(rolled, POW7[faces - 1], 0).sum(axis=1)
        if r.five_1s_win:
            five = ((faces == 1) & rolled).sum(axis=1) >= 5
            self._end_turn(g[five], won=np.ones(five.sum(), dtype=np.bool_), ending=Termination.FIVE_ONES)
            g, keys = g[~five], keys[~five]
        farkle = t.best_points[keys] == 0
        self._farkle(g[farkle])
        g, rows = g[~farkle], t.index[keys[~farkle]]
        self.must_validate[g] = False  # a scoring roll validates what waited for it
        if r.end is End.EXACT:
            room = r.target - self.scores[g, self.current[g]] - self.turn_total[g]
            allowed = t.points[rows] <= room[:, None]
            bust = ~allowed.any(axis=1)
            self.farkles[g[bust], self.current[g[bust]]] = 0  # a bust is not a farkle
            self._end_turn(g[bust])
            g, rows, choice = g[~bust], rows[~bust], allowed[~bust].argmax(axis=1)
        else:
            choice = np.zeros(len(g), dtype=np.int64)
        self._set_aside(g, rows, choice)

    def _set_aside(self, g: IntArray, rows: IntArray, choice: IntArray) -> None:
        r, t = self.r, self.t
        left = t.dice_left[rows, choice]
        self.turn_total[g] += t.points[rows, choice]
        if r.validate:
            self.must_validate[g] = t.validate[rows, choice]
        self.hot[g] = left == 0
        self.in_hand[g] = np.where(left == 0, r.dice, left)
        if r.end is End.EXACT:  # reaching the exact target wins at once
            self._bank(g[self.scores[g, self.current[g]] + self.turn_total[g] == r.target])

    def _bank(self, g: IntArray) -> None:
        r = self.r
        cur = self.current[g]
        counts = self.entered[g, cur] | (self.turn_total[g] >= r.entry)
        self.scores[g, cur] += np.where(counts, self.turn_total[g], 0)
        self.entered[g, cur] |= counts
        score = self.scores[g, cur]
        if r.end is End.LAST_ROUND:
            starts = counts & (self.last_round_by[g] < 0) & (score >= r.target)
            self.last_round_by[g[starts]] = cur[starts]
            ends = np.zeros(len(g), dtype=np.bool_)
        else:
            ends = counts & ((score >= r.target) if r.end is End.FIRST else (score == r.target))
        self.farkles[g, cur] = 0
        self._end_turn(g, won=ends, ending=Termination.TARGET if r.end is End.FIRST else Termination.EXACT)

    def _farkle(self, g: IntArray) -> None:
        cur = self.current[g]
        self.farkles[g, cur] += 1
        penalty = self.r.three_farkles
        if penalty:
            hit = self.farkles[g, cur] == 3
            gh, ch = g[hit], cur[hit]
            self.scores[gh, ch] -= np.minimum(penalty, self.scores[gh, ch])
            self.farkles[gh, ch] = 0
        self._end_turn(g)

    def _end_turn(self, g: IntArray, won: BoolArray | None = None, ending: Termination = Termination.TARGET) -> None:
        """Close the current player's turn; where ``won``, that player has just won at once (``ending``)."""
        cur = self.current[g]
        self.turns[g, cur] += 1
        self.turn[g] += 1
        self.turn_total[g] = 0
        self.in_hand[g] = self.r.dice
        self.must_validate[g] = False
        self.hot[g] = False
        self.rolls[g] = 0
        if won is not None:
            self._finish(g[won], self._seat_mask(g[won]), ending)
            g, cur = g[~won], cur[~won]
        nxt = (cur + 1) % self.seats
        last = nxt == self.last_round_by[g]
        gl = g[last]
        self._finish(gl, self.scores[gl] == self.scores[gl].max(axis=1, keepdims=True), Termination.TARGET)
        self.current[g[~last]] = nxt[~last]

    def _seat_mask(self, g: IntArray) -> BoolArray:
        mask: BoolArray = np.arange(self.seats) == self.current[g][:, None]
        return mask

    def _finish(self, g: IntArray, winners: BoolArray, ending: Termination) -> None:
        self.over[g] = True
        self.winners[g] = winners
        self.endings[g] = _ENDINGS.index(ending)
