"""The Gymnasium environments: one player alone (``hotdice/Solo-v0``) or against a computer player
(``hotdice/Versus-v0``). Actions and observations: :mod:`hotdice.env.table`.

Rewards:

- ``Solo-v0`` with ``mode="ten-turns"`` (the default): the points each step adds to the score (a bank; a
  three-farkle penalty is negative), so an episode's return is the final score of the ten turns.
- ``Solo-v0`` with ``mode="race"``: -1 at the end of each turn, so the return is minus the turns taken to
  reach the target.
- ``Versus-v0``: at the end, +1 for a win, -1 for a loss, 0 for a shared win; 0 on every other step. The
  computer plays its turns inside ``step``.

An action outside the mask ends the episode (terminated) with ``illegal_reward`` (default -1) and
``info["illegal_action"] = True``, as PettingZoo's classic games do. ``oracle=True`` adds the coach's value
of every legal action: ``info["action_values"]`` (action -> value) and ``info["oracle"]`` (its measure:
``points`` expected points of the turn, ``turns`` expected turns still to play (lower is better), ``win`` the
chance to win; ``table``: the status of a solved table not at hand yet, when ``action_values`` is absent).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from hotdice.env.table import HIGH, Table
from hotdice.game.rules import Rules

__all__ = ["SoloEnv", "VersusEnv"]

Observation = dict[str, npt.NDArray[Any]]


class _OnePlayer(gymnasium.Env[Observation, np.int64]):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, table: Table, *, oracle: bool, render_mode: str | None, illegal_reward: float) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode '{render_mode}': 'ansi' or 'human'")
        self.table = table
        self.oracle = oracle
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.action_space = spaces.Discrete(table.actions)
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "observation": spaces.Box(-1, HIGH, (table.size,), np.int64),
            "action_mask": spaces.Box(0, 1, (table.actions,), np.int8),
        })

    def _obs(self) -> Observation:
        return {"observation": self.table.observe(0), "action_mask": self.table.mask()}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {}
        if self.oracle:
            found = self.table.oracle()
            if found is not None:
                info["oracle"] = found.info()
                if found.values is not None:
                    info["action_values"] = found.values
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions (the name maskable learners ask for)."""
        return self.table.mask().astype(bool)

    def _start(self) -> None:
        self.table.reset(int(self.np_random.integers(2**62)))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._start()
        return self._obs(), self._info()

    def _reward(self) -> float:
        raise NotImplementedError

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.table.game.is_over:
            raise RuntimeError("the episode is over: reset() the environment")
        if not self.table.act(int(action)):
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True}
        reward = self._reward()
        return self._obs(), reward, self.table.game.is_over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "human":
            print(self.table.render(), end="")
        return self.table.render() if self.render_mode == "ansi" else None


class SoloEnv(_OnePlayer):
    """One player: ten turns for the most points (``mode="ten-turns"``), or the fewest turns to the target
    (``mode="race"``)."""

    def __init__(self, rules: Rules | str = "farkle", mode: str = "ten-turns", *, oracle: bool = False,
                 render_mode: str | None = None, illegal_reward: float = -1.0) -> None:
        if mode not in ("ten-turns", "race"):
            raise ValueError(f"unknown mode '{mode}': ten-turns or race")
        super().__init__(Table(rules, "solo" if mode == "ten-turns" else "race"), oracle=oracle,
                         render_mode=render_mode, illegal_reward=illegal_reward)
        self._score = self._turns = 0

    def _start(self) -> None:
        super()._start()
        self._score = self._turns = 0

    def _reward(self) -> float:
        game = self.table.game
        if self.table.mode == "race":
            turns, self._turns = self._turns, game.turns_played[0]
            return -float(self._turns - turns)
        score, self._score = self._score, game.scores[0]
        return float(self._score - score)


class VersusEnv(_OnePlayer):
    """One player (seat 0) against a computer player: ``opponent`` is ``easy``, ``medium``, ``hard`` or any
    spec of :mod:`hotdice.play.players`. ``agent_starts``: None draws who starts at each reset."""

    def __init__(self, rules: Rules | str = "farkle", opponent: str = "hard", *, agent_starts: bool | None = None,
                 oracle: bool = False, render_mode: str | None = None, illegal_reward: float = -1.0) -> None:
        super().__init__(Table(rules, "versus", opponent=opponent), oracle=oracle, render_mode=render_mode,
                         illegal_reward=illegal_reward)
        self.agent_starts = agent_starts

    def _start(self) -> None:
        key = int(self.np_random.integers(2**62))
        starts = self.agent_starts if self.agent_starts is not None else bool(self.np_random.integers(2))
        self.table.reset(key, computer_starts=not starts)
        self.table.let_opponent_play()

    def _reward(self) -> float:
        self.table.let_opponent_play()
        return 2 * self.table.share(0) - 1 if self.table.game.is_over else 0.0
