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

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hotdice.game.dice import rolls_with_probability
from hotdice.game.engine import after_set_aside, bank_records, bank_refusal, offered, room_to_target
from hotdice.game.rules import End, HotDice, Rules
from hotdice.game.scoring import scorer

__all__ = ["RollTable", "Seats", "beyond", "roll_table", "seats"]

# Under end=last-round, a bank far past the target still matters (the opponent's last turn must beat it):
# turn totals are followed this far past the target (5000 points), and banked there.
LAST_ROUND_BEYOND = 100

UNIT = 50


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


@functools.lru_cache(maxsize=32)
def roll_table(rules: Rules, by_points: bool | None = None) -> RollTable:
    """The rolls of ``rules`` grouped, dominated set-asides dropped (none under end=exact): comparing points
    when ``by_points`` (by default only under end=first), only equal points otherwise."""
    s = scorer(rules)
    n_all = rules.dice
    group_start = [0, 0]
    probs: list[float] = []
    wins: list[bool] = []
    opt_start = [0]
    points: list[int] = []
    nexts: list[int] = []
    blocked: list[bool] = []
    for n in range(1, n_all + 1):
        groups: dict[tuple[bool, tuple[tuple[int, int, bool], ...]], float] = {}
        for roll, p in rolls_with_probability(n):
            win = s.wins_game(roll)
            opts = set()
            for o in offered(rules, roll):
                dice, hot, validate = after_set_aside(rules, o)
                opts.add((o.points // UNIT, dice, validate or (hot and rules.hot_dice is HotDice.MUST)))
            if rules.end is not End.EXACT:
                # Under end=last-round more points can be worse (reaching the target by a little hands the
                # opponent a last turn to beat it): there only equal points are compared, unless the caller
                # knows every set-aside lands on the same side of the target.
                more_is_better = rules.end is End.FIRST if by_points is None else by_points
                opts = {
                    o for o in opts
                    if not any(q != o and (q[0] >= o[0] if more_is_better else q[0] == o[0])
                               and q[1] >= o[1] and q[2] <= o[2] for q in opts)
                }
            key = (win, tuple(sorted(opts)) if not win else ())
            groups[key] = groups.get(key, 0.0) + float(p)
        for (win, opts_key), prob in sorted(groups.items()):
            probs.append(prob)
            wins.append(win)
            for pts, nxt, block in opts_key:
                points.append(pts)
                nexts.append(nxt)
                blocked.append(block)
            opt_start.append(len(points))
        group_start.append(len(probs))
    return RollTable(
        dice=n_all,
        group_start=np.array(group_start, dtype=np.int64),
        group_p=np.array(probs, dtype=np.float64),
        group_win=np.array(wins, dtype=np.bool_),
        opt_start=np.array(opt_start, dtype=np.int64),
        opt_points=np.array(points, dtype=np.int64),
        opt_next=np.array(nexts, dtype=np.int64),
        opt_blocked=np.array(blocked, dtype=np.int64),
    )


@dataclass(frozen=True)
class Seats:
    """The seats below the target, and the engine's bank rules for each seat and turn total."""

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
def seats(rules: Rules) -> Seats:
    """Seats of ``rules``, with the engine's bank rules for every turn total they follow."""
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
    return Seats(target, np.array(scores, dtype=np.int64), np.array(entered, dtype=np.bool_), may, rec, max_total,
                 np.array(tmax, dtype=np.int64))
