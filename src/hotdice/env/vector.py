"""Many solo games at once: ``gymnasium.make_vec("hotdice/Solo-v0", num_envs=N, rules=...)`` (ten turns, or
``mode="race"``).

The plain environments step one game through the engine (5,000 to 16,000 steps a second); here every game is a
row of arrays and one compiled call steps them all. Actions, observations, action masks and rewards are those of
``hotdice/Solo-v0`` (:mod:`hotdice.env.table`, :mod:`hotdice.env.one_player`); an episode that ends is reset
at the next step (Gymnasium's ``NEXT_STEP`` autoreset: that step's action is ignored, its reward is 0).

The dice are the plain environment's: game ``i`` seeded with ``seed + i`` draws a key from its generator at each
reset and rolls ``SeededDice(f"hotdice.env/{key}")`` (the HMAC stream computed by :mod:`hotdice.sim.compiled`), so
``SyncVectorEnv`` of ``Solo-v0`` seeded alike sees the very same games. No rule is stated here: the set-asides of
each roll, the points, the dice after them, hot dice and validation are the engine's tables
(:func:`hotdice.sim.compiled._rolls`); whether a bank is allowed, recorded, ends the game, starts a last round,
how far an exact target leaves room and what a farkle costs are asked of the engine's rule functions once per
cell of a table (the race's are those the compiled simulation plays by, :func:`hotdice.sim.compiled._turn`).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from numba import njit

from hotdice.analysis.expectation import may_bank
from hotdice.env.table import BANK_ACTION, HIGH, ROLL_ACTION, action_count, observation_fields, set_aside_action
from hotdice.game.engine import (
    Game,
    bank_records,
    farkle_penalty,
    offered,
    room_to_target,
    starts_last_round,
    wins_at_once,
)
from hotdice.game.rules import UNIT, Rules
from hotdice.play.modes import TEN_TURNS, ten_turn_rules
from hotdice.sim.compiled import NO_ROOM, _key_rows, _pads, _roll, _rolls, _turn

__all__ = ["SoloVectorEnv"]

IntArray = npt.NDArray[np.int64]
SCORES = 4000  # ten turns' score cells (200,000 points): a higher score reads the rules of the last one
_DECIDE, _SET_ASIDE, _OVER = 0, 1, 2  # the observation's phase
_PENALTY_COUNTS = 10  # farkles in a row asked of engine.farkle_penalty (as hotdice.sim.compiled does)


@dataclass(frozen=True)
class _Tables:
    """A solo game's rules as arrays, each cell the engine's answer (scores and totals in units of 50; a score or
    a total past a table's last cell reads the last cell)."""

    dice: int
    entered: bool  # players start on the board (no entry)
    option_of: IntArray  # [roll row, action] the roll's set-aside (index into the engine's options), -1: none
    points: IntArray  # [roll row, option]
    after: IntArray  # [roll row, option] dice in hand after it
    hot: IntArray  # [roll row, option]
    validate: IntArray  # [roll row, option]
    count: IntArray  # [roll row] options (0: farkle)
    wins: npt.NDArray[np.bool_]  # [roll row] wins at once (five 1s)
    row_of: IntArray  # [roll key] roll row
    refused: IntArray  # [hot dice, must validate, entered, score, turn total] 1: engine.bank_refusal refuses
    records: IntArray  # [entered, turn total] engine.bank_records
    room: IntArray  # [score, turn total] engine.room_to_target (NO_ROOM: no exact target)
    ends: IntArray  # [score after a bank] engine.wins_at_once (-1: the game goes on)
    last_round: IntArray  # [score after a bank] engine.starts_last_round
    penalty: IntArray  # [farkles in a row, score] engine.farkle_penalty (-1: none)

    @property
    def arrays(self) -> tuple[Any, ...]:
        return (self.dice, self.option_of, self.points, self.after, self.hot, self.validate, self.count, self.wins,
                self.row_of, self.refused, self.records, self.room, self.ends, self.last_round, self.penalty)


def _roll_tables(rules: Rules) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
                                        npt.NDArray[np.bool_], IntArray]:
    """The rolls' tables: each legal set-aside's action (:func:`set_aside_action`), and the engine's options."""
    rt = _rolls(rules)
    rolls = [r for n in range(1, rules.dice + 1) for r in itertools.combinations_with_replacement(range(1, 7), n)]
    option_of = np.full((len(rolls), action_count(rules)), -1, dtype=np.int64)
    for r, roll in enumerate(rolls):
        for k, option in enumerate(offered(rules, roll)):
            option_of[r, set_aside_action(roll, option.set_aside)] = k
    return option_of, rt.points, rt.dice, rt.hot, rt.validate, rt.count, rt.wins, rt.row


@functools.lru_cache(maxsize=8)
def _race_tables(rules: Rules) -> _Tables:
    """The race's tables: those the compiled simulation plays by (:func:`hotdice.sim.compiled._turn`)."""
    tt = _turn(rules)
    start = Game(rules, ("",))
    return _Tables(start.dice_in_hand, start.entered[0], *_roll_tables(rules), tt.refused, tt.records, tt.room,
                   tt.ends, tt.last_round, tt.penalty)


@functools.lru_cache(maxsize=8)
def _ten_turn_tables(rules: Rules) -> _Tables:
    """The tables of the ten-turn ``rules``, whose target (lifted to the largest) no ten turns reach. The 4900
    rule, the only bank rule that reads the score, is lifted too, so a bank is asked of the engine at score 0
    (:func:`may_bank`); totals past the entry and the minimum bank read the last column, as in
    :mod:`hotdice.sim.compiled`."""
    room = room_to_target(rules, SCORES * UNIT, SCORES * UNIT)
    if room is not None and room < SCORES * UNIT:
        raise ValueError("ten-turn rules lift the target out of reach")
    totals = max(rules.entry, rules.min_bank) // UNIT + 2
    flags = (False, True)
    refused = np.zeros((2, 2, 2, 1, totals), dtype=np.int64)
    for hot, validate, entered in itertools.product(flags, flags, flags):
        for t in range(totals):
            refused[int(hot), int(validate), int(entered), 0, t] = not may_bank(
                rules, t * UNIT, entered=entered, hot_dice=hot, must_validate=validate)
    records = np.array([[bank_records(rules, entered=e, turn_total=t * UNIT) for t in range(totals)] for e in flags],
                       dtype=np.int64)
    ends = np.array([-1 if wins_at_once(rules, s * UNIT) is None else 0 for s in range(SCORES)], dtype=np.int64)
    last_round = np.array([starts_last_round(rules, s * UNIT) for s in range(SCORES)], dtype=np.int64)
    penalty = np.full((_PENALTY_COUNTS + 1, SCORES), -1, dtype=np.int64)
    for f, s in itertools.product(range(_PENALTY_COUNTS + 1), range(SCORES)):
        lost = farkle_penalty(rules, score=s * UNIT, farkles_in_row=f)
        if lost is not None:
            penalty[f, s] = lost // UNIT
    start = Game(rules, ("",))
    return _Tables(start.dice_in_hand, start.entered[0], *_roll_tables(rules), refused, records,
                   np.full((1, 1), NO_ROOM, dtype=np.int64), ends, last_round, penalty)


@njit(cache=True, nogil=True, inline="always")
def _at(table, i):  # pragma: no cover - compiled
    """Index ``i`` of a table's first axis, past its end the last."""
    return min(i, table.shape[0] - 1)


@njit(cache=True, nogil=True)
def _roll_row(faces, row_of):  # pragma: no cover - compiled
    """The row of the tables of the roll on the table (faces, 0 where there is no die)."""
    key = 0
    for face in faces:
        if face > 0:
            key += 7 ** (face - 1)
    return row_of[key]


@njit(cache=True, nogil=True)
def _room(g, s, t):  # pragma: no cover - compiled
    """The most points (in units) a set-aside of game ``g`` may add now (engine.room_to_target)."""
    score, total, room = s[0], s[4], t[11]
    row = room[_at(room, score[g] // UNIT)]
    return row[min(total[g] // UNIT, row.size - 1)]


@njit(cache=True, nogil=True)
def _step(actions, illegal, rewards, done, s, t, inner, outer, turn_limit, race):  # pragma: no cover - compiled
    """One action of every game (``actions[g] < 0``: the game is left as it is); ``s``: the state arrays, ``t``:
    the tables. An action outside the mask sets ``illegal[g]`` and changes nothing. Rewards: the points the
    step adds to the score, or with ``race`` -1 for a turn that ends."""
    score, entered, farkles, turns, total, dice, phase, hot, validate, last_round, roll, rolls, mask = s
    n_all, option_of, points, after, hot_of, validate_of, count, wins, row_of = t[:9]
    records, _, ends, last_of, penalty = t[10:]
    faces = np.zeros(6, dtype=np.int64)
    scratch = np.zeros(144, dtype=np.int64)
    for g in range(actions.size):
        a = actions[g]
        illegal[g] = False
        rewards[g] = 0.0
        if a < 0:
            continue
        if a >= mask.shape[1] or mask[g, a] == 0:
            illegal[g] = True
            done[g] = True
            continue
        before = score[g]
        end_turn = False
        banks = False
        if phase[g] == _SET_ASIDE:
            r = _roll_row(roll[g], row_of)
            k = option_of[r, a]
            total[g] += points[r, k]
            dice[g] = after[r, k]
            hot[g] = hot_of[r, k]
            validate[g] = validate_of[r, k]
            roll[g, :] = 0
            phase[g] = _DECIDE
            banks = _room(g, s, t) == 0  # reaching an exact target banks at once
        elif a == BANK_ACTION:
            banks = True
        else:  # roll: the dice of roll ``rolls`` of turn ``turns`` (one player: the game's turn is its turns)
            n = dice[g]
            _roll(inner[g], outer[g], turns[g], rolls[g], n, faces, scratch)
            rolls[g] += 1
            hot[g] = 0
            r = _roll_row(faces[:n], row_of)
            if wins[r]:
                end_turn = True
                done[g] = True
            elif count[r] == 0:
                farkles[g] += 1
                cost = penalty[_at(penalty, farkles[g]), min(score[g] // UNIT, penalty.shape[1] - 1)]
                if cost >= 0:
                    score[g] -= cost * UNIT
                    farkles[g] = 0
                end_turn = True
            else:
                validate[g] = 0
                roll[g, :] = 0
                roll[g, :n] = np.sort(faces[:n])
                left = _room(g, s, t)
                offered = False
                for k in range(count[r]):
                    offered = offered or points[r, k] // UNIT <= left
                if offered:
                    phase[g] = _SET_ASIDE
                else:  # a bust: every set-aside would pass the exact target
                    roll[g, :] = 0
                    farkles[g] = 0
                    end_turn = True
        if banks:
            e = 1 if entered[g] else 0
            if records[e, min(total[g] // UNIT, records.shape[1] - 1)] == 1:
                score[g] += total[g]
                entered[g] = True
                new = min(score[g] // UNIT, ends.size - 1)
                if ends[new] >= 0:
                    done[g] = True
                if last_round[g] == 0 and last_of[new] == 1:
                    last_round[g] = 1
                    done[g] = True  # one player: the last round ends with the turn of whoever started it
            farkles[g] = 0
            end_turn = True
        if end_turn:
            turns[g] += 1
            total[g] = 0
            dice[g] = n_all
            roll[g, :] = 0
            validate[g] = 0
            hot[g] = 0
            rolls[g] = 0
            if 0 <= turn_limit <= turns[g]:
                done[g] = True
            phase[g] = _OVER if done[g] else _DECIDE
        rewards[g] = (-1.0 if end_turn else 0.0) if race else float(score[g] - before)
        _mask(g, s, t)


@njit(cache=True, nogil=True)
def _mask(g, s, t):  # pragma: no cover - compiled
    """The legal actions of game ``g`` now."""
    score, entered, total, phase, hot, validate, roll, mask = s[0], s[1], s[4], s[6], s[7], s[8], s[10], s[12]
    option_of, points, row_of, refused = t[1], t[2], t[8], t[9]
    mask[g, :] = 0
    if phase[g] == _DECIDE:
        mask[g, ROLL_ACTION] = 1
        cells = refused[hot[g], validate[g], 1 if entered[g] else 0]
        row = cells[_at(cells, score[g] // UNIT)]
        mask[g, BANK_ACTION] = 1 - row[min(total[g] // UNIT, row.size - 1)]
    elif phase[g] == _SET_ASIDE:
        r = _roll_row(roll[g], row_of)
        left = _room(g, s, t)
        for a in range(2, mask.shape[1]):
            k = option_of[r, a]
            if k >= 0 and points[r, k] // UNIT <= left:
                mask[g, a] = 1


@njit(cache=True, nogil=True)
def _masks(games, s, t):  # pragma: no cover - compiled
    for g in games:
        _mask(g, s, t)


class SoloVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` solo games (ten turns, or a race with ``mode="race"``) stepped together (the
    ``vector_entry_point`` of ``hotdice/Solo-v0``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 1, rules: Rules | str = "farkle", mode: str = "ten-turns", *,
                 illegal_reward: float = -1.0, oracle: bool = False, render_mode: str | None = None) -> None:
        if mode not in ("ten-turns", "race"):
            raise ValueError(f"unknown mode '{mode}': ten-turns or race")
        if oracle or render_mode is not None:
            raise ValueError("the vector environment has no oracle and no render mode: use hotdice/Solo-v0")
        chosen = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.race = mode == "race"
        self.rules = chosen if self.race else ten_turn_rules(chosen)
        self.turn_limit = -1 if self.race else TEN_TURNS
        self.num_envs = num_envs
        self.illegal_reward = illegal_reward
        self.tables = _race_tables(self.rules) if self.race else _ten_turn_tables(self.rules)
        tb = self.tables
        actions = action_count(self.rules)
        self.size = len(observation_fields(self.rules, 1))
        self.single_action_space = spaces.Discrete(actions)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-1, HIGH, (self.size,), np.int64),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        n = num_envs
        zeros = functools.partial(np.zeros, n, dtype=np.int64)
        self.score, self.farkles, self.turns, self.total = zeros(), zeros(), zeros(), zeros()
        self.entered = np.full(n, tb.entered)
        self.dice, self.phase, self.hot, self.validate, self.last_round = zeros(), zeros(), zeros(), zeros(), zeros()
        self.roll = np.zeros((n, tb.dice), dtype=np.int64)
        self.rolls = zeros()
        self.mask = np.zeros((n, actions), dtype=np.int8)
        self.inner = np.zeros((n, 8), dtype=np.int64)
        self.outer = np.zeros((n, 8), dtype=np.int64)
        self.done = np.zeros(n, dtype=np.bool_)
        self.illegal = np.zeros(n, dtype=np.bool_)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.generators = [seeding.np_random()[0] for _ in range(n)]
        self._autoreset = np.zeros(n, dtype=np.bool_)
        self._state = (self.score, self.entered, self.farkles, self.turns, self.total, self.dice, self.phase, self.hot,
                       self.validate, self.last_round, self.roll, self.rolls, self.mask)
        self._t = tb.arrays

    def _start(self, games: IntArray) -> None:
        """New games at ``games``, each with the next key of its generator (as ``Solo-v0``'s reset draws it)."""
        keys = [f"hotdice.env/{int(self.generators[g].integers(2**62))}" for g in games]
        inner, outer = _pads(_key_rows(keys))
        self.inner[games], self.outer[games] = inner, outer
        for column in (self.score, self.farkles, self.turns, self.total, self.phase, self.hot, self.validate,
                       self.last_round, self.rolls):
            column[games] = 0
        self.entered[games] = self.tables.entered
        self.dice[games] = self.tables.dice
        self.roll[games] = 0
        self.done[games] = False
        _masks(games, self._state, self._t)

    def _observations(self) -> dict[str, npt.NDArray[Any]]:
        """The fields of :func:`hotdice.env.table.observation_fields` for one player, a row per game."""
        over = self.phase == _OVER
        columns = [self.score, self.entered.astype(np.int64), self.farkles, self.turns, np.where(over, -1, 0),
                   self.total, self.dice, self.phase, self.hot, self.validate, self.last_round,
                   np.full(self.num_envs, -1) if self.race else self.turn_limit - self.turns]
        obs = np.concatenate([np.stack(columns, axis=1), self.roll], axis=1)
        return {"observation": obs, "action_mask": self.mask.copy()}

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Every game anew; game ``i`` of ``seed`` is seeded with ``seed + i`` (as ``SyncVectorEnv`` seeds)."""
        if seed is not None:
            seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
            self.generators = [seeding.np_random(s)[0] for s in seeds]
        self._start(np.arange(self.num_envs))
        self._autoreset[:] = False
        return self._observations(), {}

    def step(self, actions: Any) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs).copy()
        restarting = np.flatnonzero(self._autoreset)
        chosen[restarting] = -1
        _step(chosen, self.illegal, self.rewards, self.done, self._state, self._t, self.inner, self.outer,
              self.turn_limit, self.race)
        if restarting.size:
            self._start(restarting)
        rewards = np.where(self.illegal, self.illegal_reward, self.rewards)
        terminated = self.done.copy()
        terminated[restarting] = False
        self._autoreset = terminated.copy()
        info: dict[str, Any] = {}
        if self.illegal.any():
            info = {"illegal_action": self.illegal.copy(), "_illegal_action": self.illegal.copy()}
        return self._observations(), rewards, terminated, np.zeros(self.num_envs, dtype=np.bool_), info


def solo_vector(num_envs: int = 1, rules: Rules | str = "farkle", mode: str = "ten-turns",
                **kwargs: Any) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """``make_vec("hotdice/Solo-v0", ...)``: compiled; with the oracle or rendering, ``SyncVectorEnv`` of the plain
    environment."""
    if not kwargs.get("oracle") and kwargs.get("render_mode") is None:
        return SoloVectorEnv(num_envs, rules, mode, **kwargs)
    from hotdice.env.one_player import SoloEnv

    return gymnasium.vector.SyncVectorEnv([functools.partial(SoloEnv, rules, mode, **kwargs)] * num_envs)
