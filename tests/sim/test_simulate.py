"""Simulations: the Wilson interval against hand-worked values, the accounting against games replayed by
hand from the documented seeding, greedy against random, and the ``hotdice simulate`` command."""

from __future__ import annotations

import functools
import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.rules import Rules
from hotdice.play.players import make_player, play_game
from hotdice.sim.simulate import Z95, SimulationError, simulate, wilson_interval

ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


@functools.cache
def hotdice(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=ENV, timeout=60, check=False
    )


# -- the confidence interval ----------------------------------------------------------------------


@pytest.mark.slow
def test_wilson_interval_matches_a_hand_worked_value() -> None:
    # 8 wins in 10 games, z = 1.96: z² = 3.8416, p = 0.8, 1 + z²/n = 1.38416;
    # centre = (0.8 + 0.19208) / 1.38416 = 0.716738...; half = (1.96 / 1.38416) * sqrt(0.016 + 0.009604)
    # = 1.416021... * 0.160012... = 0.226581...; so [0.490157, 0.943319] (Wilson 1927; Newcombe 1998, method 3).
    low, high = wilson_interval(8, 10, z=1.96)
    assert low == pytest.approx(0.490157, abs=1e-6)
    assert high == pytest.approx(0.943319, abs=1e-6)
    # No win in 20 games: the interval is [0, z² / (n + z²)] = [0, 3.8416 / 23.8416].
    assert wilson_interval(0, 20, z=1.96) == pytest.approx((0.0, 3.8416 / 23.8416))
    assert NormalDist().inv_cdf(0.975) == pytest.approx(Z95, rel=1e-12)


@given(games=st.integers(1, 10_000), share=st.fractions(0, 1))
def test_wilson_interval_holds_the_rate_and_is_symmetric(games: int, share: Fraction) -> None:
    wins = float(share * games)
    low, high = wilson_interval(wins, games)
    assert 0.0 <= low <= wins / games + 1e-12 and wins / games - 1e-12 <= high <= 1.0
    # Losses see the mirror interval of wins.
    mirror = wilson_interval(games - wins, games)
    assert mirror[0] == pytest.approx(1 - high, abs=1e-9) and mirror[1] == pytest.approx(1 - low, abs=1e-9)


def test_wilson_interval_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    p, games, trials = 0.3, 200, 2000
    covered = 0
    for _ in range(trials):
        wins = sum(rng.random() < p for _ in range(games))
        low, high = wilson_interval(wins, games)
        covered += low <= p <= high
    assert 0.93 <= covered / trials <= 0.97


# -- the accounting --------------------------------------------------------------------------------


def replay(rules: Rules, specs: list[str], games: int, seed: str) -> tuple[list[Fraction], list[int], list[int]]:
    """Wins, scores and turns per player, playing the games as the module docstring says they are played."""
    n = len(specs)
    wins, scores, turns = [Fraction(0)] * n, [0] * n, [0] * n
    for i in range(games):
        order = [(i + s) % n for s in range(n)]
        game = Game(rules, players=tuple(specs[p] for p in order))
        players = [make_player(specs[p], random.Random(f"{seed}/game/{i}/player/{p}")) for p in order]
        outcome = play_game(game, players, SeededDice(f"{seed}/game/{i}"))
        for s in outcome.winners:
            wins[order[s]] += Fraction(1, len(outcome.winners))
        for s, p in enumerate(order):
            scores[p] += game.scores[s]
            turns[p] += game.turns_played[s]
    return wins, scores, turns


def test_a_simulation_is_the_games_played_one_by_one_with_seats_rotating() -> None:
    rules = Rules.parse("5000")
    specs = ["greedy", "random", "greedy:600"]
    report = simulate(rules, specs, 30, "rot")
    wins, scores, turns = replay(rules, specs, 30, "rot")
    assert [p.spec for p in report.players] == specs
    assert [p.wins for p in report.players] == wins
    assert [p.mean_score for p in report.players] == [s / 30 for s in scores]
    assert [p.mean_turns for p in report.players] == [t / 30 for t in turns]
    assert sum(report.seat_wins) == 30 == sum(report.endings.values())


def test_shared_wins_count_one_over_k() -> None:
    # Target 50: the first player banks the best of their first scoring roll, the other gets one more
    # turn and banks theirs; equal scores share the win, which happens often.
    rules = Rules.parse("farkle,target=50")
    shared = 0
    for seed in range(30):
        data = simulate(rules, ["greedy:0", "greedy:0"], 1, f"tie{seed}").to_json()
        scores = [p["mean_score"] for p in data["players"]]  # one game: the final scores
        wins = [p["wins"] for p in data["players"]]
        if scores[0] == scores[1]:
            shared += 1
            assert wins == [0.5, 0.5]
        else:
            assert wins == [float(scores[0] > scores[1]), float(scores[1] > scores[0])]
    assert shared
    three = simulate(rules, ["greedy:0"] * 3, 60, "three")
    assert sum(three.seat_wins) == 60 == sum(p.wins for p in three.players)


@pytest.mark.slow
def test_greedy_beats_random_by_a_wide_margin() -> None:
    report = simulate(Rules.parse("farkle"), ["greedy", "random"], 2000, "greedy-vs-random")
    greedy, rand = report.players
    low, high = greedy.ci95
    assert low > 0.8, (low, high)
    assert greedy.mean_score > rand.mean_score
    assert report.to_json()["players"][0]["ci95"] == [round(low, 6), round(high, 6)]


def test_identical_players_win_half_the_games_whoever_starts() -> None:
    report = simulate(Rules.parse("5000-fr-6"), ["greedy", "greedy"], 400, "mirror")
    for p in report.players:
        low, high = p.ci95
        assert low < 0.5 < high


@pytest.mark.parametrize(
    ("specs", "games", "said"),
    [
        (["greedy", "nobody"], 10, "unknown player 'nobody'"),
        (["greedy"], 0, "--games must be at least 1, not 0"),
        (["greedy"] * 9, 10, "a game has 1 to 8 players, not 9"),
        ([], 10, "a game has 1 to 8 players, not 0"),
    ],
)
def test_bad_simulations_are_refused_before_playing(specs: list[str], games: int, said: str) -> None:
    with pytest.raises(SimulationError, match=said):
        simulate(Rules.parse("farkle"), specs, games, "x")


# -- the command -----------------------------------------------------------------------------------

BAD_INPUTS = [
    (("-p", "greedy,nobody"), "unknown player 'nobody'; players are: random, greedy"),
    (("-p", "greedy", "-n", "0"), "--games must be at least 1, not 0"),
    (("-p", "greedy", "-n", "-3"), "--games must be at least 1, not -3"),
    (("-p", ",".join(["random"] * 9)), "a game has 1 to 8 players, not 9"),
    (("-p", ""), "a player spec is empty"),
    (("-p", "greedy", "--rules", "farkle,entry=-5"), "bad rules: entry=-5"),
    (("-p", "greedy", "--rules", "chess"), "bad rules: unknown preset 'chess'"),
    (("-p", "greedy:fast"), "bank threshold must be a whole number"),
    ((), "Missing option '--players'"),
]


@pytest.fixture(scope="module", autouse=True)
def _run_the_bad_inputs_in_parallel() -> None:
    """Start the quick failing calls one per core before the tests read them from the cache."""
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        list(pool.map(lambda args: hotdice("simulate", *args), [args for args, _ in BAD_INPUTS]))


@pytest.mark.slow
def test_same_seed_same_output_byte_for_byte() -> None:
    args = ("simulate", "--rules", "5000-fr", "--players", "greedy,random,greedy:500", "--games", "40")
    first = hotdice(*args, "--seed", "42", "--json")
    again = hotdice(*args, "--seed", "42", "--json")
    other = hotdice(*args, "--seed", "43", "--json")
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout
    data = json.loads(first.stdout)
    assert set(data) == {"rules", "seed", "games", "players", "seats", "endings"}
    assert data["rules"] == "5000-fr" and data["seed"] == "42" and data["games"] == 40
    assert [p["spec"] for p in data["players"]] == ["greedy", "random", "greedy:500"]
    assert set(data["players"][0]) == {"player", "spec", "wins", "win_rate", "ci95", "mean_score", "mean_turns"}
    assert math.isclose(sum(p["win_rate"] for p in data["players"]), 1.0, abs_tol=1e-5)
    assert set(data["endings"]) <= {"exact", "five-ones"}
    # The same games through the library.
    lib = simulate(Rules.parse("5000-fr"), ["greedy", "random", "greedy:500"], 40, "42").to_json()
    assert json.loads(json.dumps(lib)) == data


def test_table_output_names_the_seed_and_every_player() -> None:
    run = hotdice("simulate", "-p", "greedy,random", "-n", "20", "--seed", "7")
    assert run.returncode == 0 and run.stderr == ""  # no progress bar when stderr is not a terminal
    assert "20 games of farkle, seed 7" in run.stdout
    assert "1. greedy" in run.stdout and "2. random" in run.stdout
    assert run.stdout == hotdice("simulate", "-p", "greedy,random", "-n", "20", "--seed", "7").stdout


@pytest.mark.parametrize(("args", "said"), BAD_INPUTS)
def test_simulate_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], said: str) -> None:
    run = hotdice("simulate", *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("hotdice: error: "), run.stderr
    assert said in run.stderr
