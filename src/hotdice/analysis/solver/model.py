"""What the solver needs to know of a rules value, taken from the scoring tables and the engine's rules.

Everything is in units of 50 points. A *seat* is what matters of one player between turns: their score
and whether they have entered. With an entry threshold, seat 0 is "not entered yet" and seat k + 1 is
"entered with k units"; without one, seat k is "k units".

Rolls of n dice are grouped by what they offer: for each distinct roll, its legal set-asides become
(points, dice in hand after it, whether a bank is blocked after it); set-asides dominated by another
with as many points (at least as many under end=first) and at least as many dice (and no more blocking)
are dropped, and rolls offering the same are merged with their probabilities added. The dominance is an
assumption about values (more dice, and under end=first more points, are never worse); ``check`` verifies
the solved values against the Bellman equation with every legal set-aside, so a wrong assumption would
show as a residual.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hotdice.game.dice import rolls_with_probability
from hotdice.game.engine import after_set_aside, bank_records, bank_refusal, offered, room_to_target
from hotdice.game.rules import UNIT, End, HotDice, Rules
from hotdice.game.scoring import scorer

__all__ = ["UNIT", "BandTable", "RollTable", "SeatStates", "band_table", "beyond", "roll_table", "seats"]

# Under end=last-round, a bank far past the target still matters (the opponent's last turn must beat it):
# turn totals are followed this far past the target (5000 points), and banked there.
LAST_ROUND_BEYOND = 100


@dataclass(frozen=True)
class RollTable:
    """Rolls of 1..N dice grouped by what they offer, as flat arrays for the kernels.

    Groups of n dice are ``group_start[n]:group_start[n + 1]``; a group's options are
    ``opt_start[g]:opt_start[g + 1]``. A group with no option is a farkle; ``group_win`` marks a roll that
    wins the game at once.
    """

    dice: int
    group_start: npt.NDArray[np.int64]
    group_p: npt.NDArray[np.float64]
    group_win: npt.NDArray[np.bool_]
    opt_start: npt.NDArray[np.int64]
    opt_points: npt.NDArray[np.int64]  # units
    opt_next: npt.NDArray[np.int64]  # dice in hand after the set-aside (all of them after hot dice)
    opt_blocked: npt.NDArray[np.int64]  # 1: no bank right after it (hot dice must be rolled, or validation)

    @property
    def arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.bool_],
                              npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                              npt.NDArray[np.int64]]:
        """The arrays as the kernels take them."""
        return (self.group_start, self.group_p, self.group_win, self.opt_start, self.opt_points, self.opt_next,
                self.opt_blocked)

    @functools.cached_property
    def unbanded(self) -> tuple[npt.NDArray[Any], ...]:
        """The arrays as a :class:`BandTable`'s with only its row 0, this table: for sweeps with no crossing band
        (a last turn, the solo race), which the kernels still take one for."""
        return _band_arrays(self.dice, np.ascontiguousarray(self.group_start.reshape(1, -1)), *self.arrays[1:],
                            np.zeros(1, dtype=np.bool_))


@functools.lru_cache(maxsize=32)
def roll_table(rules: Rules, by_points: bool | None = None) -> RollTable:
    """The rolls of ``rules`` grouped, dominated set-asides dropped (none under end=exact): comparing points
    when ``by_points`` (by default only under end=first), only equal points otherwise."""
    # Under end=last-round more points can be worse (reaching the target by a little hands the opponent a last
    # turn to beat it): there only equal points are compared, unless the caller knows every set-aside lands on
    # the same side of the target.
    more_is_better = rules.end is End.FIRST if by_points is None else by_points

    def weighed(opts: set[tuple[int, int, bool]]) -> set[tuple[int, int, bool]]:
        return opts if rules.end is End.EXACT else _dominant(opts, more_is_better)

    group_start = [0, 0]
    probs: list[float] = []
    wins: list[bool] = []
    opt_start = [0]
    options: list[tuple[int, int, bool]] = []
    for rolls in _offers(rules)[1:]:
        for win, opts, p in _grouped(rolls, weighed):
            probs.append(p)
            wins.append(win)
            options.extend(opts)
            opt_start.append(len(options))
        group_start.append(len(probs))
    points, nexts, blocked = _option_arrays(options)
    return RollTable(
        dice=rules.dice,
        group_start=np.array(group_start, dtype=np.int64),
        group_p=np.array(probs, dtype=np.float64),
        group_win=np.array(wins, dtype=np.bool_),
        opt_start=np.array(opt_start, dtype=np.int64),
        opt_points=points,
        opt_next=nexts,
        opt_blocked=blocked,
    )


def _option_arrays(options: list[tuple[int, int, bool]]) -> tuple[npt.NDArray[np.int64], ...]:
    """Points, dice in hand after and blocking of each set-aside, as the kernels read them."""
    return tuple(np.array([o[k] for o in options], dtype=np.int64) for k in range(3))


# Under end=last-round, close below the target more points are not always better: a set-aside landing 1, 2 or 3
# units short of it can be worth more than one landing nearer (measured under farkle and 5000, BENCHMARKS.md;
# under farkle also 21 units short, rarely: there the sweeps fall back on every set-aside, see kernel._band_row).
# The crossing band's roll tables compare points only among set-asides landing on the same side of these cuts.
BAND_CUTS = (1, 2, 3)


@dataclass(frozen=True)
class BandTable:
    """The rolls as weighed where a set-aside may carry the turn total across the target (end=last-round), one
    roll table per distance to it, as flat arrays for the kernels.

    Groups of n dice at distance d (units from the turn total to the target) are
    ``group_start[d, n]:group_start[d, n + 1]``; row 0 holds every set-aside (only equal points compared), which
    the kernels fall back on where the values swept so far break the assumption of the rows above it. Row d
    compares points among the set-asides whose landing distance (d less their points) falls in the same segment
    of ``cut``: ``cut[e]`` marks a landing distance e from which one unit more (e - 1) may be worth less.
    """

    dice: int
    group_start: npt.NDArray[np.int64]  # [distance, n]
    group_p: npt.NDArray[np.float64]
    group_win: npt.NDArray[np.bool_]
    opt_start: npt.NDArray[np.int64]
    opt_points: npt.NDArray[np.int64]
    opt_next: npt.NDArray[np.int64]
    opt_blocked: npt.NDArray[np.int64]
    cut: npt.NDArray[np.bool_]  # [landing distance, 0 to the most points of a set-aside; 0 alone off last-round]

    @functools.cached_property
    def arrays(self) -> tuple[npt.NDArray[Any], ...]:
        """The arrays as the kernels take them (made once): ``RollTable.arrays``, ``cut``, then what a sweep would
        otherwise work out from the tens of thousands of set-asides each time: where each lands in a plane of the
        value arrays (points × (dice + 1) + dice in hand), and the dice in hand with which a set-aside may block a
        bank (``must_roll[n]``: the blocked plane is read there)."""
        return _band_arrays(self.dice, self.group_start, self.group_p, self.group_win, self.opt_start, self.opt_points,
                            self.opt_next, self.opt_blocked, self.cut)


def _band_arrays(dice: int, *arrays: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], ...]:
    points, nexts, blocked = arrays[4:7]
    must_roll = np.zeros(dice + 1, dtype=np.bool_)
    must_roll[nexts[blocked > 0]] = True
    return (*arrays, points * (dice + 1) + nexts, must_roll)


def _dominant(opts: set[tuple[int, int, bool]], by_points: bool) -> set[tuple[int, int, bool]]:
    """The set-asides no other beats: as many points (at least as many when ``by_points``), at least as many dice
    in hand, and no more blocking."""
    return {o for o in opts
            if not any(q != o and (q[0] >= o[0] if by_points else q[0] == o[0]) and q[1] >= o[1] and q[2] <= o[2]
                       for q in opts)}


@functools.lru_cache(maxsize=32)
def _offers(rules: Rules) -> list[list[tuple[bool, set[tuple[int, int, bool]], float]]]:
    """For each number of dice, every roll: whether it wins at once, its set-asides as (points in units, dice in
    hand after it, whether a bank is blocked after it), and its probability (read only: cached for the tables
    of the same rules)."""
    s = scorer(rules)
    out: list[list[tuple[bool, set[tuple[int, int, bool]], float]]] = [[]]
    for n in range(1, rules.dice + 1):
        rolls = []
        for roll, p in rolls_with_probability(n):
            opts = set()
            for o in offered(rules, roll):
                dice, hot, validate = after_set_aside(rules, o)
                opts.add((o.points // UNIT, dice, validate or (hot and rules.hot_dice is HotDice.MUST)))
            rolls.append((s.wins_game(roll), opts, float(p)))
        out.append(rolls)
    return out


def _grouped(rolls: list[tuple[bool, set[tuple[int, int, bool]], float]],
             weighed: Callable[[set[tuple[int, int, bool]]], set[tuple[int, int, bool]]]
             ) -> list[tuple[bool, tuple[tuple[int, int, bool], ...], float]]:
    """Rolls offering the same (of what ``weighed`` leaves) merged, their probabilities added, in a fixed order."""
    groups: dict[tuple[bool, tuple[tuple[int, int, bool], ...]], float] = {}
    for win, opts, p in rolls:
        key = (win, tuple(sorted(weighed(opts))) if not win else ())
        groups[key] = groups.get(key, 0.0) + p
    return [(win, opts, p) for (win, opts), p in sorted(groups.items())]


@functools.lru_cache(maxsize=32)
def band_table(rules: Rules) -> BandTable:
    """The crossing band's roll tables of ``rules`` (:class:`BandTable`); row 0 is :func:`roll_table`'s."""
    # Rolls offering the same set-asides first merged: each row then sorts out hundreds of sets, not every roll.
    offers = [[(win, set(opts), p) for win, opts, p in _grouped(rolls, set)] for rolls in _offers(rules)]
    # Only under end=last-round may a set-aside carry the total across the target: elsewhere row 0 alone.
    most = max((o[0] for rolls in offers for _, opts, _ in rolls for o in opts), default=0) \
        if rules.end is End.LAST_ROUND else 0
    cuts = [c for c in BAND_CUTS if c <= most]

    def side(d: int, points: int) -> int:
        e = d - points  # the landing distance: at or past the target from 0 down
        return bisect.bisect_right(cuts, e) if e > 0 else -1

    def weighed_at(d: int) -> Callable[[set[tuple[int, int, bool]]], set[tuple[int, int, bool]]]:
        if d == 0:
            return lambda opts: _dominant(opts, False)

        def split(opts: set[tuple[int, int, bool]]) -> set[tuple[int, int, bool]]:
            sides = frozenset((side(d, o[0]), o) for o in opts)
            if sides not in split_once:  # most distances split a set the same way as the next one
                by_side: dict[int, set[tuple[int, int, bool]]] = {}
                for k, o in sides:
                    by_side.setdefault(k, set()).add(o)
                split_once[sides] = set().union(*(_dominant(v, True) for v in by_side.values()))
            return split_once[sides]
        return split

    split_once: dict[frozenset[tuple[int, tuple[int, int, bool]]], set[tuple[int, int, bool]]] = {}

    starts = np.zeros((most + 1, rules.dice + 2), dtype=np.int64)
    probs: list[float] = []
    wins: list[bool] = []
    opt_start = [0]
    options: list[tuple[int, int, bool]] = []
    for d in range(most + 1):
        starts[d, 0] = starts[d, 1] = len(probs)
        for n in range(1, rules.dice + 1):
            for win, opts, p in _grouped(offers[n], weighed_at(d)):
                probs.append(p)
                wins.append(win)
                options.extend(opts)
                opt_start.append(len(options))
            starts[d, n + 1] = len(probs)
    points, nexts, blocked = _option_arrays(options)
    cut = np.zeros(most + 1, dtype=np.bool_)
    cut[cuts] = True
    return BandTable(rules.dice, starts, np.array(probs), np.array(wins, dtype=np.bool_),
                     np.array(opt_start, dtype=np.int64), points, nexts, blocked, cut)


@dataclass(frozen=True)
class SeatStates:
    """Every state a player's seat can be in below the target (its score and whether it has entered), numbered
    as the solver's tables are (:meth:`seat_of`), and the engine's bank rules for each state and turn total."""

    target: int  # units
    score: npt.NDArray[np.int64]  # units, per seat
    entered: npt.NDArray[np.bool_]
    may_bank: npt.NDArray[np.bool_]  # [seat, turn total]: bank allowed (no hot dice or validation pending)
    records: npt.NDArray[np.bool_]  # [seat, turn total]: the bank adds to the score
    max_total: int  # turn totals are tabulated up to this
    tmax: npt.NDArray[np.int64]  # [seat]: the largest turn total a turn from this seat follows

    def seat_of(self, score_units: int, entered: bool) -> int:
        """The seat of an entered (or not) player with this score, which must be below the target."""
        offset = 1 if self.entered.size and not self.entered[0] else 0
        return 0 if (offset and not entered) else score_units + offset


def beyond(rules: Rules) -> int:
    """How far past the target (units) turn totals are followed.

    end=exact: not at all (passing the target is not offered). end=first: until every bank is allowed
    (past the minimum bank and the entry), above which a state that may bank wins at once and a state
    that must roll is worth the same whatever its total (the kernel solves those few values exactly).
    end=last-round: :data:`LAST_ROUND_BEYOND`.
    """
    if rules.end is End.EXACT:
        return 0
    if rules.end is End.FIRST:
        return max(rules.min_bank, rules.entry) // UNIT
    return LAST_ROUND_BEYOND


@functools.lru_cache(maxsize=32)
def seats(rules: Rules) -> SeatStates:
    """The seat states of ``rules``, with the engine's bank rules for every turn total they follow."""
    past = beyond(rules)
    target = rules.target // UNIT
    has_entry = rules.entry > 0
    scores = ([0] if has_entry else []) + list(range(target))
    entered = ([False] if has_entry else []) + [True] * target
    max_total = target + past
    may = np.zeros((len(scores), max_total + 1), dtype=np.bool_)
    rec = np.zeros_like(may)
    for i, (sc, en) in enumerate(zip(scores, entered, strict=True)):
        for t in range(1, max_total + 1):
            room = room_to_target(rules, sc * UNIT, 0)
            if room is not None and t * UNIT > room:
                break
            may[i, t] = bank_refusal(rules, score=sc * UNIT, turn_total=t * UNIT, entered=en,
                                     hot_dice=False, must_validate=False) is None
            rec[i, t] = bank_records(rules, entered=en, turn_total=t * UNIT)
    left = [target - sc for sc in scores]
    if rules.end is End.LAST_ROUND:
        tmax = [r + past for r in left]
    elif rules.end is End.FIRST:
        tmax = [max(r, past) for r in left]
    else:
        tmax = left
    return SeatStates(target, np.array(scores, dtype=np.int64), np.array(entered, dtype=np.bool_), may, rec, max_total,
                 np.array(tmax, dtype=np.int64))
