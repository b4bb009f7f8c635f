"""What every environment of :mod:`hotdice.env` shares: one game set up by :mod:`hotdice.play.modes`, its
dice drawn from a seeded source, and the fixed encoding of actions and observations. No rule is decided
here: the legal actions are the engine's (``game.legal_actions()``), the dice are the mode's source, the
oracle's values are the coach's (:func:`hotdice.analysis.coach.advise`).

Actions (``Discrete(2**dice + 1)``, 65 with six dice, 33 with five):

- ``0``: roll the dice in hand; ``1``: bank the turn total;
- ``1 + m`` for a bit mask ``m`` from 1 to ``2**dice - 1``: set aside the dice of the roll on the table
  whose positions are the bits of ``m`` (bit ``i`` is ``roll[i]`` of the observation, the roll sorted
  ascending). Of equal faces the leftmost are taken, so each legal set-aside has exactly one action:
  with the roll ``1 1 5`` "set aside one 1" is ``1 + 0b001`` (not ``1 + 0b010``).

Observation (``int64``, the observing player first, then the others in the order they play after):
``scores[n]``, ``entered[n]`` (on the board: 0/1), ``farkles_in_row[n]``, ``turns_played[n]``, then
``to_act`` (0: the observer acts, k: the k-th player after them, -1: nobody, the game is over),
``turn_total``, ``dice_in_hand``, ``phase`` (0: roll or bank, 1: set aside, 2: over), ``hot_dice``,
``must_validate``, ``last_round`` (0/1), ``turns_left`` (the observer's, in a game of limited turns, else
-1), and ``roll[dice]``: the roll on the table sorted ascending, 0 where there is no die. The names, in
order, are :func:`observation_fields`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hotdice.analysis.coach import advise, measure_for, table_for
from hotdice.analysis.solver.background import SOLVER
from hotdice.game.dice import SeededDice
from hotdice.game.engine import BANK, ROLL, Action, Game, Phase
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from hotdice.play.modes import Setup, race, solo, together, versus
from hotdice.play.players import make_player
from hotdice.play.players.base import Player

__all__ = ["BANK_ACTION", "MODES", "ROLL_ACTION", "Table", "action_count", "legal", "mask", "observation_fields",
           "observe", "set_aside_action", "sorted_roll"]

ROLL_ACTION = 0
BANK_ACTION = 1
MODES = ("solo", "race", "versus", "together")
HIGH = 2**31 - 1  # the observation's bound: no score nor turn total comes near it


def action_count(rules: Rules) -> int:
    return int(2**rules.dice) + 1


def observation_fields(rules: Rules, players: int) -> tuple[str, ...]:
    """The name of each place of the observation vector, in order (see the module docstring)."""
    per_seat = [f"{name}[{k}]" for name in ("scores", "entered", "farkles_in_row", "turns_played")
                for k in range(players)]
    single = ["to_act", "turn_total", "dice_in_hand", "phase", "hot_dice", "must_validate", "last_round", "turns_left"]
    return (*per_seat, *single, *(f"roll[{i}]" for i in range(rules.dice)))


def set_aside_action(roll: Sequence[int], set_aside: SetAside) -> int:
    """The action of a set-aside from ``roll`` (sorted ascending): the leftmost dice of each face."""
    wanted = list(set_aside)
    mask = 0
    for i, face in enumerate(roll):
        if face in wanted:
            wanted.remove(face)
            mask |= 1 << i
    return 1 + mask


def sorted_roll(game: Game) -> tuple[int, ...]:
    """The roll on the table, faces ascending: the positions the set-aside actions' bits name."""
    return tuple(sorted(game.roll)) if game.phase is Phase.SET_ASIDE and game.roll is not None else ()


def legal(game: Game) -> dict[int, Action]:
    """The engine's legal actions by their index."""
    roll = sorted_roll(game)
    out: dict[int, Action] = {}
    for action in game.legal_actions():
        if action is ROLL:
            out[ROLL_ACTION] = action
        elif action is BANK:
            out[BANK_ACTION] = action
        else:
            assert isinstance(action, SetAside)
            out[set_aside_action(roll, action)] = action
    return out


def mask(game: Game, actions: int) -> npt.NDArray[np.int8]:
    out = np.zeros(actions, dtype=np.int8)
    out[list(legal(game))] = 1
    return out


def observe(game: Game, seat: int) -> npt.NDArray[np.int64]:
    """The observation vector of ``seat`` (the fields of :func:`observation_fields`)."""
    n = len(game.players)
    order = [(seat + k) % n for k in range(n)]
    values: list[int] = []
    for column in (game.scores, game.entered, game.farkles_in_row, game.turns_played):
        values += [int(column[s]) for s in order]
    to_act = game.to_act
    roll = sorted_roll(game)
    turns_left = -1 if game.turn_limit is None else game.turn_limit - game.turns_played[seat]
    phase = {Phase.SET_ASIDE: 1, Phase.OVER: 2}.get(game.phase, 0)
    values += [(to_act - seat) % n if isinstance(to_act, int) else -1, game.turn_total, game.dice_in_hand, phase,
               int(game.hot_dice), int(game.must_validate), int(game.last_round_by is not None), turns_left]
    values += [*roll, *[0] * (game.rules.dice - len(roll))]
    return np.array(values, dtype=np.int64)


@dataclass(frozen=True)
class Oracle:
    """The coach's value of each legal action, or why there is none yet."""

    measure: str  # "win" (chance to win, a shared win half), "points" (expected points of the turn) or "turns"
    values: dict[int, float] | None  # None: the table is not at hand (status says where it stands)
    exact: bool  # False with three or more players: the strongest opponent stands for all of them
    status: dict[str, Any] | None = None

    def info(self) -> dict[str, Any]:
        out: dict[str, Any] = {"measure": self.measure, "exact": self.exact}
        if self.status is not None:
            out["table"] = self.status
        return out


class Table:
    """One game of a mode, its dice from a key, and the encoding of what a program sees and does."""

    def __init__(self, rules: Rules | str, mode: str, players: int = 1, opponent: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode '{mode}': {', '.join(MODES)}")
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.mode = mode
        self.players = {"solo": 1, "race": 1, "versus": 2}.get(mode, players)
        self.opponent_spec = opponent
        self.actions = action_count(self.rules)
        self.size = len(observation_fields(self.rules, self.players))
        self.setup: Setup | None = None
        self.opponent: Player | None = None

    @property
    def game(self) -> Game:
        if self.setup is None:
            raise RuntimeError("reset() the environment before using it")
        return self.setup.game

    def reset(self, key: int, computer_starts: bool = False) -> None:
        """A new game whose dice are drawn from ``key`` (and the opponent's choices from it too); seat 0 starts,
        unless the computer of a versus game does."""
        dice = SeededDice(f"hotdice.env/{key}")
        if self.mode == "solo":
            self.setup = solo(self.rules, "player_0", dice=dice)
        elif self.mode == "race":
            self.setup = race(self.rules, "player_0", dice=dice)
        elif self.mode == "versus":
            self.setup = versus(self.rules, "player_0", "opponent", computer_starts=computer_starts, dice=dice)
            self.opponent = make_player(self.opponent_spec or "hard", random.Random(key))
        else:
            self.setup = together(self.rules, [f"player_{k}" for k in range(self.players)], dice=dice)

    # -- what a program sees -------------------------------------------------------------------

    def sorted_roll(self) -> tuple[int, ...]:
        return sorted_roll(self.game)

    def legal(self) -> dict[int, Action]:
        return legal(self.game)

    def mask(self) -> npt.NDArray[np.int8]:
        return mask(self.game, self.actions)

    def observe(self, seat: int) -> npt.NDArray[np.int64]:
        return observe(self.game, seat)

    def render(self) -> str:
        """The position line of the engine (:meth:`hotdice.game.engine.Game.position`): notation, not prose."""
        return self.game.position() + "\n"

    # -- acting --------------------------------------------------------------------------------

    def act(self, index: int) -> bool:
        """Play the action ``index`` for the player to act, its dice rolled at once; False (nothing done) if
        it is not legal now."""
        action = self.legal().get(int(index))
        if action is None:
            return False
        assert self.setup is not None
        self.setup.play(action)
        return True

    def let_opponent_play(self) -> None:
        """Versus: the computer plays until the agent (seat 0) is to act or the game is over."""
        assert self.setup is not None and self.opponent is not None
        while self.game.to_act == 1:
            self.setup.play(self.opponent.choose(self.game))

    def share(self, seat: int) -> float:
        """The seat's share of the win once the game is over: 1 alone, 1/k among k tied winners, else 0."""
        outcome = self.game.outcome
        assert outcome is not None
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0

    # -- the oracle ----------------------------------------------------------------------------

    def oracle(self) -> Oracle | None:
        """The exact value of each legal action of the player to act (None if nobody is to act). Never waits
        for a table: one not at hand is asked of the background solver and its status told instead."""
        game = self.game
        if not isinstance(game.to_act, int):
            return None
        measure = measure_for(game)
        exact = len(game.players) <= 2
        kind = table_for(measure)
        if kind is not None:
            status = SOLVER.request(kind, game.rules)
            if not status.ready:
                return Oracle(measure, None, exact, status.json())
        roll = sorted_roll(game)
        values: dict[int, float] = {}
        for choice in advise(game, measure).choices:
            if choice.set_aside is not None:
                values[set_aside_action(roll, choice.set_aside)] = choice.value
            else:
                values[ROLL_ACTION if choice.then == "roll" else BANK_ACTION] = choice.value
        return Oracle(measure, values, exact)
