"""A short learning demonstration: tabular Q-learning on ten-turn solo (``hotdice/Solo-v0``), then its exact
regret against optimal play, measured by the oracle.

Run: ``python bench/learn_solo.py [--seconds 120] [--games 1000]``

The learner sees only the observation and the action mask: its state is the phase, the dice in hand, the
turn total (in steps of 50, capped at 2000), hot dice and the roll on the table. Each turn is an episode of
its own (the turns of solo do not interact). Training is epsilon-greedy for ``--seconds``; then ``--games``
games are played greedily with ``oracle=True``, and each decision's regret (the best action's expected
points of the turn less the chosen action's) is summed per game: the expected points lost per game.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict

import gymnasium
import numpy as np

import hotdice.env  # noqa: F401 (registers the Gymnasium environments)
from hotdice.env.table import observation_fields
from hotdice.game.rules import Rules

FIELDS = {name: i for i, name in enumerate(observation_fields(Rules.parse("farkle"), 1))}
ROLL = [FIELDS[f"roll[{i}]"] for i in range(6)]


def state(obs: np.ndarray) -> tuple[int, ...]:
    total = min(int(obs[FIELDS["turn_total"]]), 2000) // 50
    return (int(obs[FIELDS["phase"]]), int(obs[FIELDS["dice_in_hand"]]), total, int(obs[FIELDS["hot_dice"]]),
            *(int(obs[i]) for i in ROLL))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    q: defaultdict[tuple[int, ...], dict[int, float]] = defaultdict(dict)
    rng = random.Random(0)

    def best(s: tuple[int, ...], legal: np.ndarray) -> int:
        values = q[s]
        return max(legal.tolist(), key=lambda a: (values.get(a, 600.0), -a))  # optimistic: untried first

    env = gymnasium.make("hotdice/Solo-v0", rules="farkle")
    obs, _ = env.reset(seed=0)
    steps, start, epsilon, alpha = 0, time.perf_counter(), 0.1, 0.1
    while time.perf_counter() - start < args.seconds:
        s, legal = state(obs["observation"]), np.flatnonzero(obs["action_mask"])
        action = rng.choice(legal.tolist()) if rng.random() < epsilon else best(s, legal)
        turns = obs["observation"][FIELDS["turns_played[0]"]]
        obs, reward, done, _, _ = env.step(action)
        steps += 1
        target = float(reward)
        if not done and obs["observation"][FIELDS["turns_played[0]"]] == turns:  # the turn goes on
            s2 = state(obs["observation"])
            target += max(q[s2].get(a, 600.0) for a in np.flatnonzero(obs["action_mask"]).tolist())
        old = q[s].get(action, 600.0)
        q[s][action] = old + alpha * (target - old)
        if done:
            obs, _ = env.reset()
    print(f"trained {time.perf_counter() - start:.0f} s: {steps:,} steps, {len(q):,} states")

    env = gymnasium.make("hotdice/Solo-v0", rules="farkle", oracle=True)
    lost, scores = [], []
    obs, info = env.reset(seed=1)
    for _ in range(args.games):
        regret, score, done = 0.0, 0.0, False
        while not done:
            action = best(state(obs["observation"]), np.flatnonzero(obs["action_mask"]))
            values = info["action_values"]
            regret += max(values.values()) - values[action]
            obs, reward, done, _, info = env.step(action)
            score += float(reward)
        lost.append(regret)
        scores.append(score)
        obs, info = env.reset()
    mean = sum(lost) / len(lost)
    sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (len(lost) - 1))
    optimal = 10 * env.unwrapped.table.oracle().values[0]  # type: ignore[attr-defined]
    print(f"regret over {args.games} games: {mean:.1f} ± {1.96 * sd / math.sqrt(len(lost)):.1f} points lost per game "
          f"(optimal play expects {optimal:.1f}; the learner scored {sum(scores) / len(scores):.1f} on average)")


if __name__ == "__main__":
    main()
