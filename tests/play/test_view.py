"""The table's view against the engine, over random games under random rules: each field family is what the
engine says (options, refusals, roll and bank, seats, log, end), and the best set-aside is the most points."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hotdice.game.dice import SeededDice
from hotdice.game.engine import BANK, ROLL, Decision, EventKind, Game, Phase, after_set_aside, bank_records
from hotdice.game.rules import End, Rules
from hotdice.game.scoring import SetAside
from hotdice.play.view import TableView
from tests.game.test_rules import any_rules
from tests.reference import legal_set_asides


def positions(rules: Rules, seed: int, players: int, steps: int) -> list[Game]:
    """A game played at random (random set-asides, rolls and banks) with a copy of it at every decision."""
    rng = random.Random(seed)
    game = Game(rules, tuple(f"P{k}" for k in range(players)), turn_limit=rng.choice([None, 3]))
    dice = SeededDice(f"view/{seed}")
    seen = []
    for _ in range(steps):
        if game.outcome is not None:
            break
        seen.append(game.clone())
        if not isinstance(game.to_act, int):
            game.apply_roll(dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn))
        elif game.phase is Phase.SET_ASIDE and rng.random() < 0.3:
            game.apply(rng.choice(game.options()).set_aside)  # a set-aside alone: the roll or bank follows
        else:
            game.play(rng.choice(game.legal_decisions()), dice)
    seen.append(game)
    return seen


def sub_rolls(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(c)) for size in range(1, len(roll) + 1) for c in itertools.combinations(roll, size)}


def farkle_risk(rules: Rules, n: int) -> Fraction:
    """The share of the 6**n ordered rolls with no legal set-aside, by the brute force of tests/reference.py:
    each multiset of faces weighed by its number of orderings."""
    farkles = 0
    for roll in itertools.combinations_with_replacement(range(1, 7), n):
        if not legal_set_asides(roll, rules):
            orderings = math.factorial(n)
            for face in set(roll):
                orderings //= math.factorial(roll.count(face))
            farkles += orderings
    return Fraction(farkles, 6**n)


games = st.tuples(any_rules(), st.integers(0, 10**6), st.integers(1, 3))
slow = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@slow
@given(games)
def test_the_options_are_the_legal_set_asides_with_what_follows_each(drawn: tuple[Rules, int, int]) -> None:
    rules, seed, players = drawn
    for game in positions(rules, seed, players, 60):
        view = TableView.of(game)
        assert [o.set_aside for o in view.options] == [str(o.set_aside) for o in game.options()]
        if game.phase is Phase.SET_ASIDE and (rules.end is not End.EXACT) and not rules.validate:
            assert game.roll is not None
            expected = {"".join(map(str, d)): p for d, p in legal_set_asides(game.roll, rules).items()}
            if rules.set_aside.value != "all":
                assert {o.set_aside: o.points for o in view.options} == expected
        seat = game.current
        for shown, option in zip(view.options, game.options(), strict=True):
            assert (shown.points, shown.dice_left, shown.hot_dice) == (
                option.points,
                option.dice_left,
                option.dice_left == 0,
            )
            assert shown.bank_refusal == game.why_not_bank_after(option)
            after = game.turn_total + option.points
            assert shown.records == bank_records(rules, entered=game.entered[seat], turn_total=after)
            assert shown.risk.dice == after_set_aside(rules, option)[0]
            assert shown.wins == (rules.end is End.EXACT and game.scores[seat] + after == rules.target)
            legal = game.clone()
            legal.apply_decision(Decision(option.set_aside, BANK if shown.bank_refusal is None else ROLL))
        if view.options:
            assert view.best == view.options[0].set_aside
            assert view.option(view.best) is view.options[0]
            assert view.options[0].points == max(o.points for o in game.options())
        else:
            assert view.best is None


@pytest.mark.slow
@slow
@given(games)
def test_every_other_choice_of_dice_is_refused_as_the_engine_refuses_it(drawn: tuple[Rules, int, int]) -> None:
    rules, seed, players = drawn
    for game in positions(rules, seed, players, 40):
        view = TableView.of(game)
        if game.phase is not Phase.SET_ASIDE:
            assert view.refusals == {}
            continue
        assert game.roll is not None
        offered = {o.set_aside for o in view.options}
        every = {"".join(map(str, d)) for d in sub_rolls(game.roll)}
        assert set(view.refusals) == every - offered
        for dice, refusal in view.refusals.items():
            assert refusal == game.why_not_set_aside(SetAside.parse(dice))


@pytest.mark.slow
@slow
@given(games)
def test_a_roll_and_a_bank_are_offered_or_refused_as_the_engine_says(drawn: tuple[Rules, int, int]) -> None:
    rules, seed, players = drawn
    for game in positions(rules, seed, players, 60):
        view = TableView.of(game)
        roll, bank = Decision(None, ROLL), Decision(None, BANK)
        assert view.roll_refusal == game.why_not_decision(roll)
        assert view.can_roll == (game.why_not_decision(roll) is None and game.phase is Phase.DECIDE)
        assert view.can_bank == (game.why_not_decision(bank) is None)
        assert view.bank_refusal == (game.why_not_bank() if isinstance(game.to_act, int) else None)
        seat = game.current
        assert view.bank_records == bank_records(rules, entered=game.entered[seat], turn_total=game.turn_total)
        assert view.risk.dice == game.dice_in_hand


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(any_rules())
def test_the_farkle_risks_are_exact(rules: Rules) -> None:
    game = Game(rules)
    view = TableView.of(game)
    assert Fraction(view.risk.exact) == farkle_risk(rules, rules.dice) == Fraction(view.risk.p).limit_denominator(10**6)


@pytest.mark.slow
@slow
@given(games)
def test_the_seats_the_turn_the_log_and_the_end_are_the_games(drawn: tuple[Rules, int, int]) -> None:
    rules, seed, players = drawn
    for game in positions(rules, seed, players, 300)[-3:]:
        view = TableView.of(game, since=0)
        assert [(p.name, p.score, p.entered, p.farkles_in_row, p.turns) for p in view.players] == list(
            zip(game.players, game.scores, game.entered, game.farkles_in_row, game.turns_played, strict=True)
        )
        assert (view.phase, view.current, view.turn_total, view.roll, view.dice_in_hand) == (
            game.phase,
            game.current,
            game.turn_total,
            game.roll,
            game.dice_in_hand,
        )
        assert view.to_act == (game.to_act if isinstance(game.to_act, int) else None)
        assert view.set_asides == tuple(str(s) for s in game.set_asides)
        assert view.n == len(game.history) and view.outcome == game.outcome
        assert [(e.kind, e.seat, e.turn, e.points, e.dice, e.scores, e.turn_total) for e in view.events] == [
            tuple(e) for e in game.events
        ]
        # Each turn's line says the player's own turn: its turns so far, counted seat by seat here.
        started = [0] * players
        for e in view.events:
            if e.kind is EventKind.TURN:
                started[e.seat] += 1
                said = (e.key, e.values["round"], e.values["name"])
                assert said == ("log.turn", started[e.seat], game.players[e.seat])
        limit = game.turn_limit or game.turns_played[game.current] + 1
        assert view.round == min(game.turns_played[game.current] + 1, limit)
        # The standing: every seat once, scores from high to low, equal scores sharing the better rank.
        assert sorted(p.seat for p in view.standing) == list(range(players))
        for place in view.standing:
            assert place.score == game.scores[place.seat]
            assert place.rank == 1 + sum(score > place.score for score in game.scores)
        tail = TableView.of(game, tail=5)
        assert tail.events == view.events[-5:] and tail.events_from == max(0, len(game.events) - 5)
        assert TableView.of(game, since=len(game.events) + 3).events == ()


@pytest.mark.slow
@slow
@given(games)
def test_the_dead_roll_is_the_roll_that_ended_the_last_turn_until_the_next_roll(drawn: tuple[Rules, int, int]) -> None:
    rules, seed, players = drawn
    for game in positions(rules, seed, players, 120):
        view = TableView.of(game)
        ended = [e for e in game.events if e.kind in (EventKind.ROLL, EventKind.FARKLE, EventKind.BUST)]
        failed = len(ended) >= 2 and ended[-1].kind is not EventKind.ROLL and ended[-2].kind is EventKind.ROLL
        if game.rolls_this_turn == 0 and game.phase in (Phase.DECIDE, Phase.CHANCE) and failed:
            assert view.dead_roll == ended[-2].dice
        else:
            assert view.dead_roll is None


def test_a_stopped_game_offers_nothing() -> None:
    game = Game(Rules.parse("farkle"))
    game.apply("roll")
    game.apply_roll((1, 5, 2, 3, 4, 6))
    view = TableView.of(game, stopped=True)
    assert view.options == () and view.refusals == {} and view.best is None
    assert not view.can_roll and not view.can_bank
    assert TableView.of(game).best == "123456"  # the straight: 1500 points, the roll's best
