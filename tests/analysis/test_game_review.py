"""The game review: the per-player identity end - start = luck - skill_lost over random games of every measure,
each roll's value of rolling against the mean over the engine's own chance outcomes (an exact enumeration the
review does not use), losses against the coach's ``advise`` for the same position, Hard's games scoring 100,
and the value of a game's start against Monte Carlo play."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hotdice.analysis.coach import advise
from hotdice.analysis.game_review import THRESHOLDS, GameReview, game_review, label_of, values_at
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game, Roll
from hotdice.game.record import record_of
from hotdice.game.rules import Rules
from hotdice.play.players import make_player, play_game

# (rules, players, turn limit): two players (win), the ten-turn solo (points), the race (turns), three players.
SETUPS = [
    ("farkle", ("medium", "hard"), None),
    ("5000", ("easy", "medium"), None),
    ("5000-fr", ("greedy:400", "easy"), None),
    ("5000-fr-6", ("random", "medium"), None),
    ("farkle,entry=500", ("easy", "greedy:300"), None),
    ("farkle", ("easy",), 10),
    ("5000", ("random",), 10),
    ("farkle", ("medium",), None),
    ("5000-fr", ("easy",), None),
    ("farkle", ("easy", "medium", "greedy:500"), None),
]


def played(text: str, specs: tuple[str, ...], limit: int | None, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(Rules.parse(text), specs, turn_limit=limit)
    play_game(game, [make_player(s, rng) for s in specs], SeededDice(seed.to_bytes(4, "big")))
    return game


def assert_identity(review: GameReview, tol: float = 1e-9) -> None:
    sign = -1 if review.measure == "turns" else 1
    for p in review.players:
        assert sign * (p.end - p.start) == pytest.approx(p.luck - p.skill_lost, abs=tol)
        assert p.skill_lost >= 0


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.integers(0, 2**31))
def test_identity_per_player_over_random_games(setup: tuple[str, tuple[str, ...], int | None], seed: int) -> None:
    text, specs, limit = setup
    game = played(text, specs, limit, seed)
    review = game_review(record_of(game))
    assert review.finished
    assert_identity(review)
    # The JSON's rounded figures keep it to rounding, and read back as JSON.
    data = json.loads(json.dumps(review.as_json()))
    sign = -1 if data["measure"] == "turns" else 1
    for p in data["players"]:
        assert sign * (p["end"] - p["start"]) == pytest.approx(p["luck"] - p["skill_lost"], abs=1e-5)
    # Every step starts where the one before ended, per seat; a decision moves its seat by minus its loss.
    values = review.start
    for step in review.steps:
        assert step.before == pytest.approx(values[step.seat], abs=1e-12)
        if step.kind == "decision":
            assert step.loss is not None and step.label == label_of(step.loss, review.measure)
            assert sign * (step.after - step.before) == pytest.approx(-step.loss, abs=1e-9)
            if not review.approximate:  # the value before a decision is its best choice's
                assert step.before == pytest.approx(step.choices[0].value, abs=1e-9)
        values = step.values
    won = game.outcome
    assert won is not None
    if review.measure == "win":
        assert review.players[won.winners[0]].end == pytest.approx(1 / len(won.winners))
        assert sum(p.start for p in review.players) == pytest.approx(1)
    elif review.measure == "points":
        assert [p.end for p in review.players] == list(game.scores)
    else:
        assert review.players[0].end == game.turns_played[0]


@pytest.mark.parametrize(("text", "specs", "limit"), [s for s in SETUPS if len(s[1]) < 3])
def test_value_of_rolling_is_the_mean_over_the_rolls(text: str, specs: tuple[str, ...], limit: int | None) -> None:
    """Brute force: the value a roll starts from is the exact mean, over every outcome the engine lists with its
    probability, of the value the roll leaves (the review's graph values), for every seat."""
    game = played(text, specs, limit, 7)
    review = game_review(game)
    rolls = [s for s in review.steps if s.kind == "roll"]
    at = [i for i, s in enumerate(game.history) if isinstance(s.move, Roll)]
    assert len(rolls) == len(at)
    picked = random.Random(1).sample(range(len(at)), min(6, len(at)))
    for k in picked:
        node = game.root()
        for s in game.history[: at[k]]:
            node.apply_roll(s.move.dice) if isinstance(s.move, Roll) else node.apply(s.move)
        mean = [Fraction(0)] * len(game.players)
        for dice, prob in node.chance_outcomes():
            after = node.clone()
            after.apply_roll(dice)
            for p, v in enumerate(values_at(after, review.measure)):
                mean[p] += prob * Fraction(v)
        before = review.start if k == 0 else _values_before(review, rolls[k])
        # The shipped tables are float32: a mean of values read from them agrees to 1e-6.
        assert [float(m) for m in mean] == pytest.approx(list(before), abs=1e-6)


def _values_before(review: GameReview, step: object) -> tuple[float, ...]:
    i = review.steps.index(step)  # type: ignore[arg-type]
    return review.steps[i - 1].values if i else review.start


def test_a_blunder_is_labelled_with_the_loss_advise_gives() -> None:
    """At 0-0 in farkle, with 1 1 1 1 5 5 rolled (2300 points on all six dice), setting aside one 5 and
    banking it throws away a hot-dice turn: a blunder, with the loss advise's table gives that choice."""
    game = Game(Rules.parse("farkle"), ("you", "them"))
    game.apply("roll")
    game.apply_roll((1, 1, 1, 1, 5, 5))
    cost = next(c for c in advise(game).choices if str(c.decision) == "set aside 5, then roll")
    after_five = game.clone()
    after_five.apply("keep 5")
    bank = next(c for c in advise(after_five).choices if str(c.decision) == "bank")
    game.apply_decision("set aside 5, then bank")
    review = game_review(game)
    step = next(s for s in review.steps if s.kind == "decision")
    assert step.played == "set aside 5, then bank"
    assert step.loss == pytest.approx(cost.cost + bank.cost, abs=1e-12)
    assert step.label == "blunder" and step.loss >= THRESHOLDS["win"].blunder
    assert review.players[0].labels["blunder"] == 1
    assert step.choices[0].decision == step.best


@pytest.mark.parametrize(("text", "specs", "limit"), [
    ("farkle", ("hard", "hard"), None), ("5000-fr", ("hard", "easy"), None), ("farkle", ("hard",), 10),
    ("5000", ("hard",), None)])
def test_hard_scores_100_without_a_mistake(text: str, specs: tuple[str, ...], limit: int | None) -> None:
    for seed in range(3):
        review = game_review(played(text, specs, limit, seed))
        hard = review.players[0]
        assert hard.accuracy == pytest.approx(100.0, abs=1e-6) and hard.skill_lost == pytest.approx(0, abs=1e-9)
        assert hard.labels == {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        assert round(review.as_json()["players"][0]["accuracy"], 1) == 100.0


@pytest.mark.slow
def test_start_value_against_monte_carlo() -> None:
    """The review's start (seat 0's chance to win, exact) against the win rate of Hard against Hard over
    2,000 games on a small target; and a three-turn solo's expected final points against Hard's mean."""
    rules = "farkle,target=1500"
    start = game_review(played(rules, ("hard", "hard"), None, 0)).players[0].start
    games = 2000
    wins = 0.0
    for seed in range(games):
        game = played(rules, ("hard", "hard"), None, 10_000 + seed)
        assert game.outcome is not None
        wins += 1 / len(game.outcome.winners) if 0 in game.outcome.winners else 0
    se = (start * (1 - start) / games) ** 0.5
    assert abs(wins / games - start) < 4 * se
    solo = [played("farkle", ("hard",), 3, 50_000 + seed) for seed in range(3000)]
    expected = game_review(solo[0]).players[0].start
    mean = sum(g.scores[0] for g in solo) / len(solo)
    spread = (sum((g.scores[0] - mean) ** 2 for g in solo) / len(solo)) ** 0.5
    assert abs(mean - expected) < 4 * spread / len(solo) ** 0.5


def test_mistakes_become_exercises_checked_against_the_exact_values() -> None:
    """Learn from your mistakes: each mistake or blunder of a seat, played again from its position: the best choice
    scores no loss, the choice the player made the loss the review gave it; the position reads back into a game
    whose own advice has the same best play."""
    from hotdice.analysis.game_review import exercises

    game = played("farkle", ("easy", "hard"), None, 11)
    review = game_review(game)
    found = exercises(review, [0])
    assert found and all(e.label in ("mistake", "blunder") and e.seat == 0 for e in found)
    assert exercises(review, [1]) == []  # Hard makes none
    for exercise in found:
        step = review.steps[exercise.step]
        assert exercise.check(exercise.best).loss <= 1e-9
        assert exercise.check(exercise.played).loss == pytest.approx(step.loss, abs=1e-12)
        assert "value" not in exercise.as_json()["choices"][0] and "best" not in exercise.as_json()
        again = Game.from_position(Rules.parse(exercise.rules), exercise.position)
        assert str(advise(again, review.measure).best.decision) == exercise.best
    with pytest.raises(ValueError, match="not one of this position's choices"):
        found[0].check("bank" if found[0].best != "bank" and "bank" not in [c.decision for c in found[0].choices]
                       else "set aside 666666, then roll")
