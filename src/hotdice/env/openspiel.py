"""Farkle as an OpenSpiel python game (``pip install hotdice[openspiel]``), registered with
``pyspiel.register_game`` when this module is imported: ``pyspiel.load_game("python_hotdice_farkle",
{"rules": "farkle/target:5000", "players": 2})``.

OpenSpiel's game strings keep ``,`` ``=`` for their own parameters and read a number as a number, so the
``rules`` parameter is the rules string with ``/`` for ``,`` and ``:`` for ``=``, and a trailing ``/`` where it is
a bare number (``5000/``, the five-dice preset); :func:`spiel_rules` writes it.

The dice are chance nodes: after a roll, ``current_player()`` is ``CHANCE`` and ``chance_outcomes()`` lists
every distinct roll of the dice in hand (faces sorted) with its exact probability, the outcome id being its
place in :func:`hotdice.game.dice.rolls_with_probability`. The players' actions are those of
:mod:`hotdice.env.table` (0 roll, 1 bank, 1 + bit mask: a set-aside). Returns at the end: twice the share
of the win less one (+1 win, -1 loss, 0 for a tie of two), as the PettingZoo environment pays. The state
serialises as its history (OpenSpiel's default), which the engine replays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from hotdice.env.table import action_count, legal, observation_fields, observe
from hotdice.game.dice import rolls_with_probability
from hotdice.game.engine import MAX_PLAYERS, Game
from hotdice.game.rules import Rules

__all__ = ["GAME_TYPE", "FarkleGame", "FarkleState", "spiel_rules"]

MAX_LENGTH = 100_000  # actions and rolls in one game: far past any game played (a game need not end sooner)
_MOST_ROLLS = len(rolls_with_probability(6))

GAME_TYPE = pyspiel.GameType(
    short_name="python_hotdice_farkle",
    long_name="hotdice Farkle",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "farkle", "players": 2},
)


def spiel_rules(rules: Rules | str) -> str:
    """The ``rules`` parameter of the OpenSpiel game for a rules string (see the module docstring)."""
    text = str(rules if isinstance(rules, Rules) else Rules.parse(rules)).replace(",", "/").replace("=", ":")
    return text + "/" if text.isdigit() else text


class FarkleGame(pyspiel.Game):  # type: ignore[misc]
    """The game of a rules string and a number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = Rules.parse(str(params["rules"]).replace("/", ",").replace(":", "="))
        self.players = int(params["players"])
        params["rules"] = spiel_rules(self.rules)
        info = pyspiel.GameInfo(num_distinct_actions=action_count(self.rules), max_chance_outcomes=_MOST_ROLLS,
                                num_players=self.players, min_utility=-1.0, max_utility=1.0,
                                max_game_length=MAX_LENGTH)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> FarkleState:
        return FarkleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self)


class FarkleState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's :class:`~hotdice.game.engine.Game`."""

    def __init__(self, game: FarkleGame) -> None:
        super().__init__(game)
        self.game = Game(game.rules, [f"player_{k}" for k in range(game.players)])

    def current_player(self) -> int:
        to_act = self.game.to_act
        if isinstance(to_act, int):
            return to_act
        return int(pyspiel.PlayerId.TERMINAL if self.game.is_over else pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal(self.game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, float(p)) for k, (_, p) in enumerate(self.game.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.game.apply_roll(self.game.chance_outcomes()[action][0])
        else:
            self.game.apply(legal(self.game)[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "dice " + "".join(map(str, rolls_with_probability(self.game.dice_in_hand)[action][0]))
        found = legal(self.game).get(action)
        return f"action {action}" if found is None else str(found)

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        outcome = self.game.outcome
        if outcome is None:
            return [0.0] * len(self.game.players)
        share = 1 / len(outcome.winners)
        return [2 * share - 1 if seat in outcome.winners else -1.0 for seat in range(len(self.game.players))]

    def __str__(self) -> str:
        return self.game.position()


class Observer:
    """The observation of :mod:`hotdice.env.table` as OpenSpiel's tensor, the position line as its string."""

    def __init__(self, game: FarkleGame) -> None:
        self.tensor = np.zeros(len(observation_fields(game.rules, game.players)), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FarkleState, player: int) -> None:
        self.tensor[:] = observe(state.game, player)

    def string_from(self, state: FarkleState, player: int) -> str:
        return f"{player} {state.game.position()}"


pyspiel.register_game(GAME_TYPE, FarkleGame)
