"""The oracle's values are checked against computations that do not use them:

- one step of the Bellman equation through the engine: the value of rolling is the average, over every roll
  the engine lists with its exact probability, of the best value the roll leaves (the player's own best
  action, or one minus the opponent's best once the turn has passed); the value of banking is one minus the
  opponent's best at the start of its turn;
- a Monte Carlo of whole turns played by the oracle's best action, whose mean points must meet the value of
  the first roll.
"""

from __future__ import annotations

import math
from fractions import Fraction

import gymnasium
import pytest

import hotdice.env  # noqa: F401 (registers the Gymnasium environments)
from hotdice.env import farkle_v0
from hotdice.env.table import BANK_ACTION, ROLL_ACTION, Table
from hotdice.game.engine import ROLL, Game
from hotdice.game.position import position
from hotdice.game.rules import Rules
from hotdice.play.modes import ten_turn_rules


def table_at(mode: str, game: Game) -> Table:
    table = Table(game.rules, mode, len(game.players))
    table.reset(0)
    assert table.setup is not None
    table.setup.game = game
    return table


def value_for(table: Table, seat: int, measure: str, turn: int) -> float:
    """What the position is worth to ``seat``: its best action, or one minus the best of the opponent to act
    (win measure); once ``turn`` is over, no more points (points measure)."""
    game = table.game
    if measure == "points" and game.turn != turn:
        return 0.0
    if game.is_over:
        assert game.outcome is not None
        return 1 / len(game.outcome.winners) if seat in game.outcome.winners else 0.0
    oracle = table.oracle()
    assert oracle is not None and oracle.values is not None and oracle.measure == measure
    best = max(oracle.values.values())
    return best if game.to_act == seat else 1.0 - best


def rolled_value(table: Table, measure: str) -> float:
    """The average over the engine's rolls of what each leaves to the player who rolls."""
    game = table.game
    seat = game.to_act
    assert isinstance(seat, int)
    rolling = game.clone()
    rolling.apply(ROLL)
    total = 0.0
    weight = Fraction(0)
    for dice, p in rolling.chance_outcomes():
        after = rolling.clone()
        after.apply_roll(dice)
        total += float(p) * value_for(table_at(table.mode, after), seat, measure, game.turn)
        weight += p
    assert weight == 1
    return total


@pytest.mark.parametrize(("scores", "turn_total", "dice"), [((0, 0), 0, 6), ((4000, 6500), 0, 6),
                                                            ((9000, 8000), 450, 2), ((3000, 3000), 300, 3)])
def test_rolling_is_worth_the_average_of_what_the_rolls_leave_win_measure(scores: tuple[int, int], turn_total: int,
                                                                           dice: int) -> None:
    table = table_at("together", position(farkle_v0.raw_env().table.rules, scores, turn_total=turn_total,
                                          dice_in_hand=dice))
    oracle = table.oracle()
    assert oracle is not None and oracle.values is not None and oracle.measure == "win" and oracle.exact
    assert oracle.values[ROLL_ACTION] == pytest.approx(rolled_value(table, "win"), abs=2e-5)
    if BANK_ACTION in oracle.values:
        banked = table.game.clone()
        banked.apply("bank")
        after = value_for(table_at("together", banked), 0, "win", banked.turn)
        assert oracle.values[BANK_ACTION] == pytest.approx(after, abs=2e-5)


@pytest.mark.parametrize(("turn_total", "dice"), [(0, 6), (350, 2), (1000, 1), (200, 4)])
def test_rolling_is_worth_the_average_of_what_the_rolls_leave_points_measure(turn_total: int, dice: int) -> None:
    rules = ten_turn_rules(Rules.parse("farkle"))
    fields = position(rules, [0], turn_total=turn_total, dice_in_hand=dice).position().split()
    fields[6] += "/10"  # the clock of a ten-turn game
    game = Game.from_position(rules, " ".join(fields), ("player_0",))
    table = table_at("solo", game)
    oracle = table.oracle()
    assert oracle is not None and oracle.values is not None and oracle.measure == "points"
    assert oracle.values[ROLL_ACTION] == pytest.approx(rolled_value(table, "points"), rel=1e-9)
    if BANK_ACTION in oracle.values:
        assert oracle.values[BANK_ACTION] == turn_total


@pytest.mark.slow
def test_turns_played_by_the_oracle_score_what_it_promised() -> None:
    """Monte Carlo: the mean points of turns played by the best action meet the first roll's value."""
    env = gymnasium.make("hotdice/Solo-v0", rules="farkle", oracle=True).unwrapped
    _, info = env.reset(seed=11)
    promised = info["action_values"][ROLL_ACTION]
    points: list[float] = []
    while len(points) < 12_000:
        if env.table.game.is_over:  # type: ignore[attr-defined]
            _, info = env.reset()
        turn, over = 0.0, False
        turns = env.table.game.turns_played[0]  # type: ignore[attr-defined]
        while not over and env.table.game.turns_played[0] == turns:  # type: ignore[attr-defined]
            values = info["action_values"]
            _, reward, over, _, info = env.step(max(values, key=values.get))
            turn += float(reward)
        points.append(turn)
    mean = sum(points) / len(points)
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))
    assert abs(mean - promised) < 4 * sd / math.sqrt(len(points)), (mean, promised, sd)


def test_a_table_not_at_hand_is_told_in_info_without_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    from hotdice.analysis.solver.background import SOLVER, Status
    monkeypatch.setattr(SOLVER, "request", lambda kind, rules: Status("solving", 0.25))
    env = farkle_v0.raw_env(rules="farkle,target=3000", players=2, oracle=True)
    env.reset(seed=1)
    info = env.infos["player_0"]
    assert "action_values" not in info
    assert info["oracle"] == {"measure": "win", "exact": True,
                              "table": {"state": "solving", "progress": 0.25, "reason": None}}


def test_the_acting_agent_gets_the_values_of_exactly_its_legal_actions() -> None:
    env = farkle_v0.env(rules="5000", players=3, oracle=True)
    env.reset(seed=2)
    for _agent in env.agent_iter(200):
        obs, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            continue
        legal = {i for i, m in enumerate(obs["action_mask"]) if m}
        assert set(info["action_values"]) == legal and info["oracle"]["exact"] is False
        values = info["action_values"]
        env.step(max(values, key=values.get))
