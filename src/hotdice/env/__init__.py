"""Environments for programs (``pip install hotdice[env]``): Farkle for learners and planners.

- ``from hotdice.env import farkle_v0``: PettingZoo AEC, two to eight players (``farkle_v0.env(rules="farkle",
  players=2)``, ``farkle_v0.raw_env``).
- ``gymnasium.make("hotdice/Solo-v0", rules=...)`` and ``gymnasium.make("hotdice/Versus-v0", rules=...,
  opponent="hard")``, registered when this package is imported; ``gymnasium.make_vec("hotdice/Solo-v0",
  num_envs=N, rules=...)`` steps N ten-turn games at once, compiled (:mod:`hotdice.env.vector`).

The actions and the observation are documented in :mod:`hotdice.env.table`, the rewards in
:mod:`hotdice.env.one_player` and :mod:`hotdice.env.farkle_v0`. ``oracle=True`` gives the exact value of each
legal action from the solved tables, so that a policy's regret is measured exactly.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # the default install has no gymnasium
    raise ImportError("hotdice.env needs the [env] extra: pip install 'hotdice[env]'") from exc

__all__ = ["ENVIRONMENTS", "VECTOR_ENVIRONMENTS"]

ENVIRONMENTS = {"hotdice/Solo-v0": "hotdice.env.one_player:SoloEnv",
                "hotdice/Versus-v0": "hotdice.env.one_player:VersusEnv"}

VECTOR_ENVIRONMENTS = {"hotdice/Solo-v0": "hotdice.env.vector:solo_vector"}

for _id, _entry in ENVIRONMENTS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry, vector_entry_point=VECTOR_ENVIRONMENTS.get(_id))
