"""Turn values against independent computations: a plain recursive search, hand-worked lines, Monte Carlo
through the real engine; and the may-bank rule and state changes against the engine on played games."""

from __future__ import annotations

import functools
import itertools
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.analysis.expectation import STEP, TurnValues, bank_points, may_bank, turn_values
from hotdice.game.dice import SeededDice
from hotdice.game.engine import BANK, ROLL, Game, Phase, after_set_aside
from hotdice.game.refusals import Code
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside, scorer
from hotdice.game.variants import VARIANTS, find_variant
from tests.reference import legal_set_asides

FARKLE = find_variant("farkle").rules

# Small settings for the plain recursive search: five dice, entry (lost / roll), hot dice that must be
# rolled, minimum bank, validation. No 1-2-3-4-5, so that a horizon of 9000 is far above any total the
# optimal play reaches with a noticeable probability.
SMALL = (
    Rules.parse("5000,low_straight=0"),
    Rules.parse("5000,validate=yes,min_bank=300,entry=750,below_entry=roll,low_straight=0"),
)

Decide = Callable[[int, int, bool, bool, bool], float]
Roll = Callable[[int, int, bool], float]


@functools.cache
def reference(rules: Rules, horizon: int = 9000) -> tuple[Decide, Roll]:
    """Expected points of a turn by plain recursion with memo, written from RULES.md alone.

    ``decide(turn_total, dice, hot_dice, must_validate, entered)`` and ``roll(turn_total, dice, entered)``.
    Past ``horizon`` a roll is counted as worth 0, so this is a lower bound, tight when the horizon is far
    above the totals that play reaches.
    """
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    rolls = {
        n: Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n)) for n in range(1, rules.dice + 1)
    }
    set_asides = functools.cache(lambda roll: legal_set_asides(roll, rules))

    def can_bank(t: int, hot: bool, validate: bool, entered: bool) -> bool:
        if t == 0 or validate or (hot and rules.hot_dice.value == "must"):
            return False
        if not entered and t < rules.entry:
            return rules.below_entry.value == "lost"
        return t >= rules.min_bank

    @functools.cache
    def decide(t: int, n: int, hot: bool, validate: bool, entered: bool) -> float:
        value = roll(t, n, entered)
        if can_bank(t, hot, validate, entered):
            value = max(value, t if entered or t >= rules.entry else 0)
        return value

    @functools.cache
    def roll(t: int, n: int, entered: bool) -> float:
        if t >= horizon:
            return 0.0
        total = 0.0
        for faces, ways in rolls[n].items():
            best = 0.0
            for set_aside, points in set_asides(faces).items():
                left = n - len(set_aside)
                triple = any(set_aside.count(f) >= 3 for f in set(set_aside))
                after = decide(
                    t + points, left or rules.dice, left == 0, rules.validate and (left == 0 or triple), entered
                )
                best = max(best, after)
            total += ways * best
        return total / 6**n

    return decide, roll


# -- the plain recursive search ---------------------------------------------------------------


@pytest.mark.parametrize("rules", SMALL, ids=str)
def test_values_match_a_plain_recursive_search(rules: Rules) -> None:
    ref, _ = reference(rules)
    tv = turn_values(rules)
    checked = 0
    for t in range(0, 3000, STEP):
        for n in range(1, rules.dice + 1):
            for hot, validate, entered in itertools.product((False, True), repeat=3):
                if hot and n != rules.dice:
                    continue
                mine = tv.value(t, n, entered=entered, hot_dice=hot, must_validate=validate)
                assert mine == pytest.approx(ref(t, n, hot, validate, entered), abs=1e-6)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("rules", SMALL, ids=str)
def test_decisions_match_a_plain_recursive_search(rules: Rules) -> None:
    _, ref_roll = reference(rules)
    tv = turn_values(rules)
    decided = 0
    for t in range(STEP, 3000, STEP):
        for n in range(1, rules.dice + 1):
            for entered in (False, True):
                rolling = ref_roll(t, n, entered)
                assert tv.roll_value(t, n, entered=entered) == pytest.approx(rolling, abs=1e-6)
                bank = tv.bank_value(t, entered=entered)
                if bank is not None and abs(rolling - bank) > 1e-6:  # no near-ties
                    assert tv.should_roll(t, n, entered=entered) == (rolling > bank)
                    decided += 1
    assert decided > 200


def test_best_set_aside_matches_the_recursive_search() -> None:
    rules = SMALL[0]
    ref, _ = reference(rules)
    tv = turn_values(rules)
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, rules.dice)
        roll = tuple(sorted(rng.randint(1, 6) for _ in range(n)))
        t = STEP * rng.randint(0, 40)
        entered = rng.random() < 0.5
        options = legal_set_asides(roll, rules)
        chosen = tv.best_set_aside(roll, t, entered=entered)
        if not options:
            assert chosen is None
            continue
        assert chosen is not None

        def after(set_aside: tuple[int, ...], points: int, t: int = t, n: int = n, entered: bool = entered) -> float:
            left = n - len(set_aside)
            return ref(t + points, left or rules.dice, left == 0, False, entered)

        best = max(after(k, p) for k, p in options.items())
        assert after(tuple(chosen.set_aside), chosen.points) == pytest.approx(best, abs=1e-6)


# -- the cap ---------------------------------------------------------------------------------

CAP_RULES = (
    *(v.rules for v in VARIANTS),
    Rules.parse("farkle,entry=500,min_bank=300,three_farkles=1000"),
    Rules.parse("farkle,hot_dice=must"),
    Rules.parse("farkle,validate=yes,kinds=doubling"),
    Rules.parse("5000-fr,entry=1000,below_entry=lost"),
)


@pytest.mark.parametrize("rules", CAP_RULES, ids=str)
def test_above_the_cap_banking_is_best_whatever_the_dice(rules: Rules) -> None:
    tv = turn_values(rules)
    wider = TurnValues(rules, cap=tv.cap + 5000)  # sweep from well above the derived cap
    assert wider.cap == tv.cap + 5000
    for t in range(0, tv.cap + 5000, STEP):
        for n in range(1, rules.dice + 1):
            assert wider.value(t, n) == pytest.approx(tv.value(t, n), rel=1e-12, abs=1e-9)
            assert wider.roll_value(t, n) == pytest.approx(tv.roll_value(t, n), rel=1e-12, abs=1e-9)
            if t >= tv.cap:  # the sweep itself finds banking at least as good as rolling
                assert wider.roll_value(t, n) <= t + 1e-9
                assert wider.value(t, n) == t
    for entered in (True, False):
        assert wider.turn_value(entered=entered) == pytest.approx(tv.turn_value(entered=entered), rel=1e-12)


def test_large_total_lines_by_hand() -> None:
    tv = turn_values(FARKLE)
    # One die at a large total: a 1 or a 5 sets it aside (hot dice, optional), then bank: t/3 + 25.
    assert tv.alpha[0] == pytest.approx(1 / 3) and tv.beta[0] == pytest.approx(25)
    # Two dice: 16/36 farkle; best points 11 = 200, 15 = 150, 55 = 100, a 1 = 100, a 5 = 50 -> 1800/36 = 50.
    assert tv.alpha[1] == pytest.approx(20 / 36) and tv.beta[1] == pytest.approx(50)
    t = tv.cap + 1000
    assert tv.roll_value(t, 1) == pytest.approx(t / 3 + 25)
    assert tv.value(t, 1) == t


def test_the_cap_is_derived_from_the_rules() -> None:
    # Six dice at a large total: 2.3 % farkle against about 421 points of one roll -> bank from 18 200.
    tv = turn_values(FARKLE)
    assert tv.beta[5] / (1 - tv.alpha[5]) == pytest.approx(18187, abs=1)
    assert tv.cap == 18200
    # With hot dice that must be rolled, keeping a 1 rather than a 1-6 straight pays only at huge totals.
    assert turn_values(Rules.parse("farkle,hot_dice=must")).cap > 70_000


# -- Monte Carlo through the engine ------------------------------------------------------------


class RandomDice:
    """Plain pseudo-random dice for simulations."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(n))


def simulate_turns(rules: Rules, turns: int, entered: bool, seed: str) -> list[int]:
    """Points banked in ``turns`` one-turn games of the real engine, played by the turn-value policy.

    The solo view leaves the target out, so the simulated table has a target nobody reaches and no instant
    win; an entered player is simulated by a table without entry (the entry plays no part once entered).
    """
    tv = turn_values(rules)
    table = rules.replace(target=1_000_000, five_1s_win=False, **({"entry": 0} if entered else {}))
    dice = RandomDice(random.Random(seed))
    best_set_asides: dict[tuple[tuple[int, ...], int], SetAside] = {}
    out = []
    for _ in range(turns):
        g = Game(table, ("solo",), turn_limit=1)
        while g.outcome is None:
            if g.phase is Phase.SET_ASIDE:
                assert g.roll is not None
                key = (g.roll, g.turn_total)
                if key not in best_set_asides:
                    best = tv.best_set_aside(g.roll, g.turn_total, entered=entered)
                    assert best is not None
                    best_set_asides[key] = best.set_aside
                g.apply(best_set_asides[key])
            else:
                rolling = tv.should_roll(
                    g.turn_total, g.dice_in_hand, entered=entered, hot_dice=g.hot_dice, must_validate=g.must_validate
                )
                g.play(ROLL if rolling else BANK, dice)
        out.append(g.scores[0])
    return out


MONTE_CARLO = [(FARKLE, True, 20_000)] + [(v.rules, entered, 4_000) for v in VARIANTS[1:] for entered in (True, False)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "entered", "turns"), MONTE_CARLO, ids=[f"{r}-{'entered' if e else 'new'}" for r, e, _ in MONTE_CARLO]
)
def test_monte_carlo_through_the_engine(rules: Rules, entered: bool, turns: int) -> None:
    points = simulate_turns(rules, turns, entered, seed=f"monte-carlo/{rules}/{entered}")  # independent runs
    mean = statistics.fmean(points)
    error = statistics.stdev(points) / len(points) ** 0.5
    expected = turn_values(rules).turn_value(entered=entered)
    assert abs(mean - expected) < 3 * error, (mean, error, expected)


# -- the engine and this module agree on every state of played games ----------------------------

PLAYED_RULES = (
    *(v.rules for v in VARIANTS),
    Rules.parse("farkle,entry=500"),
    Rules.parse("farkle,entry=500,below_entry=lost,min_bank=300,hot_dice=must,three_farkles=500"),
    Rules.parse("5000-fr,target=1000,entry=0,rule_4900=yes,min_bank=150"),
    Rules.parse("5000,validate=yes,entry=700"),
)


@pytest.mark.parametrize("rules", PLAYED_RULES, ids=str)
def test_may_bank_and_state_changes_agree_with_the_engine(rules: Rules) -> None:
    rng = random.Random(str(rules))
    decisions = set_asides = banks = refused_4900 = 0
    for game_number in itertools.count():
        if decisions >= 1000:
            break
        g = Game(rules, ("A", "B", "C")[: 1 + game_number % 3])
        dice = SeededDice(f"may-bank/{rules}/{game_number}")
        for _ in range(600):
            if g.outcome is not None:
                break
            seat = g.current
            if g.phase is Phase.SET_ASIDE:
                option = rng.choice(g.options())
                turn = g.turn
                g.apply(option.set_aside)
                set_asides += 1
                if g.turn == turn and g.outcome is None:
                    assert after_set_aside(rules, option) == (g.dice_in_hand, g.hot_dice, g.must_validate)
                continue
            refusal = g.why_not_bank()
            mine = may_bank(
                rules, g.turn_total, entered=g.entered[seat], hot_dice=g.hot_dice, must_validate=g.must_validate
            )
            decisions += 1
            if refusal is not None and refusal.code is Code.RULE_4900:
                assert mine  # the solo view leaves the 4900 rule out
                refused_4900 += 1
            else:
                assert mine == (refusal is None), (g.history, refusal)
            if refusal is None and rng.random() < 0.35:
                before, total, entered = g.scores[seat], g.turn_total, g.entered[seat]
                g.play(BANK, dice)
                assert g.scores[seat] - before == bank_points(rules, total, entered=entered)
                banks += 1
            else:
                g.play(ROLL, dice)
    assert set_asides > 300 and banks > 20
    if rules.rule_4900:
        assert refused_4900 > 0


# -- properties and the interface ----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    steps=st.integers(0, 500),
    dice=st.integers(1, 6),
    entered=st.booleans(),
    validate=st.booleans(),
)
def test_values_grow_with_the_turn_total_and_beat_each_choice(
    variant: object, steps: int, dice: int, entered: bool, validate: bool
) -> None:
    rules = variant.rules  # type: ignore[attr-defined]
    dice = min(dice, rules.dice)
    tv = turn_values(rules)
    t = STEP * steps
    v = tv.value(t, dice, entered=entered, must_validate=validate)
    # More turn total never hurts: play on exactly as from the smaller total.
    assert tv.value(t + STEP, dice, entered=entered, must_validate=validate) >= v - 1e-9
    assert v >= tv.roll_value(t, dice, entered=entered) - 1e-9
    bank = tv.bank_value(t, entered=entered, must_validate=validate)
    if bank is None:
        assert v == pytest.approx(tv.roll_value(t, dice, entered=entered))
    else:
        assert v >= bank
        assert v == pytest.approx(max(bank, tv.roll_value(t, dice, entered=entered)))


def test_interface() -> None:
    tv = turn_values(FARKLE)
    assert turn_values(FARKLE) is tv
    assert tv.turn_value() == tv.value(0, 6) == tv.roll_value(0, 6)
    assert tv.bank_value(0) is None  # nothing to bank yet
    assert tv.bank_value(350) == 350
    assert tv.best_set_aside((2, 3, 4, 6, 6, 2), 500) is None  # a farkle
    roll = (1, 1, 1, 5, 2, 3)
    option = tv.best_set_aside(roll, 0)
    assert option is not None
    assert tv.option_value(option, 0) == max(tv.option_value(o, 0) for o in scorer(FARKLE).options(roll))
    for bad in (-50, 75):
        with pytest.raises(ValueError, match="multiple of 50"):
            tv.value(bad, 6)
    with pytest.raises(ValueError, match="1 to 6"):
        tv.value(100, 7)
    with pytest.raises(ValueError, match="hot dice"):
        tv.value(100, 3, hot_dice=True)
    five = turn_values(find_variant("5000").rules)
    assert five.bank_value(300, entered=False) == 0  # below the entry: may stop, nothing recorded
    assert five.bank_value(350, entered=False) == 350
    assert five.bank_value(300, hot_dice=True) is None  # hot dice must be rolled
    six = turn_values(find_variant("5000-fr-6").rules)
    assert six.bank_value(250) is None and six.bank_value(300) == 300  # min_bank=300
    assert six.bank_value(1000, must_validate=True) is None


def test_every_preset_has_its_turn_values() -> None:
    """Every preset builds its table, and a turn's start is worth some points, fewer than the target. (How long
    the tables take is not asserted here: speed is measured in bench/.)"""
    for v in VARIANTS:
        assert 0 < TurnValues(v.rules).value(0, v.rules.dice) < v.rules.target
