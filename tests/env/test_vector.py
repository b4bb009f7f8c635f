"""The vector solo (ten turns, and the race) plays the very games of ``hotdice/Solo-v0``: N plain environments
stepped by Gymnasium's own ``SyncVectorEnv`` (each through the engine), seeded alike, see the same observations,
masks, rewards, terminations and autoresets, step by step, under random legal (and some illegal) actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import hotdice.env  # noqa: F401 (registers the Gymnasium environments)
from hotdice.env.one_player import SoloEnv
from hotdice.env.vector import SoloVectorEnv


def same(vec: dict[str, np.ndarray], sync: dict[str, np.ndarray]) -> None:
    np.testing.assert_array_equal(vec["observation"], sync["observation"])
    np.testing.assert_array_equal(vec["action_mask"], sync["action_mask"])


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "mode", "steps"), [
    ("farkle", "ten-turns", 1500),
    ("5000", "ten-turns", 600),  # five dice, an entry below which a bank is lost, hot dice must be rolled
    ("5000-fr", "ten-turns", 600),  # an exact target, set_aside=all, five 1s win (lifted in ten turns)
    ("5000-fr-6", "ten-turns", 600),  # validation of triples, a minimum bank
    ("5000-fr,three_farkles=500,rule_4900=yes", "ten-turns", 800),  # a penalty read at the score; the 4900 rule lifted
    ("farkle,target=2000", "race", 1500),  # the race: the target in reach, -1 a turn
    ("5000-fr,target=1500,three_farkles=500,rule_4900=yes", "race", 1500),  # exact target: busts; the 4900 rule
    ("5000-fr-6,target=2000", "race", 1000),  # end=first
])
def test_the_vector_env_plays_the_plain_envs_games(rules: str, mode: str, steps: int) -> None:
    n = 8
    vec = gymnasium.make_vec("hotdice/Solo-v0", num_envs=n, vectorization_mode="vector_entry_point", rules=rules,
                             mode=mode)
    assert isinstance(vec, SoloVectorEnv)
    sync = gymnasium.vector.SyncVectorEnv([lambda: SoloEnv(rules, mode)] * n)
    obs_v, _ = vec.reset(seed=11)
    obs_s, _ = sync.reset(seed=11)
    same(obs_v, obs_s)
    rng = np.random.default_rng(5)
    ended = penalties = illegal = 0
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs_s["action_mask"]])
        wrong = rng.random(n) < 0.002  # now and then an action outside the mask
        actions[wrong] = [int(np.flatnonzero(m == 0)[0]) for m in obs_s["action_mask"][wrong]]
        obs_v, rew_v, term_v, trunc_v, info_v = vec.step(actions)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(actions)
        same(obs_v, obs_s)
        np.testing.assert_array_equal(rew_v, rew_s)
        np.testing.assert_array_equal(term_v, term_s)
        np.testing.assert_array_equal(trunc_v, trunc_s)
        np.testing.assert_array_equal(info_v.get("illegal_action", np.zeros(n, bool)),
                                      info_s.get("illegal_action", np.zeros(n, bool)))
        ended += int(term_s.sum())
        penalties += int((rew_s < 0).sum())
        illegal += int(info_s.get("illegal_action", np.zeros(n, bool)).sum())
    assert ended > 10 and illegal > 0
    if "three_farkles" in rules and mode == "ten-turns":
        assert penalties > illegal  # three farkles in a row were penalized, and the vector env took the same points


def test_a_seed_replays_the_vector_games_and_seeds_differ() -> None:
    def run(seed: int) -> np.ndarray:
        env = SoloVectorEnv(4, "farkle")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(100):
            obs, *_ = env.step([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
            seen.append(obs["observation"])
        return np.stack(seen)

    assert np.array_equal(run(3), run(3)) and not np.array_equal(run(3), run(4))


def test_the_oracle_falls_back_to_the_plain_envs() -> None:
    env = gymnasium.make_vec("hotdice/Solo-v0", num_envs=2, rules="5000", oracle=True)
    assert isinstance(env, gymnasium.vector.SyncVectorEnv)
    with pytest.raises(ValueError, match="oracle"):
        SoloVectorEnv(2, "farkle", oracle=True)


def test_the_vector_env_passes_gymnasiums_space_checks() -> None:
    env = SoloVectorEnv(16, "5000")
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    for _ in range(50):
        obs, reward, *_ = env.step(env.action_space.sample())
        assert obs in env.observation_space and reward.shape == (16,)


def test_gymnasiums_vector_wrappers_see_the_score_as_the_return() -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(SoloVectorEnv(8, "farkle"))
    obs, _ = env.reset(seed=2)
    returns: list[float] = []
    while len(returns) < 8:
        obs, _, terminated, _, info = env.step([np.flatnonzero(m)[-1] if m.any() else 0 for m in obs["action_mask"]])
        for g in np.flatnonzero(terminated):
            assert info["episode"]["r"][g] == obs["observation"][g, 0] and obs["observation"][g, 4] == -1
            assert info["episode"]["l"][g] > 10  # ten turns, banking whenever allowed
            returns.append(float(info["episode"]["r"][g]))
    assert max(returns) > 0
