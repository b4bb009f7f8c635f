"""The environments pass their projects' own test suites (PettingZoo's api, seed and render tests,
Gymnasium's check_env), reset(seed=) replays to the die, and the action encoding is one action per set-aside."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import hotdice.env  # noqa: F401 (registers the Gymnasium environments)
from hotdice.env import farkle_v0
from hotdice.env.table import BANK_ACTION, ROLL_ACTION, Table, observation_fields, set_aside_action
from hotdice.game.scoring import SetAside


@pytest.mark.parametrize(("rules", "players"), [("farkle", 2), ("5000", 3), ("5000-fr", 2), ("5000-fr-6", 8)])
def test_the_aec_environment_passes_pettingzoos_api_test(rules: str, players: int) -> None:
    api_test(farkle_v0.env(rules=rules, players=players), num_cycles=300)


def test_the_aec_environment_passes_the_seed_and_render_tests() -> None:
    seed_test(lambda **kw: farkle_v0.env(rules="farkle", players=3, **kw), num_cycles=200)
    render_test(lambda render_mode=None: farkle_v0.env(render_mode=render_mode))


def test_the_raw_environment_is_pettingzoos_unwrapped_one() -> None:
    raw = farkle_v0.raw_env(rules="5000", players=4)
    raw.reset(seed=3)
    assert raw.agents == [f"player_{k}" for k in range(4)] and raw.agent_selection == "player_0"
    assert raw.action_space("player_2").n == 2**5 + 1


@pytest.mark.parametrize(("name", "kwargs"), [
    ("hotdice/Solo-v0", {"rules": "farkle"}),
    ("hotdice/Solo-v0", {"rules": "5000", "mode": "race"}),
    ("hotdice/Versus-v0", {"rules": "farkle", "opponent": "hard"}),
    ("hotdice/Versus-v0", {"rules": "5000-fr", "opponent": "easy", "oracle": True}),
])
def test_the_gymnasium_environments_pass_check_env(name: str, kwargs: dict[str, object]) -> None:
    check_env(gymnasium.make(name, **kwargs).unwrapped, skip_render_check=False)


def play_out(env: gymnasium.Env, seed: int) -> tuple[list[str], float]:  # type: ignore[type-arg]
    """A whole episode, always the last legal action (bank where allowed): the positions seen and the return."""
    obs, _ = env.reset(seed=seed)
    seen, total, over = [], 0.0, False
    while not over:
        seen.append(env.render())
        obs, reward, over, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        total += float(reward)
    return seen, total


def test_a_seed_replays_the_game_to_the_die() -> None:
    env = gymnasium.make("hotdice/Solo-v0", rules="farkle", render_mode="ansi")
    first = play_out(env, 7)
    assert play_out(env, 7) == first and play_out(env, 8) != first


def test_ten_turns_solo_pays_the_points_banked_and_the_race_minus_one_a_turn() -> None:
    env = gymnasium.make("hotdice/Solo-v0", rules="farkle").unwrapped
    _, total = play_out(env, 1)
    game = env.table.game  # type: ignore[attr-defined]
    assert game.turns_played == (10,) and total == game.scores[0]
    race = gymnasium.make("hotdice/Solo-v0", rules="5000", mode="race").unwrapped
    _, total = play_out(race, 1)
    assert total == -race.table.game.turns_played[0] < 0  # type: ignore[attr-defined]


def test_versus_pays_plus_or_minus_one_at_the_end() -> None:
    env = gymnasium.make("hotdice/Versus-v0", rules="5000", opponent="greedy").unwrapped
    _, total = play_out(env, 4)
    outcome = env.table.game.outcome  # type: ignore[attr-defined]
    assert total == (1.0 if outcome.winners == (0,) else -1.0 if 0 not in outcome.winners else 0.0)


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    env = gymnasium.make("hotdice/Solo-v0", rules="farkle").unwrapped
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"][BANK_ACTION] == 0  # nothing to bank before the first roll
    _, reward, terminated, _, info = env.step(BANK_ACTION)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})


def test_each_set_aside_has_one_action_and_the_mask_is_the_engines() -> None:
    table = Table("farkle", "solo")
    table.reset(5)
    table.act(ROLL_ACTION)
    while table.game.phase.value != "set-aside":
        table.reset(table.game.turn + 6)
        table.act(ROLL_ACTION)
    legal = table.legal()
    assert sorted(map(str, legal.values())) == sorted(map(str, table.game.legal_actions()))
    assert set(np.flatnonzero(table.mask())) == set(legal)
    for index, action in legal.items():
        roll = table.sorted_roll()
        assert SetAside(*(roll[i] for i in range(6) if (index - 1) >> i & 1)) == action


def test_equal_faces_take_the_leftmost_dice() -> None:
    assert set_aside_action((1, 1, 5), SetAside(1)) == 1 + 0b001
    assert set_aside_action((1, 1, 5), SetAside(1, 5)) == 1 + 0b101


def test_the_observation_is_documented_field_by_field() -> None:
    env = farkle_v0.raw_env(rules="farkle", players=3)
    env.reset(seed=1)
    fields = observation_fields(env.table.rules, 3)
    obs = env.observe("player_1")["observation"]
    assert len(fields) == len(obs) == env.observation_space("player_1")["observation"].shape[0]
    named = dict(zip(fields, obs.tolist(), strict=True))
    assert named["to_act"] == 2 and named["dice_in_hand"] == 6 and named["turns_left"] == -1  # player_0 acts
    assert not env.observe("player_1")["action_mask"].any() and env.observe("player_0")["action_mask"][ROLL_ACTION]


@pytest.mark.slow
def test_the_default_install_needs_no_environment_package() -> None:
    """The front ends and the library import without gymnasium, pettingzoo or pyspiel (the [env] extra)."""
    import subprocess
    import sys

    code = ("import sys; import hotdice.cli, hotdice.web.app, hotdice.tui.app, hotdice.play.players.skilled; "
            "assert not {'gymnasium', 'pettingzoo', 'pyspiel'} & set(sys.modules), sorted(sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False).returncode == 0
