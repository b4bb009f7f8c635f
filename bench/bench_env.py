"""Steps per second of the environments for programs, on one core, beside PettingZoo's connect_four_v3.

Run: ``python bench/bench_env.py [--seconds 5]`` (needs the [env] extra; connect_four_v3 also needs pygame,
and is left out without it).

Each environment is stepped with a uniformly random legal action (from the action mask), resetting when an
episode ends, for ``--seconds``; a step is one call of ``step`` (for Versus-v0, the computer's turns are
played inside it). With ``oracle=True`` every step also asks the coach for the value of each legal action.
The vector rows (``gymnasium.make_vec("hotdice/Solo-v0", num_envs=N)``) count the steps of all N games: one
call steps N games, each with a uniformly random legal action drawn for all of them at once.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import hotdice.env  # noqa: F401 (registers the Gymnasium environments)
from hotdice.env import farkle_v0


def aec_rate(make: Callable[[], Any], seconds: float) -> float:
    env = make()
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
            del agent
        env.reset()
    return steps / (time.perf_counter() - start)


def gym_rate(name: str, seconds: float, **kwargs: Any) -> float:
    env = gymnasium.make(name, **kwargs)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(games: int, seconds: float, mode: str = "ten-turns") -> float:
    env = gymnasium.make_vec("hotdice/Solo-v0", num_envs=games, vectorization_mode="vector_entry_point",
                             rules="farkle", mode=mode)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = obs["action_mask"]
        # Uniform among the legal actions (a game being reset has none: its action is ignored).
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, *_ = env.step(actions)
        steps += games
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    seconds = parser.parse_args().seconds
    rows: list[tuple[str, Callable[[], float]]] = [
        ("farkle_v0 (AEC, 2 players)", lambda: aec_rate(lambda: farkle_v0.env(rules="farkle", players=2), seconds)),
        ("farkle_v0 (AEC, 2 players), oracle",
         lambda: aec_rate(lambda: farkle_v0.env(rules="farkle", players=2, oracle=True), seconds)),
        ("hotdice/Solo-v0 (ten turns)", lambda: gym_rate("hotdice/Solo-v0", seconds, rules="farkle")),
        ("hotdice/Solo-v0 (ten turns), oracle",
         lambda: gym_rate("hotdice/Solo-v0", seconds, rules="farkle", oracle=True)),
        ("make_vec hotdice/Solo-v0 (ten turns), N=256", lambda: vector_rate(256, seconds)),
        ("make_vec hotdice/Solo-v0 (ten turns), N=1024", lambda: vector_rate(1024, seconds)),
        ("hotdice/Solo-v0 (race)", lambda: gym_rate("hotdice/Solo-v0", seconds, rules="farkle", mode="race")),
        ("make_vec hotdice/Solo-v0 (race), N=1024", lambda: vector_rate(1024, seconds, "race")),
        ("hotdice/Versus-v0 (hard)", lambda: gym_rate("hotdice/Versus-v0", seconds, rules="farkle", opponent="hard")),
        ("hotdice/Versus-v0 (hard), oracle",
         lambda: gym_rate("hotdice/Versus-v0", seconds, rules="farkle", opponent="hard", oracle=True)),
    ]
    try:
        from pettingzoo.classic import connect_four_v3

        rows.append(("connect_four_v3 (PettingZoo classic)", lambda: aec_rate(connect_four_v3.env, seconds)))
    except ImportError:  # pygame is not installed
        pass
    gym_rate("hotdice/Versus-v0", 0.5, rules="farkle", opponent="hard", oracle=True)  # tables loaded, kernels compiled
    vector_rate(4, 0.1)
    vector_rate(4, 0.1, "race")
    print(f"{'environment':46} {'steps/s':>10}")
    for name, rate in rows:
        print(f"{name:46} {rate():>10,.0f}")


if __name__ == "__main__":
    main()
