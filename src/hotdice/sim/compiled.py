"""Two-player games between Hard, Medium, Easy and greedy players, compiled: the fast path of ``simulate``.

Through the engine a Hard game of ``farkle`` takes ~0.1 s: every decision re-sweeps its turn. Here the games
are played by a numba loop that follows the engine's turn step by step and each player's choice exactly as
the Python players make it (the coach's ``advise``: the same values, the same order of choices, the same
tolerance), on the same dice: roll ``k`` of turn ``t`` of game ``i`` is the HMAC-SHA256 stream of
:class:`~hotdice.game.dice.SeededDice` of ``"{seed}/game/{i}"``, computed here. The loop states no rule: what a
bank does, whether it is refused, how far an exact target leaves room, what a farkle costs are tables that
the engine's own rule functions fill once per rules (:class:`_Turn`), as :mod:`hotdice.analysis.solver.model`
does for the solver; Easy's and greedy's policies are read from the players. Tests pin it to the engine move
for move.

Hard's swept arrays depend only on the two seats at the start of the turn (and, under the three-farkle
penalty, on the farkles in a row). Without the penalty a game's seat sum never falls: a bank raises it, a
lost turn hands the same sum to the opponent. So all games advance together level by level of the seat sum;
at each level the pairs of seats that games stand on are swept once (in parallel), every game plays its
turns until it leaves the level (in parallel), and the arrays are dropped. Under the penalty scores fall:
games advance one turn at a time, the turns' (seats, farkles in a row) swept once per round. The last turns
of the last round (valued by the points needed) are swept once per (seat, points needed).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from hotdice.analysis.solver.kernel import EXACT, FIRST, LAST_ROUND, pair_turn, turn_sweep
from hotdice.analysis.solver.model import seats as solver_seats
from hotdice.game.engine import (
    Game,
    Termination,
    after_set_aside,
    bank_records,
    bank_refusal,
    farkle_penalty,
    offered,
    room_to_target,
    starts_last_round,
    wins_at_once,
)
from hotdice.game.rules import End, Rules
from hotdice.game.scoring import dice_key, scorer
from hotdice.play.players import make_player
from hotdice.play.players.simple import GreedyPlayer

__all__ = [
    "EASY", "ENDINGS", "GREEDY", "HARD", "MEDIUM", "CompiledGames", "CompiledPlayer", "compiled_kinds", "play_compiled",
    "seeded_rolls",
]

IntArray = npt.NDArray[np.int64]

GREEDY, EASY, MEDIUM, HARD = 0, 1, 2, 3
ENDINGS = (Termination.TARGET, Termination.EXACT, Termination.FIVE_ONES)  # CompiledGames.endings -> ending
_TARGET, _FIVE_ONES = ENDINGS.index(Termination.TARGET), ENDINGS.index(Termination.FIVE_ONES)
_END = {End.LAST_ROUND: LAST_ROUND, End.FIRST: FIRST, End.EXACT: EXACT}
_TOL = 1e-12  # the coach's tolerance: a set-aside is followed by a bank worth at least rolling on less this
_UNIT = 50
_M32 = 0xFFFFFFFF

# fmt: off
_K = np.array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
], dtype=np.int64)
_H0 = np.array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19],
               dtype=np.int64)
# fmt: on


# -- the dice: HMAC-SHA256 as in hotdice.game.dice.SeededDice ------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _rotr(x, n):  # pragma: no cover - compiled
    return ((x >> n) | (x << (32 - n))) & _M32


@njit(cache=True, nogil=True)
def _compress(state, block, w, out):  # pragma: no cover - compiled
    """One SHA-256 compression of the 64 bytes ``block`` onto ``state`` (8 words), into ``out``."""
    for i in range(16):
        w[i] = (block[4 * i] << 24) | (block[4 * i + 1] << 16) | (block[4 * i + 2] << 8) | block[4 * i + 3]
    for i in range(16, 64):
        x = w[i - 15]
        y = w[i - 2]
        s0 = _rotr(x, 7) ^ _rotr(x, 18) ^ (x >> 3)
        s1 = _rotr(y, 17) ^ _rotr(y, 19) ^ (y >> 10)
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & _M32
    a, b, c, d, e, f, g, h = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    for i in range(64):
        t1 = (h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ ((e ^ _M32) & g)) + _K[i] + w[i]) & _M32
        t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) & _M32
        h = g
        g = f
        f = e
        e = (d + t1) & _M32
        d = c
        c = b
        b = a
        a = (t1 + t2) & _M32
    out[0] = (state[0] + a) & _M32
    out[1] = (state[1] + b) & _M32
    out[2] = (state[2] + c) & _M32
    out[3] = (state[3] + d) & _M32
    out[4] = (state[4] + e) & _M32
    out[5] = (state[5] + f) & _M32
    out[6] = (state[6] + g) & _M32
    out[7] = (state[7] + h) & _M32


@njit(cache=True, nogil=True)
def _pads(keys):  # pragma: no cover - compiled
    """The HMAC states after the inner and outer key blocks, per key (rows of 64 bytes, zero-padded)."""
    n = keys.shape[0]
    inner = np.empty((n, 8), dtype=np.int64)
    outer = np.empty((n, 8), dtype=np.int64)
    w = np.empty(64, dtype=np.int64)
    block = np.empty(64, dtype=np.int64)
    for g in range(n):
        for i in range(64):
            block[i] = keys[g, i] ^ 0x36
        _compress(_H0, block, w, inner[g])
        for i in range(64):
            block[i] = keys[g, i] ^ 0x5C
        _compress(_H0, block, w, outer[g])
    return inner, outer


@njit(cache=True, nogil=True)
def _put_number(buf, at, x):  # pragma: no cover - compiled
    """Write ``x`` (0 or more) in decimal at ``buf[at]``; returns the position after it."""
    digits = 1
    y = x
    while y >= 10:
        y //= 10
        digits += 1
    for k in range(digits - 1, -1, -1):
        buf[at + k] = 48 + x % 10
        x //= 10
    return at + digits


@njit(cache=True, nogil=True)
def _roll(inner, outer, turn, roll, n, faces, scratch):  # pragma: no cover - compiled
    """Faces of roll ``roll`` of turn ``turn`` (``n`` dice): the first faces of the blocks of
    HMAC-SHA256(key, "hotdice/{turn}/{roll}/{block}"), bytes 252..255 skipped."""
    w = scratch[:64]
    buf = scratch[64:128]
    state = scratch[128:136]
    digest = scratch[136:144]
    got = 0
    block = 0
    while got < n:
        buf[:] = 0
        buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7] = 104, 111, 116, 100, 105, 99, 101, 47
        at = _put_number(buf, 8, turn)
        buf[at] = 47
        at = _put_number(buf, at + 1, roll)
        buf[at] = 47
        at = _put_number(buf, at + 1, block)
        buf[at] = 0x80
        bits = (64 + at) * 8
        buf[62] = bits >> 8
        buf[63] = bits & 0xFF
        _compress(inner, buf, w, state)
        buf[:] = 0
        for k in range(8):
            for b in range(4):
                buf[4 * k + b] = (state[k] >> (24 - 8 * b)) & 0xFF
        buf[32] = 0x80
        buf[62] = (96 * 8) >> 8
        buf[63] = (96 * 8) & 0xFF
        _compress(outer, buf, w, digest)
        for k in range(8):
            for b in range(4):
                byte = (digest[k] >> (24 - 8 * b)) & 0xFF
                if byte < 252 and got < n:
                    faces[got] = byte % 6 + 1
                    got += 1
        block += 1


def _key_rows(seeds: Sequence[str]) -> npt.NDArray[np.int64]:
    """HMAC key blocks: the key padded with zeros to 64 bytes, or its SHA-256 if longer (RFC 2104)."""
    rows = np.zeros((len(seeds), 64), dtype=np.int64)
    for g, seed in enumerate(seeds):
        key = seed.encode()
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        rows[g, : len(key)] = np.frombuffer(key, dtype=np.uint8)
    return rows


def seeded_rolls(seed: str, asks: Sequence[tuple[int, int, int]]) -> list[tuple[int, ...]]:
    """The compiled dice of ``SeededDice(seed)`` for each (dice, turn, roll) asked: the same faces."""
    inner, outer = _pads(_key_rows([seed]))
    faces = np.zeros(6, dtype=np.int64)
    scratch = np.zeros(144, dtype=np.int64)
    out = []
    for n, turn, roll in asks:
        _roll(inner[0], outer[0], turn, roll, n, faces, scratch)
        out.append(tuple(int(f) for f in faces[:n]))
    return out


# -- the rolls and the rules as arrays ------------------------------------------------------------------

NO_ROOM = 1 << 40  # room (units) where no exact target limits a set-aside
_LAST_ROUND_LEVEL = 1 << 40  # above every seat sum
_ONE_TURN, _TO_THE_END = -1, -2  # the other ways _play plays a game


@dataclass(frozen=True)
class _Rolls:
    """Every roll of 1..N dice (row by key) with its legal set-asides in the engine's order."""

    row: IntArray  # roll key (sum of 7 ** (face - 1)) -> row, -1: not a roll
    count: IntArray  # [row] number of set-asides (0: farkle)
    wins: npt.NDArray[np.bool_]  # [row] wins the game at once (five 1s)
    points: IntArray  # [row, k]
    dice: IntArray  # [row, k] dice in hand after it (all of them after hot dice)
    hot: IntArray  # [row, k] 1: hot dice (every die has scored)
    validate: IntArray  # [row, k] 1: a bank must wait for a scoring roll
    easy_rank: IntArray  # [row, k] Easy's order of preference (0 first): EasyPlayer.preference

    @property
    def arrays(self) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_], IntArray, IntArray, IntArray, IntArray,
                              IntArray]:
        return self.row, self.count, self.wins, self.points, self.dice, self.hot, self.validate, self.easy_rank


@functools.lru_cache(maxsize=16)
def _rolls(rules: Rules) -> _Rolls:
    from hotdice.play.players.skilled import EasyPlayer

    s = scorer(rules)
    rolls = [r for n in range(1, rules.dice + 1) for r in itertools.combinations_with_replacement(range(1, 7), n)]
    options = [offered(rules, r) for r in rolls]
    width = max(1, max(len(o) for o in options))
    row = np.full(7**6, -1, dtype=np.int64)
    count = np.zeros(len(rolls), dtype=np.int64)
    wins = np.zeros(len(rolls), dtype=np.bool_)
    points = np.zeros((len(rolls), width), dtype=np.int64)
    dice = np.zeros_like(points)
    hot = np.zeros_like(points)
    validate = np.zeros_like(points)
    easy_rank = np.zeros_like(points)
    for r, (roll, opts) in enumerate(zip(rolls, options, strict=True)):
        row[dice_key(roll)] = r
        count[r] = len(opts)
        wins[r] = s.wins_game(roll)
        # max() takes the first of equals; a stable sort, most preferred first, ranks them so.
        order = sorted(range(len(opts)), key=lambda k: EasyPlayer.preference(opts[k]), reverse=True)
        for rank, k in enumerate(order):
            easy_rank[r, k] = rank
        for k, o in enumerate(opts):
            points[r, k] = o.points
            dice[r, k], hot[r, k], validate[r, k] = after_set_aside(rules, o)
    return _Rolls(row, count, wins, points, dice, hot, validate, easy_rank)


@dataclass(frozen=True)
class _Turn:
    """The engine's rules of a turn as arrays, each built by asking the engine's own rule function (scores and
    turn totals in units of 50 points): the compiled turn looks them up and states no rule of its own.

    Only a player below the target is ever to move, so scores run up to it; turn totals run past the target,
    the entry and the minimum bank, beyond which no bank rule tells totals apart, and larger ones read the
    last column."""

    dice: int  # dice in hand at the start of a turn
    entered: bool  # players have entered from the start (no entry)
    refused: IntArray  # [hot dice, must validate, entered, score, turn total] 1: engine.bank_refusal refuses
    records: IntArray  # [entered, turn total] 1: engine.bank_records
    room: IntArray  # [score, turn total]: engine.room_to_target (NO_ROOM: no exact target)
    ends: IntArray  # [score after a bank]: engine.wins_at_once as an index of ENDINGS, -1: the game goes on
    last_round: IntArray  # [score after a bank] 1: engine.starts_last_round
    penalty: IntArray  # [farkles in a row, score]: engine.farkle_penalty (-1: none), later counts read the last row
    seat: IntArray  # [entered, score]: the solver's seat (model.SeatStates.seat_of), which Hard's arrays are keyed by

    @property
    def arrays(self) -> tuple[int, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
        """The arrays as the compiled turn takes them."""
        return (self.dice, self.refused, self.records, self.room, self.ends, self.last_round, self.penalty,
                self.seat)


_MOST_COUNTED = 10  # farkles in a row asked of engine.farkle_penalty before a count that costs is assumed absent


@functools.lru_cache(maxsize=16)
def _turn(rules: Rules) -> _Turn:
    """The tables of ``rules``, each cell the engine's answer (about a second under farkle, once per rules)."""
    u = _UNIT
    scores = rules.target // u
    totals = max(rules.target, rules.entry, rules.min_bank) // u + 1
    flags = (False, True)
    refused = np.zeros((2, 2, 2, scores, totals), dtype=np.int64)
    for hot, validate, entered in itertools.product(flags, flags, flags):
        for s in range(scores):
            for t in range(totals):
                refused[int(hot), int(validate), int(entered), s, t] = bank_refusal(
                    rules, score=s * u, turn_total=t * u, entered=entered, hot_dice=hot, must_validate=validate
                ) is not None
    records = np.array([[bank_records(rules, entered=e, turn_total=t * u) for t in range(totals)] for e in flags],
                       dtype=np.int64)
    room = np.full((scores, totals), NO_ROOM, dtype=np.int64)
    for s in range(scores):
        for t in range(totals):
            left = room_to_target(rules, s * u, t * u)
            if left is not None:
                room[s, t] = left // u
    after = range(scores + totals)
    ends = np.array([-1 if (w := wins_at_once(rules, n * u)) is None else ENDINGS.index(w) for n in after],
                    dtype=np.int64)
    last_round = np.array([starts_last_round(rules, n * u) for n in after], dtype=np.int64)
    costly = [f for f in range(1, _MOST_COUNTED + 1)
              if any(farkle_penalty(rules, score=s * u, farkles_in_row=f) is not None for s in range(scores))]
    counts = costly[0] if costly else 0  # a penalized farkle starts the count again: higher counts never come
    penalty = np.full((counts + 1, scores), -1, dtype=np.int64)
    for f in range(counts + 1):
        for s in range(scores):
            lost = farkle_penalty(rules, score=s * u, farkles_in_row=f)
            if lost is not None:
                penalty[f, s] = lost // u
    st = solver_seats(rules)
    seat = np.array([[st.seat_of(s, e) for s in range(scores)] for e in flags], dtype=np.int64)
    start = Game(rules, ("", ""))
    return _Turn(start.dice_in_hand, start.entered[0], refused, records, room, ends, last_round, penalty, seat)


class CompiledPlayer(NamedTuple):
    """One compiled player: its kind and the bank policy of greedy (bank at ``bank_at``) and Easy (bank at
    ``bank_at``, or with ``bank_with`` dice or fewer to roll), read from the players themselves."""

    kind: int
    bank_at: int = 0
    bank_with: int = 0


# -- the engine's turn and the players' choices ---------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _col(table, t):  # pragma: no cover - compiled
    """The turn-total column of a rules table for ``t`` units: past the last column, the last."""
    return min(t, table.shape[-1] - 1)


@njit(cache=True, nogil=True)
def _level(seat, score, entered, last_by, over, g):  # pragma: no cover - compiled
    """The seat sum a game stands on (-1: over; _LAST_ROUND_LEVEL: its last round has started)."""
    if over[g]:
        return -1
    if last_by[g] >= 0:
        return _LAST_ROUND_LEVEL
    return (seat[1 if entered[g, 0] else 0, score[g, 0] // _UNIT]
            + seat[1 if entered[g, 1] else 0, score[g, 1] // _UNIT])


@njit(cache=True, nogil=True)
def _medium_roll(med, alpha, beta, total, dice, entered):  # pragma: no cover - compiled
    """expectation.TurnValues.roll_value: tabulated, and the straight line past the table."""
    t = total // _UNIT
    if t < med.shape[1]:
        return med[1 if entered else 0, t, dice]
    return alpha[dice - 1] * float(total) + beta[dice - 1]


@njit(cache=True, nogil=True)
def _value(kind, tt, su, e, total, dice, blocked, med, med_bank, alpha, beta, rv, bank, can, tmax, cap):
    # pragma: no cover - compiled
    """The coach's valuation of a state (total, dice in hand, bank blocked): (roll on, bank, bank offered)."""
    room = tt[3]
    if kind == MEDIUM:
        points = med_bank[e, min(total // _UNIT, med_bank.shape[1] - 1)]  # past the table: as at its end
        offered = not blocked and points >= 0
        return _medium_roll(med, alpha, beta, total, dice, e == 1), float(total) if points > 0 else 0.0, offered
    t = total // _UNIT
    if room[su, _col(room, t)] == 0:
        return 1.0, 0.0, False  # the exact target is reached: won at once
    if t > tmax:
        return rv[tmax + 1, dice], cap, not blocked
    offered = not blocked and can[t]
    return rv[t, dice], bank[t] if offered else 0.0, offered


@njit(cache=True, nogil=True)
def _play_turn(g, tt, rt, kind, bank_at, bank_with, score, entered, farkles, turns, current, turn, last_by, over,
               winners, ending, inner, outer, faces, scratch, med, med_bank, alpha, beta, rv, bank, can, tmax, cap):
    # pragma: no cover - compiled
    """One turn of game ``g`` as engine.Game plays it, the player to move choosing as its Python class does."""
    row_of, count, wins, points, after, hot_of, validate_of, easy_rank = rt
    n_all, refused, records, room, ends, last_round, penalty, _ = tt
    cur = current[g]
    su = score[g, cur] // _UNIT
    e = 1 if entered[g, cur] else 0
    total = 0
    dice_in_hand = n_all
    must_validate = 0
    hot = 0
    rolls = 0
    won = -1  # ENDINGS index of the mover's win at once
    farkled = False
    lost = False  # the turn total is lost (farkle, bust, five 1s)
    while True:
        blocked = refused[hot, must_validate, e, su, _col(refused, total // _UNIT)] == 1
        banks = False
        if not blocked:
            if kind == GREEDY:
                banks = total >= bank_at and records[e, _col(records, total // _UNIT)] == 1
            elif kind == EASY:
                banks = total >= bank_at or dice_in_hand <= bank_with
            else:
                roll_v, bank_v, offered = _value(kind, tt, su, e, total, dice_in_hand, blocked, med, med_bank, alpha,
                                                 beta, rv, bank, can, tmax, cap)
                banks = offered and bank_v >= roll_v
        if banks:
            break
        _roll(inner[g], outer[g], turn[g], rolls, dice_in_hand, faces, scratch)
        rolls += 1
        hot = 0
        key = 0
        for d in range(dice_in_hand):
            key += 7 ** (faces[d] - 1)
        r = row_of[key]
        if wins[r]:
            won = _FIVE_ONES
            lost = True
            break
        if count[r] == 0:
            farkled = True
            lost = True
            break
        must_validate = 0
        left = room[su, _col(room, total // _UNIT)]  # set-asides past an exact target are not offered
        choice = -1
        best = -np.inf
        for k in range(count[r]):
            if points[r, k] // _UNIT > left:
                continue
            if choice < 0:
                choice = k  # greedy: the first offered, the best
            if kind == EASY:
                if easy_rank[r, k] < easy_rank[r, choice]:
                    choice = k
            elif kind != GREEDY:
                at = total + points[r, k]
                if room[su, _col(room, at // _UNIT)] == 0:
                    k_blocked = False  # reaching the exact target: engine.Game.why_not_bank_after
                else:
                    k_blocked = refused[hot_of[r, k], validate_of[r, k], e, su, _col(refused, at // _UNIT)] == 1
                roll_v, bank_v, offered = _value(kind, tt, su, e, at, after[r, k], k_blocked, med, med_bank, alpha,
                                                 beta, rv, bank, can, tmax, cap)
                v = bank_v if offered and bank_v >= roll_v - _TOL else roll_v
                if v > best:
                    best = v
                    choice = k
        if choice < 0:  # bust: every set-aside would pass the exact target
            lost = True
            break
        total += points[r, choice]
        dice_in_hand = after[r, choice]
        hot = hot_of[r, choice]
        must_validate = validate_of[r, choice]
        if room[su, _col(room, total // _UNIT)] == 0:
            break  # reaching the exact target banks at once
    # engine.Game._bank, ._farkle, the bust, then ._end_turn.
    if farkled:
        f = farkles[g, cur] + 1
        cost = penalty[min(f, penalty.shape[0] - 1), su]
        if cost >= 0:
            score[g, cur] -= cost * _UNIT
            f = 0
        farkles[g, cur] = f
    elif won < 0:
        if not lost and records[e, _col(records, total // _UNIT)] == 1:
            score[g, cur] += total
            entered[g, cur] = True
            new = min(score[g, cur] // _UNIT, ends.size - 1)
            won = ends[new]
            if won < 0 and last_by[g] < 0 and last_round[new] == 1:
                last_by[g] = cur
        farkles[g, cur] = 0
    turns[g, cur] += 1
    turn[g] += 1
    if won >= 0:
        over[g] = True
        winners[g, cur] = True
        ending[g] = won
        return
    nxt = 1 - cur
    if last_by[g] >= 0 and nxt == last_by[g]:
        over[g] = True
        top = max(score[g, 0], score[g, 1])
        winners[g, 0] = score[g, 0] == top
        winners[g, 1] = score[g, 1] == top
        ending[g] = _TARGET
        return
    current[g] = nxt


@njit(cache=True, parallel=True)
def _play(at, level, keys, pair_of_seat, tt, rt, kinds, policy, score, entered, farkles, turns, current, turn,
          last_by, over, winners, ending, inner, outer, med, med_bank, alpha, beta, hv_rv, hv_bank, hv_can, hv_tmax,
          hv_cap):
    # pragma: no cover - compiled
    """Play the games ``at``: with ``level`` _ONE_TURN, one turn each (a Hard mover reads ``hv_*[keys[position
    in at]]``); with _TO_THE_END, to their end (no Hard player); else every turn until the game leaves seat-sum
    ``level`` (Hard reads the arrays of its pair of seats, ``hv_*[pair_of_seat[mover's seat]]``)."""
    seat = tt[7]
    for q in prange(at.size):
        g = at[q]
        faces = np.zeros(6, dtype=np.int64)
        scratch = np.zeros(144, dtype=np.int64)
        while True:
            cur = current[g]
            kind = kinds[g, cur]
            if level < 0:
                k = keys[q]
            elif kind == HARD:
                k = pair_of_seat[seat[1 if entered[g, cur] else 0, score[g, cur] // _UNIT]]
            else:
                k = 0
            _play_turn(g, tt, rt, kind, policy[g, cur, 0], policy[g, cur, 1], score, entered, farkles, turns,
                       current, turn, last_by, over, winners, ending, inner, outer, faces, scratch, med, med_bank,
                       alpha, beta, hv_rv[k], hv_bank[k], hv_can[k], hv_tmax[k], hv_cap[k])
            if level == _ONE_TURN or (level == _TO_THE_END and over[g]):
                break
            if level >= 0 and _level(seat, score, entered, last_by, over, g) != level:
                break


# -- Hard's swept arrays --------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def _sweep_pairs(movers, opponents, fos, xfs, xbs, w4, final, st_score, st_entered, may_bank, records, tmaxes,
                 target, end, offset, n_all, beyond, far, near, rv_out, bank_out, can_out, tmax_out, cap_out):
    # pragma: no cover - compiled
    """The arrays of TwoPlayerSolution.turn_values for each mover's seat i against opponent's seat j, the
    opponent's farkles in a row ``fos`` and its chances after the mover's farkle and nothing banked."""
    for q in prange(movers.size):
        i = movers[q]
        tmax_out[q] = tmaxes[i]
        cap_out[q] = pair_turn(i, opponents[q], fos[q], xfs[q], xbs[q], w4, final, st_score, st_entered, may_bank,
                               records, tmaxes[i], target, end, offset, n_all, beyond, far, near, bank_out[q],
                               can_out[q], rv_out[q])


@njit(cache=True, parallel=True)
def _sweep_last_turns(seats, needs, max_total, may_bank, records, n_all, far, unbanded, rv_out, bank_out, can_out,
                      tmax_out, cap_out):  # pragma: no cover - compiled
    """The arrays of coach._final_turn_valuation for each (seat, points needed in units)."""
    for q in prange(seats.size):
        seat = seats[q]
        need = needs[q]
        tmax = min(max(need, 0) + 40, max_total)
        bank_v = bank_out[q]
        bank_v[:] = 0.0
        can = can_out[q]
        can[:] = False
        for t in range(tmax + 1):
            can[t] = may_bank[seat, t]
        for t in range(1, tmax + 1):
            if records[seat, t]:
                bank_v[t] = 1.0 if t > need else (0.5 if t == need else 0.0)
        rv = rv_out[q]
        rv[:, :] = 0.0
        rs = np.zeros((2, rv.shape[0], n_all + 1))
        turn_sweep(tmax, n_all, bank_v, np.zeros((2, tmax + 1)), can, 1.0, 0.0, 0.0, 1.0, False, far, unbanded, 0, 0,
                   rv, rs)
        tmax_out[q] = tmax
        cap_out[q] = 1.0


# -- the run --------------------------------------------------------------------------------------------


def compiled_kinds(rules: Rules, specs: Sequence[str]) -> list[CompiledPlayer] | None:
    """Each player as compiled if the game can be played compiled, else None: two players of Hard, Medium,
    Easy or greedy (the others draw from their own generators, and Hard's approximation for three or more
    players is the coach's)."""
    from hotdice.analysis.solver import affordable
    from hotdice.play.players import skilled

    if len(specs) != 2:
        return None
    out = []
    for spec in specs:
        player = make_player(spec, random.Random(0))
        if isinstance(player, GreedyPlayer):
            out.append(CompiledPlayer(GREEDY, player.threshold))
        elif isinstance(player, skilled.EasyPlayer):
            out.append(CompiledPlayer(EASY, player.bank_at, player.bank_with))
        elif isinstance(player, skilled.MediumPlayer):
            out.append(CompiledPlayer(MEDIUM))
        elif isinstance(player, skilled.HardPlayer):
            # coach.measure_for: without the solved table at hand Hard weighs expected points, as Medium.
            out.append(CompiledPlayer(HARD if affordable(rules) else MEDIUM))
        else:
            return None
    return out


@njit(cache=True, nogil=True)
def _levels(seat, score, entered, last_by, over):  # pragma: no cover - compiled
    out = np.empty(over.size, dtype=np.int64)
    for g in range(over.size):
        out[g] = _level(seat, score, entered, last_by, over, g)
    return out


def _medium_tables(rules: Rules, needed: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                        npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Medium's roll values (expectation.TurnValues.roll_value) by [entered, total / 50, dice] and bank values
    (.bank_value, -1 where it has none) by [entered, total / 50], up to well past the target, and the straight
    lines it follows past its cap."""
    if not needed:
        return np.zeros((2, 1, rules.dice + 1)), np.zeros((2, 1)), np.zeros(rules.dice), np.zeros(rules.dice)
    from hotdice.analysis.expectation import turn_values

    tv = turn_values(rules)
    rows = max(tv.cap, 2 * rules.target) // _UNIT + 1
    med = np.zeros((2, rows, rules.dice + 1))
    med_bank = np.full((2, rows), -1.0)
    for e in (0, 1):
        for t in range(rows):
            for n in range(1, rules.dice + 1):
                med[e, t, n] = tv.roll_value(t * _UNIT, n, entered=bool(e))
            points = tv.bank_value(t * _UNIT, entered=bool(e))
            if points is not None:
                med_bank[e, t] = points
    return med, med_bank, np.asarray(tv.alpha, dtype=np.float64), np.asarray(tv.beta, dtype=np.float64)


_Arrays = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_], IntArray,
                npt.NDArray[np.float64]]
_CHUNK = 512  # turns' arrays swept at once: about 9 MB of arrays under farkle


class _HardTables:
    """Hard's swept arrays, made for the games at hand from the solved two-player table."""

    def __init__(self, rules: Rules) -> None:
        from hotdice.analysis.solver import two_player_solution

        self.rules = rules
        self.sol = two_player_solution(rules)
        self.st = self.sol.seats
        self.w4 = np.ascontiguousarray(self.sol.w4)
        self.rows = self.st.max_total + 2

    def _blank(self, k: int, rows: int) -> _Arrays:
        n = self.rules.dice + 1
        return (np.zeros((k, rows, n)), np.zeros((k, rows - 1)), np.zeros((k, rows - 1), dtype=np.bool_),
                np.zeros(k, dtype=np.int64), np.zeros(k))

    def pairs(self, movers: IntArray, opponents: IntArray, fm: IntArray, fo: IntArray) -> _Arrays:
        """The arrays of the turns from the mover's seats ``movers`` against ``opponents`` with these farkles
        in a row (TwoPlayerSolution.turn_values)."""
        out = self._blank(max(1, movers.size), self.rows)
        st, sol, r = self.st, self.sol, self.rules
        xf, xb = sol.opponent_after(movers, opponents, fm, fo)
        _sweep_pairs(movers, opponents, np.ascontiguousarray(sol.counts(fo), dtype=np.int64),
                     np.ascontiguousarray(xf, dtype=np.float64), np.ascontiguousarray(xb, dtype=np.float64), self.w4,
                     sol.final, st.score, st.entered, st.may_bank, st.records, st.tmax, st.target, _END[r.end],
                     1 if r.entry > 0 else 0, r.dice, sol.beyond, sol.table.arrays, sol.near.arrays, *out)
        return out

    def last_turns(self, seats: IntArray, needs: IntArray) -> _Arrays:
        """The arrays of the last turn from each seat needing ``needs`` units to pass the leader."""
        st = self.st
        tmax = int(np.minimum(np.maximum(needs, 0) + 40, st.max_total).max(initial=0))
        out = self._blank(max(1, seats.size), tmax + 2)
        _sweep_last_turns(seats, needs, st.max_total, st.may_bank, st.records, self.rules.dice,
                          self.sol.table.arrays, self.sol.table.unbanded, *out)
        return out


@dataclass(frozen=True)
class CompiledGames:
    """The end of every game: row ``g`` is game ``g``, column ``s`` its seat ``s`` (seat 0 plays first)."""

    scores: IntArray
    turns: IntArray
    winners: npt.NDArray[np.bool_]
    endings: IntArray  # index into ENDINGS


class _Run:
    """Every game's state as arrays, and the ways of playing them on."""

    def __init__(self, rules: Rules, seats: Sequence[Sequence[CompiledPlayer]], seeds: Sequence[str]) -> None:
        games = len(seeds)
        self.rules = rules
        self.kinds = np.array([[s.kind for s in row] for row in seats], dtype=np.int64).reshape(games, 2)
        policy = np.array([[(s.bank_at, s.bank_with) for s in row] for row in seats], dtype=np.int64)
        self.tt = _turn(rules)
        inner, outer = _pads(_key_rows(seeds))
        self.score = np.zeros((games, 2), dtype=np.int64)
        self.entered = np.full((games, 2), self.tt.entered)
        self.farkles = np.zeros((games, 2), dtype=np.int64)
        self.turns = np.zeros((games, 2), dtype=np.int64)
        self.current = np.zeros(games, dtype=np.int64)
        self.last_by = np.full(games, -1, dtype=np.int64)
        self.over = np.zeros(games, dtype=np.bool_)
        self.winners = np.zeros((games, 2), dtype=np.bool_)
        self.ending = np.zeros(games, dtype=np.int64)
        med, med_bank, alpha, beta = _medium_tables(rules, bool((self.kinds == MEDIUM).any()))
        self.state = (self.tt.arrays, _rolls(rules).arrays, self.kinds, policy.reshape(games, 2, 2), self.score,
                      self.entered, self.farkles, self.turns, self.current, np.zeros(games, dtype=np.int64),
                      self.last_by, self.over, self.winners, self.ending, inner, outer, med, med_bank, alpha, beta)
        self.hard = _HardTables(rules) if (self.kinds == HARD).any() else None
        self.none = _no_arrays(rules)

    def seat_of(self, g: IntArray, who: IntArray) -> IntArray:
        seat: IntArray = self.tt.seat[self.entered[g, who].astype(np.int64), self.score[g, who] // _UNIT]
        return seat

    def by_levels(self, on_games: Callable[[], None]) -> None:
        """Without the three-farkle penalty a game's seat sum never falls (a bank raises it, a lost turn hands
        the same sum to the opponent): every game plays level by level, each pair of seats swept once."""
        games = np.arange(self.over.size)
        if self.hard is None:
            self.to_the_end(games)
            on_games()
            return
        n_seats = int(self.tt.seat.max()) + 1
        for level in range(2 * n_seats):
            at = np.flatnonzero(_levels(self.tt.seat, self.score, self.entered, self.last_by, self.over) == level)
            if at.size:
                cur = self.current[at]
                movers = np.unique(np.concatenate([self.seat_of(at, cur)[self.kinds[at, cur] == HARD],
                                                   self.seat_of(at, 1 - cur)[self.kinds[at, 1 - cur] == HARD]]))
                pair_of_seat = np.full(n_seats, -1, dtype=np.int64)
                pair_of_seat[movers] = np.arange(movers.size)
                zero = np.zeros(movers.size, dtype=np.int64)
                arrays = self.hard.pairs(movers, level - movers, zero, zero) if self.hard is not None else self.none
                _play(at, level, np.zeros(at.size, dtype=np.int64), pair_of_seat, *self.state, *arrays)
                on_games()
        self.last_turns(games[~self.over])
        on_games()

    def by_turns(self, on_games: Callable[[], None]) -> None:
        """Under the three-farkle penalty scores fall and Hard's arrays depend on farkles in a row: every game
        plays one turn at a time, Hard's arrays swept for the (seats, farkles in a row) the turns start from."""
        hard_tables = self.hard
        if hard_tables is None:
            self.to_the_end(np.arange(self.over.size))
            on_games()
            return
        while not self.over.all():
            live = np.flatnonzero(~self.over)
            self.last_turns(live[self.last_by[live] >= 0])
            at = live[self.last_by[live] < 0]
            cur = self.current[at]
            hard = self.kinds[at, cur] == HARD
            _play(at[~hard], _ONE_TURN, np.zeros(int((~hard).sum()), dtype=np.int64), np.zeros(0, dtype=np.int64),
                  *self.state, *self.none)
            at, cur = at[hard], cur[hard]
            turns = np.stack([self.seat_of(at, cur), self.seat_of(at, 1 - cur), self.farkles[at, cur],
                              self.farkles[at, 1 - cur]], axis=1)
            if hard_tables is not None and at.size:
                turns[:, 2:] = hard_tables.sol.counts(turns[:, 2:])
                keys, index = np.unique(turns, axis=0, return_inverse=True)
                self._keyed(at, index.reshape(-1), keys,
                            lambda k: hard_tables.pairs(*(np.ascontiguousarray(k[:, c]) for c in range(4))))
            on_games()

    def to_the_end(self, at: IntArray) -> None:
        """The games ``at``, where nobody plays Hard, each played to its end at once."""
        _play(at, _TO_THE_END, np.zeros(at.size, dtype=np.int64), np.zeros(0, dtype=np.int64), *self.state,
              *self.none)

    def last_turns(self, at: IntArray) -> None:
        """The last turn of the games ``at``: the player after the one who reached the target, Hard keyed by
        (seat, points needed)."""
        if not at.size:
            return
        mover = 1 - self.last_by[at]
        hard = self.kinds[at, mover] == HARD
        _play(at[~hard], _ONE_TURN, np.zeros(int((~hard).sum()), dtype=np.int64), np.zeros(0, dtype=np.int64),
              *self.state, *self.none)
        at, mover = at[hard], mover[hard]
        hard_tables = self.hard
        if hard_tables is None or not at.size:
            return
        need = (self.score[at, 1 - mover] - self.score[at, mover]) // _UNIT
        capped = np.minimum(self.score[at, mover] // _UNIT, hard_tables.st.target - 1)  # coach._final_turn_valuation
        seat = self.tt.seat[self.entered[at, mover].astype(np.int64), capped]
        keys, index = np.unique(np.stack([seat, need], axis=1), axis=0, return_inverse=True)
        self._keyed(at, index.reshape(-1), keys,
                    lambda k: hard_tables.last_turns(np.ascontiguousarray(k[:, 0]), np.ascontiguousarray(k[:, 1])))

    def _keyed(self, at: IntArray, index: IntArray, keys: IntArray, sweep: Callable[[IntArray], _Arrays]) -> None:
        """One turn of each game ``at``, whose Hard mover reads the arrays of ``keys[index]``, swept in chunks."""
        for start in range(0, len(keys), _CHUNK):
            mine = (index >= start) & (index < start + _CHUNK)
            _play(at[mine], _ONE_TURN, index[mine] - start, np.zeros(0, dtype=np.int64), *self.state,
                  *sweep(keys[start : start + _CHUNK]))


def play_compiled(rules: Rules, seats: Sequence[Sequence[CompiledPlayer]], seeds: Sequence[str],
                  on_games: Callable[[int], None] | None = None) -> CompiledGames:
    """Play one two-player game per seed (``SeededDice(seed)``); ``seats[g]`` holds the players of game
    ``g``'s seats (see :func:`compiled_kinds`). ``on_games(k)``: k more games are over."""
    run = _Run(rules, seats, seeds)
    done = 0

    def progress() -> None:
        nonlocal done
        now = int(run.over.sum())
        if on_games is not None and now > done:
            on_games(now - done)
        done = now

    if (run.tt.penalty >= 0).any():  # a farkle may cost points: scores fall
        run.by_turns(progress)
    else:
        run.by_levels(progress)
    return CompiledGames(run.score, run.turns, run.winners, run.ending)


def _no_arrays(rules: Rules) -> _Arrays:
    n = rules.dice + 1
    return (np.zeros((1, 2, n)), np.zeros((1, 1)), np.zeros((1, 1), dtype=np.bool_), np.zeros(1, dtype=np.int64),
            np.zeros(1))
