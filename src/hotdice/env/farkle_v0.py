"""Farkle for two to eight players as a PettingZoo AEC environment, built as PettingZoo's classic games are
(``connect_four_v3``): ``env()`` is ``raw_env()`` wrapped for illegal actions, bounds and order.

Agents are ``player_0`` ... ``player_{n-1}``; ``player_0`` starts. Each agent's observation is a dict:
``observation`` (the vector of :mod:`hotdice.env.table`, that agent first) and ``action_mask`` (the legal
actions of that agent, all 0 when it is not its turn). The dice are rolled inside ``step``: the agent to act
after a roll is the same one, with a roll on the table, unless the roll farkled.

Rewards come at the end: +1 for a win, -1 for a loss, and for k tied winners ``2/k - 1`` each (0 for a tie
of two): twice the share of the win, less one. ``oracle=True`` puts the coach's value of each legal action
in the acting agent's ``infos[agent]["action_values"]`` (``win``: the chance to win, a shared win counting
its share; with three or more players the strongest opponent stands for all of them and
``infos[agent]["oracle"]["exact"]`` is False) or, while the table is not at hand, its status in
``infos[agent]["oracle"]["table"]``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hotdice.env.table import HIGH, Table
from hotdice.game.rules import Rules

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv[str, dict[str, npt.NDArray[Any]], np.int64]:
    """The environment wrapped as PettingZoo's classic games are: an illegal move ends the game (-1 to its
    player), actions are bounds-checked, and the calls must come in order."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], np.int64]):  # type: ignore[misc]  # PettingZoo's name
    """Farkle, any rules string, ``players`` from 2 to 8 seats."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "farkle_v0",
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, rules: Rules | str = "farkle", players: int = 2, *, oracle: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if not 2 <= players <= 8:
            raise ValueError(f"players: from 2 to 8, not {players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode '{render_mode}': 'ansi' or 'human'")
        self.table = Table(rules, "together", players)
        self.oracle = oracle
        self.render_mode = render_mode
        self.possible_agents = [f"player_{k}" for k in range(players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: k for k, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.table.actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-1, HIGH, (self.table.size,), np.int64),
                "action_mask": spaces.Box(0, 1, (self.table.actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self._key_source = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seat[agent]
        mask = self.table.mask() if self.table.game.to_act == seat else np.zeros(self.table.actions, np.int8)
        return {"observation": self.table.observe(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._key_source = np.random.default_rng(seed)
        self.table.reset(int(self._key_source.integers(2**62)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._tell_oracle()

    def step(self, action: np.int64 | int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self.table.act(int(action)):
            raise ValueError(f"action {action} is not legal for {agent}: see its action_mask")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.infos = {a: {} for a in self.agents}
        game = self.table.game
        if game.is_over:
            for a, seat in self._seat.items():
                self.rewards[a] = 2 * self.table.share(seat) - 1
                self.terminations[a] = True
        else:
            to_act = game.to_act
            assert isinstance(to_act, int)
            self.agent_selection = self.possible_agents[to_act]
            self._tell_oracle()
        self._accumulate_rewards()

    def _tell_oracle(self) -> None:
        if not self.oracle:
            return
        found = self.table.oracle()
        if found is None:
            return
        info = self.infos[self.agent_selection]
        info["oracle"] = found.info()
        if found.values is not None:
            info["action_values"] = found.values

    def render(self) -> str | None:
        if self.render_mode == "human":
            print(self.table.render(), end="")
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass
