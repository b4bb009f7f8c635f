"""The OpenSpiel game passes OpenSpiel's own random simulation test with serialization, and its chance
nodes are the engine's rolls with their exact probabilities."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import hotdice.env.openspiel  # noqa: E402,F401 (registers the game)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players"), [("farkle/target:1500", 2), ("5000-fr/target:1000", 3),
                                                ("5000-fr-6/target:1000", 2)])
def test_random_simulations_with_serialization_pass(rules: str, players: int) -> None:
    game = pyspiel.load_game("python_hotdice_farkle", {"rules": rules, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
def test_random_simulations_of_the_whole_game_pass() -> None:
    game = pyspiel.load_game("python_hotdice_farkle", {"rules": "farkle", "players": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_roll_is_a_chance_node_with_the_engines_probabilities() -> None:
    game = pyspiel.load_game("python_hotdice_farkle", {"rules": "5000/", "players": 2})
    assert str(game) == "python_hotdice_farkle(players=2,rules=5000/)" and str(game.rules) == "5000"
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0]  # roll first
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 252 and sum(p for _, p in outcomes) == pytest.approx(1.0)  # C(10, 5) rolls of five dice
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(copy) == str(state) and copy.history() == state.history()


def test_a_win_pays_one_a_loss_minus_one_a_tie_of_two_nothing() -> None:
    game = pyspiel.load_game("python_hotdice_farkle", {"rules": "5000/target:1000", "players": 2})
    rng = random.Random(3)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
