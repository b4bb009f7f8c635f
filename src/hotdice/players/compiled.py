"""Two-player games between Hard, Medium, Easy and greedy players, compiled: the fast path of ``simulate``.

Through the engine a Hard game of ``farkle`` takes ~0.1 s: every decision re-sweeps its turn. Here the games
are played by a numba loop that re-states the engine's turn (as :mod:`hotdice.players.batch` does for greedy
players) and each player's choice exactly as the Python players make it (the coach's ``advise``: the same
values, the same order of choices, the same tolerance), on the same dice: roll ``k`` of turn ``t`` of game
``i`` is the HMAC-SHA256 stream of :class:`~hotdice.dice.SeededDice` of ``"{seed}/game/{i}"``, computed here.
Tests pin it to the engine move for move.

Hard's swept arrays depend only on the two seats at the start of the turn, and without the three-farkle
penalty a game's seat sum never falls: a bank raises it, a lost turn hands the same sum to the opponent.
So all games advance together level by level of the seat sum; at each level the pairs of seats that games
stand on are swept once (in parallel), every game plays its turns until it leaves the level (in parallel),
and the arrays are dropped. The last turns of the last round (valued by the points needed) come at the end,
swept once per (seat, points needed). Memory stays at one level's arrays; each pair is swept at most once.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from hotdice.engine import Termination, after_set_aside, offered
from hotdice.players import make_player
from hotdice.players.simple import GreedyPlayer
from hotdice.players.solver.kernel import crossing_band, turn_sweep
from hotdice.players.solver.model import seats as solver_seats
from hotdice.rules import BelowEntry, End, HotDice, Rules
from hotdice.scoring import dice_key, scorer

__all__ = ["ENDINGS", "CompiledGames", "compiled_kinds", "play_compiled", "seeded_rolls"]

IntArray = npt.NDArray[np.int64]

GREEDY, EASY, MEDIUM, HARD = 0, 1, 2, 3
LAST_ROUND, FIRST, EXACT = 0, 1, 2  # as in solver.kernel
ENDINGS = (Termination.TARGET, Termination.EXACT, Termination.FIVE_ONES)  # CompiledGames.endings -> ending
_END = {End.LAST_ROUND: LAST_ROUND, End.FIRST: FIRST, End.EXACT: EXACT}
_TOL = 1e-12  # the coach's tolerance: a set-aside is followed by a bank worth at least rolling on less this
_UNIT = 50
_M32 = 0xFFFFFFFF
# Rule parameters as one int64 array (indices).
_DICE, _TARGET, _ENDC, _ENTRY, _BELOW_ROLL, _MIN_BANK, _HOT_MUST, _R4900, _OFFSET, _SEATS = range(10)

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


# -- the dice: HMAC-SHA256 as in hotdice.dice.SeededDice ------------------------------------------------


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


@dataclass(frozen=True)
class _Rolls:
    """Every roll of 1..N dice (row by key) with its legal set-asides in the engine's order."""

    row: IntArray  # roll key (sum of 7 ** (face - 1)) -> row, -1: not a roll
    count: IntArray  # [row] number of set-asides (0: farkle)
    wins: npt.NDArray[np.bool_]  # [row] wins the game at once (five 1s)
    points: IntArray  # [row, k]
    dice: IntArray  # [row, k] dice in hand after it (all of them after hot dice)
    hot: npt.NDArray[np.bool_]
    validate: npt.NDArray[np.bool_]
    kept: IntArray  # [row, k] dice set aside

    @property
    def arrays(self) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_], IntArray, IntArray, npt.NDArray[np.bool_],
                              npt.NDArray[np.bool_], IntArray]:
        return self.row, self.count, self.wins, self.points, self.dice, self.hot, self.validate, self.kept


def _rolls(rules: Rules) -> _Rolls:
    s = scorer(rules)
    rolls = [r for n in range(1, rules.dice + 1) for r in itertools.combinations_with_replacement(range(1, 7), n)]
    options = [offered(rules, r) for r in rolls]
    width = max(1, max(len(o) for o in options))
    row = np.full(7**6, -1, dtype=np.int64)
    count = np.zeros(len(rolls), dtype=np.int64)
    wins = np.zeros(len(rolls), dtype=np.bool_)
    points = np.zeros((len(rolls), width), dtype=np.int64)
    dice = np.zeros_like(points)
    kept = np.zeros_like(points)
    hot = np.zeros((len(rolls), width), dtype=np.bool_)
    validate = np.zeros_like(hot)
    for r, (roll, opts) in enumerate(zip(rolls, options, strict=True)):
        row[dice_key(roll)] = r
        count[r] = len(opts)
        wins[r] = s.wins_game(roll)
        for k, o in enumerate(opts):
            points[r, k] = o.points
            dice[r, k], hot[r, k], validate[r, k] = after_set_aside(rules, o)
            kept[r, k] = len(o.keep)
    return _Rolls(row, count, wins, points, dice, hot, validate, kept)


def _rule_params(rules: Rules, seats: int) -> IntArray:
    p = np.zeros(10, dtype=np.int64)
    p[_DICE], p[_TARGET], p[_ENDC], p[_ENTRY] = rules.dice, rules.target, _END[rules.end], rules.entry
    p[_BELOW_ROLL] = rules.below_entry is BelowEntry.ROLL
    p[_MIN_BANK], p[_HOT_MUST], p[_R4900] = rules.min_bank, rules.hot_dice is HotDice.MUST, rules.rule_4900
    p[_OFFSET], p[_SEATS] = 1 if rules.entry > 0 else 0, seats
    return p


# -- the engine's turn and the players' choices ---------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _refused(rp, score, total, entered, hot, validate):  # pragma: no cover - compiled
    """engine.bank_refusal: whether a bank is not allowed."""
    if total == 0 or (hot and rp[_HOT_MUST]) or validate:
        return True
    if not entered and total < rp[_ENTRY]:
        return rp[_BELOW_ROLL] == 1
    if total < rp[_MIN_BANK]:
        return True
    after = score + total
    return rp[_R4900] == 1 and rp[_TARGET] - 100 <= after < rp[_TARGET]


@njit(cache=True, nogil=True, inline="always")
def _seat(rp, score, entered):  # pragma: no cover - compiled
    """model.Seats.seat_of."""
    if rp[_OFFSET] and not entered:
        return 0
    return score // _UNIT + rp[_OFFSET]


@njit(cache=True, nogil=True)
def _level(rp, score, entered, current, last_by, over, g):  # pragma: no cover - compiled
    """The seat sum a game stands on (-1: over; 2 * seats: its last round has started)."""
    if over[g]:
        return -1
    if last_by[g] >= 0:
        return 2 * rp[_SEATS]
    return _seat(rp, score[g, 0], entered[g, 0]) + _seat(rp, score[g, 1], entered[g, 1])


@njit(cache=True, nogil=True)
def _medium_roll(med, alpha, beta, total, dice, entered):  # pragma: no cover - compiled
    """expectation.TurnValues.roll_value: tabulated, and the straight line past the table."""
    t = total // _UNIT
    if t < med.shape[1]:
        return med[1 if entered else 0, t, dice]
    return alpha[dice - 1] * float(total) + beta[dice - 1]


@njit(cache=True, nogil=True)
def _value(kind, rp, total, dice, blocked, entered, med, alpha, beta, rv, bank, can, tmax, cap, exact):
    # pragma: no cover - compiled
    """The coach's valuation of a state (total, dice in hand, bank blocked): (roll on, bank, bank offered)."""
    if kind == MEDIUM:
        recorded = entered or total >= rp[_ENTRY]
        return _medium_roll(med, alpha, beta, total, dice, entered), float(total if recorded else 0), not blocked
    t = total // _UNIT
    if exact and t == tmax:
        return 1.0, 0.0, False  # the exact target is reached: won at once
    if t > tmax:
        return rv[tmax + 1, dice], cap, not blocked
    offered = not blocked and can[t]
    return rv[t, dice], bank[t] if offered else 0.0, offered


@njit(cache=True, nogil=True)
def _play_turn(g, rp, rt, kind, threshold, score, entered, turns, current, turn, last_by, over, winners, ending,
               inner, outer, faces, scratch, med, alpha, beta, rv, bank, can, tmax, cap, exact):
    # pragma: no cover - compiled
    """One turn of game ``g`` as engine.Game plays it, the player to move choosing as its Python class does."""
    row_of, count, wins, points, after, hot_of, validate_of, kept = rt
    cur = current[g]
    n_all = rp[_DICE]
    target = rp[_TARGET]
    end = rp[_ENDC]
    total = 0
    in_hand = n_all
    must_validate = False
    hot = False
    rolls = 0
    won = -1  # how the mover wins at once: 0 target, 1 exact, 2 five 1s
    while True:
        sc = score[g, cur]
        en = entered[g, cur]
        blocked = _refused(rp, sc, total, en, hot, must_validate)
        banks = False
        if not blocked:
            if kind == GREEDY:
                banks = total >= threshold and (en or total >= rp[_ENTRY])
            elif kind == EASY:
                banks = total >= 300 or in_hand <= 2
            else:
                roll_v, bank_v, offered = _value(kind, rp, total, in_hand, blocked, en, med, alpha, beta, rv, bank,
                                                 can, tmax, cap, exact)
                banks = offered and bank_v >= roll_v
        if banks:
            break
        _roll(inner[g], outer[g], turn[g], rolls, in_hand, faces, scratch)
        rolls += 1
        hot = False
        key = 0
        for d in range(in_hand):
            key += 7 ** (faces[d] - 1)
        r = row_of[key]
        if wins[r]:
            won = 2
            total = -1
            break
        if count[r] == 0:  # farkle
            total = -1
            break
        must_validate = False
        room = target - sc - total if end == EXACT else 1 << 40
        offered_n = 0
        while offered_n < count[r] and points[r, offered_n] > room:
            offered_n += 1  # options are best first: those passing an exact target lead
        if offered_n == count[r]:  # bust
            total = -1
            break
        choice = offered_n
        if kind == EASY:
            for k in range(offered_n + 1, count[r]):
                if kept[r, k] > kept[r, choice] or (kept[r, k] == kept[r, choice] and points[r, k] > points[r, choice]):
                    choice = k
        elif kind != GREEDY:
            best = -np.inf
            for k in range(offered_n, count[r]):
                after_total = total + points[r, k]
                if end == EXACT and after_total == room + total:
                    k_blocked = False  # reaching the exact target: engine.Game.why_not_bank_after
                else:
                    k_blocked = _refused(rp, sc, after_total, en, hot_of[r, k], validate_of[r, k])
                roll_v, bank_v, offered = _value(kind, rp, after_total, after[r, k], k_blocked, en, med, alpha, beta,
                                                 rv, bank, can, tmax, cap, exact)
                v = bank_v if offered and bank_v >= roll_v - _TOL else roll_v
                if v > best:
                    best = v
                    choice = k
        total += points[r, choice]
        in_hand = after[r, choice]
        hot = hot_of[r, choice]
        must_validate = validate_of[r, choice]
        if end == EXACT and sc + total == target:
            break  # reaching the exact target banks at once
    # The bank, or the turn lost (total -1), then engine.Game._end_turn.
    if total >= 0 and (entered[g, cur] or total >= rp[_ENTRY]):
        score[g, cur] += total
        entered[g, cur] = True
        new = score[g, cur]
        if end == FIRST and new >= target:
            won = 0
        elif end == EXACT and new == target:
            won = 1
        elif end == LAST_ROUND and last_by[g] < 0 and new >= target:
            last_by[g] = cur
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
        ending[g] = 0
        return
    current[g] = nxt


@njit(cache=True, parallel=True)
def _play(at, level, final_keys, pair_of_seat, rp, rt, kinds, thresholds, score, entered, turns, current, turn,
          last_by, over, winners, ending, inner, outer, med, alpha, beta, hv_rv, hv_bank, hv_can, hv_tmax, hv_cap,
          exact):  # pragma: no cover - compiled
    """Play the games ``at``: on seat-sum ``level``, every turn until the game leaves it (Hard reads the arrays
    of its pair of seats, ``hv_*[pair_of_seat[mover's seat]]``); on the last round's level, the last turn
    (Hard reads ``hv_*[final_keys[position in at]]``)."""
    last_round = level == 2 * rp[_SEATS]
    for q in prange(at.size):
        g = at[q]
        faces = np.zeros(6, dtype=np.int64)
        scratch = np.zeros(144, dtype=np.int64)
        while _level(rp, score, entered, current, last_by, over, g) == level:
            cur = current[g]
            kind = kinds[g, cur]
            if last_round:
                k = final_keys[q]
            elif kind == HARD:
                k = pair_of_seat[_seat(rp, score[g, cur], entered[g, cur])]
            else:
                k = 0
            _play_turn(g, rp, rt, kind, thresholds[g, cur], score, entered, turns, current, turn, last_by, over,
                       winners, ending, inner, outer, faces, scratch, med, alpha, beta, hv_rv[k], hv_bank[k],
                       hv_can[k], hv_tmax[k], hv_cap[k], exact and not last_round)


# -- Hard's swept arrays --------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def _sweep_pairs(movers, level, w, final, st_score, st_entered, may_bank, records, tmaxes, rp, beyond, far, near,
                 rv_out, bank_out, can_out, tmax_out, cap_out):  # pragma: no cover - compiled
    """The arrays of TwoPlayerSolution.turn_values for each mover's seat i against level - i (no penalty)."""
    target = rp[_TARGET] // _UNIT
    end = rp[_ENDC]
    n_all = rp[_DICE]
    for q in prange(movers.size):
        i = movers[q]
        j = level - i
        xb = w[j, i]
        tmax = tmaxes[i]
        bank_v = bank_out[q]
        bank_v[:] = 0.0
        can = can_out[q]
        can[:] = False
        ej = 1 if st_entered[j] else 0
        for t in range(tmax + 1):
            can[t] = may_bank[i, t]
        for t in range(1, tmax + 1):
            if not can[t]:
                continue
            if not records[i, t]:
                bank_v[t] = 1.0 - xb
                continue
            new = st_score[i] + t
            if new >= target:
                if end == LAST_ROUND:
                    bank_v[t] = 1.0 - final[ej, min(new - st_score[j], final.shape[1] - 1)]
                else:
                    bank_v[t] = 1.0
            else:
                bank_v[t] = 1.0 - w[j, new + rp[_OFFSET]]
        cap = 1.0
        if end == LAST_ROUND:
            cap = 1.0 - final[ej, min(target + beyond - st_score[j], final.shape[1] - 1)]
        rv = rv_out[q]
        rv[:, :] = 0.0
        rs = np.zeros((2, rv.shape[0], n_all + 1))
        lo, hi = crossing_band(end, target - st_score[i], near)
        turn_sweep(tmax, n_all, bank_v, np.zeros((2, tmax + 1)), can, cap, 1.0 - xb, 1.0 - xb, 1.0, end == EXACT,
                   far, near, lo, hi, rv, rs)
        tmax_out[q] = tmax
        cap_out[q] = cap


@njit(cache=True, parallel=True)
def _sweep_last_turns(seats, needs, max_total, may_bank, records, n_all, far, rv_out, bank_out, can_out, tmax_out,
                      cap_out):  # pragma: no cover - compiled
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
        turn_sweep(tmax, n_all, bank_v, np.zeros((2, tmax + 1)), can, 1.0, 0.0, 0.0, 1.0, False, far, far, 0, 0,
                   rv, rs)
        tmax_out[q] = tmax
        cap_out[q] = 1.0


# -- the run --------------------------------------------------------------------------------------------


def compiled_kinds(rules: Rules, specs: Sequence[str]) -> list[tuple[int, int]] | None:
    """(kind, bank threshold) of each player if the game can be played compiled, else None: two players of
    Hard, Medium, Easy or greedy, and no three-farkle penalty (under it scores fall and Hard's arrays depend
    on farkles in a row)."""
    from hotdice.players import skilled
    from hotdice.players.solver import affordable

    if len(specs) != 2 or rules.three_farkles:
        return None
    out = []
    for spec in specs:
        player = make_player(spec, random.Random(0))
        if isinstance(player, GreedyPlayer):
            out.append((GREEDY, player.threshold))
        elif isinstance(player, skilled.EasyPlayer):
            out.append((EASY, 0))
        elif isinstance(player, skilled.MediumPlayer):
            out.append((MEDIUM, 0))
        elif isinstance(player, skilled.HardPlayer):
            # coach.measure_for: without the solved table at hand Hard weighs expected points, as Medium.
            out.append((HARD if affordable(rules) else MEDIUM, 0))
        else:
            return None
    return out


@njit(cache=True, nogil=True)
def _levels(rp, score, entered, current, last_by, over):  # pragma: no cover - compiled
    out = np.empty(over.size, dtype=np.int64)
    for g in range(over.size):
        out[g] = _level(rp, score, entered, current, last_by, over, g)
    return out


def _medium_tables(rules: Rules, needed: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                        npt.NDArray[np.float64]]:
    """Medium's roll values (expectation.TurnValues.roll_value) by [entered, total / 50, dice], up to well
    past the target, and the straight lines it follows past its cap."""
    if not needed:
        return np.zeros((2, 1, rules.dice + 1)), np.zeros(rules.dice), np.zeros(rules.dice)
    from hotdice.expectation import turn_values

    tv = turn_values(rules)
    rows = max(tv.cap, 2 * rules.target) // _UNIT + 1
    med = np.zeros((2, rows, rules.dice + 1))
    for e in (0, 1):
        for t in range(rows):
            for n in range(1, rules.dice + 1):
                med[e, t, n] = tv.roll_value(t * _UNIT, n, entered=bool(e))
    return med, np.asarray(tv.alpha, dtype=np.float64), np.asarray(tv.beta, dtype=np.float64)


_Arrays = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_], IntArray,
                npt.NDArray[np.float64]]
_LAST_TURN_CHUNK = 512  # (seat, points needed) swept at once: about 9 MB of arrays under farkle


class _HardTables:
    """Hard's swept arrays, made for the games at hand from the solved two-player table."""

    def __init__(self, rules: Rules) -> None:
        from hotdice.players.solver import two_player_solution

        self.rules = rules
        self.sol = two_player_solution(rules)
        st = self.sol.seats
        self.st = st
        self.w = np.ascontiguousarray(self.sol.w)
        self.rows = st.max_total + 2

    def _blank(self, k: int, rows: int) -> _Arrays:
        n = self.rules.dice + 1
        return (np.zeros((k, rows, n)), np.zeros((k, rows - 1)), np.zeros((k, rows - 1), dtype=np.bool_),
                np.zeros(k, dtype=np.int64), np.zeros(k))

    def pairs(self, level: int, movers: IntArray) -> _Arrays:
        """The arrays of the mover's seats ``movers`` against ``level - seat``."""
        out = self._blank(max(1, movers.size), self.rows)
        st, sol = self.st, self.sol
        _sweep_pairs(movers, level, self.w, sol.final, st.score, st.entered, st.may_bank, st.records, st.tmax,
                     self.rp, sol.beyond, sol.table.arrays, sol.near.arrays, *out)
        return out

    def last_turns(self, seats: IntArray, needs: IntArray) -> _Arrays:
        """The arrays of the last turn from each seat needing ``needs`` units to pass the leader."""
        st = self.st
        tmax = int(np.minimum(np.maximum(needs, 0) + 40, st.max_total).max(initial=0))
        out = self._blank(max(1, seats.size), tmax + 2)
        _sweep_last_turns(seats, needs, st.max_total, st.may_bank, st.records, self.rules.dice,
                          self.sol.table.arrays, *out)
        return out

    @property
    def rp(self) -> IntArray:
        return _rule_params(self.rules, self.st.score.size)


@dataclass(frozen=True)
class CompiledGames:
    """The end of every game: row ``g`` is game ``g``, column ``s`` its seat ``s`` (seat 0 plays first)."""

    scores: IntArray
    turns: IntArray
    winners: npt.NDArray[np.bool_]
    endings: IntArray  # index into ENDINGS


def play_compiled(rules: Rules, seats: Sequence[Sequence[tuple[int, int]]], seeds: Sequence[str],
                  on_games: Callable[[int], None] | None = None) -> CompiledGames:
    """Play one two-player game per seed (``SeededDice(seed)``); ``seats[g]`` holds the (kind, threshold) of
    game ``g``'s seats (see :func:`compiled_kinds`). ``on_games(k)``: k more games are over."""
    games = len(seeds)
    kinds = np.array([[k for k, _ in row] for row in seats], dtype=np.int64).reshape(games, 2)
    thresholds = np.array([[t for _, t in row] for row in seats], dtype=np.int64).reshape(games, 2)
    inner, outer = _pads(_key_rows(seeds))
    score = np.zeros((games, 2), dtype=np.int64)
    entered = np.full((games, 2), rules.entry == 0)
    turns = np.zeros((games, 2), dtype=np.int64)
    current = np.zeros(games, dtype=np.int64)
    turn = np.zeros(games, dtype=np.int64)
    last_by = np.full(games, -1, dtype=np.int64)
    over = np.zeros(games, dtype=np.bool_)
    winners = np.zeros((games, 2), dtype=np.bool_)
    ending = np.zeros(games, dtype=np.int64)
    med, alpha, beta = _medium_tables(rules, bool((kinds == MEDIUM).any()))
    st = solver_seats(rules)
    n_seats = int(st.score.size)
    rp = _rule_params(rules, n_seats)
    tables = _HardTables(rules) if (kinds == HARD).any() else None
    state = (rp, _rolls(rules).arrays, kinds, thresholds, score, entered, turns, current, turn, last_by, over,
             winners, ending, inner, outer, med, alpha, beta)
    exact = rules.end is End.EXACT
    offset = 1 if rules.entry > 0 else 0
    done = 0
    for level in range(2 * n_seats + 1):
        at = np.flatnonzero(_levels(rp, score, entered, current, last_by, over) == level)
        if not at.size:
            continue
        seat_of = np.where(entered[at] | (offset == 0), score[at] // _UNIT + offset, 0)  # [game, player]
        hard = kinds[at] == HARD
        if level < 2 * n_seats:
            pair_of_seat = np.full(n_seats, -1, dtype=np.int64)
            movers = np.unique(seat_of[hard])
            pair_of_seat[movers] = np.arange(movers.size)
            arrays = tables.pairs(level, movers) if tables is not None else _no_arrays(rules)
            _play(at, level, np.zeros(at.size, dtype=np.int64), pair_of_seat, *state, *arrays, exact)
        else:
            # The last turn: the player after the one who reached the target, by (seat, points needed).
            rows = np.arange(at.size)
            mover = 1 - last_by[at]
            need = (score[at, last_by[at]] - score[at, mover]) // _UNIT
            seat = np.where(entered[at, mover] | (offset == 0),
                            np.minimum(score[at, mover] // _UNIT, st.target - 1) + offset, 0)
            keyed = np.flatnonzero(hard[rows, mover])
            keys, index = np.unique(np.stack([seat[keyed], need[keyed]], axis=1), axis=0, return_inverse=True)
            index = index.reshape(-1)
            plain = np.setdiff1d(rows, keyed)
            _play(at[plain], level, np.zeros(plain.size, dtype=np.int64), np.zeros(0, dtype=np.int64), *state,
                  *_no_arrays(rules), exact)
            for start in range(0, len(keys), _LAST_TURN_CHUNK):
                chunk = keys[start : start + _LAST_TURN_CHUNK]
                assert tables is not None
                arrays = tables.last_turns(np.ascontiguousarray(chunk[:, 0]), np.ascontiguousarray(chunk[:, 1]))
                mine = (index >= start) & (index < start + len(chunk))
                _play(at[keyed[mine]], level, index[mine] - start, np.zeros(0, dtype=np.int64), *state, *arrays,
                      exact)
        if on_games is not None:
            now = int(over.sum())
            on_games(now - done)
            done = now
    return CompiledGames(score, turns, winners, ending)


def _no_arrays(rules: Rules) -> _Arrays:
    n = rules.dice + 1
    return (np.zeros((1, 2, n)), np.zeros((1, 1)), np.zeros((1, 1), dtype=np.bool_), np.zeros(1, dtype=np.int64),
            np.zeros(1))
