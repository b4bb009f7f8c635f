"""Scoring: the examples of the sources, and the tables against a brute-force partition search."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.game.rules import Kinds, Rules
from hotdice.game.scoring import CombinationKind, DiceError, SetAside, combinations, parse_dice, scorer, scoring_table
from hotdice.game.variants import find_variant
from tests.game.test_rules import any_rules
from tests.reference import best_partition, legal_set_asides

FARKLE = find_variant("farkle").rules


def best(roll: str, rules: Rules = FARKLE) -> int:
    option = scorer(rules).best(parse_dice(roll))
    return option.points if option else 0


def keeps(roll: str, rules: Rules = FARKLE) -> set[str]:
    return {str(o.set_aside) for o in scorer(rules).options(parse_dice(roll))}


# -- seed 003 (Farkle / 10 000) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "points"),
    [
        ("1", 100),
        ("5", 50),
        ("111", 1000),
        ("222", 200),
        ("333", 300),
        ("444", 400),
        ("555", 500),
        ("666", 600),
        ("2222", 1000),
        ("22222", 2000),
        ("222222", 3000),
        ("123456", 1500),
        ("223344", 1500),
        ("333555", 2500),
        ("1111", 1100),  # three 1s plus a 1 beats four of a kind (seed 003)
        ("222233", 1000),  # four 2s and two 3s are not three pairs (seed 003)
        ("111111", 3000),  # six of a kind (RULES.md)
        ("11111", 2000),
        ("5555", 1000),
    ],
)
def test_farkle_table_of_seed_003(roll: str, points: int) -> None:
    assert best(roll) == points


def test_lone_2_3_4_6_score_nothing() -> None:
    for face in "2346":
        assert scorer(FARKLE).is_farkle(parse_dice(face))
    assert scorer(FARKLE).is_farkle((2, 2, 3, 4, 6, 6))


def test_every_die_set_aside_must_score() -> None:
    assert "222233" not in keeps("222233")
    assert keeps("222233") == {"2222", "222"}
    assert scorer(FARKLE).score((2, 2, 2, 2, 3, 3)) is None


def test_advice_example_of_seed_003() -> None:
    # 1-5-2-2-3-6: the 1 alone (100, five dice left) or the 1 and the 5 (150, four left).
    options = {str(o.set_aside): (o.points, o.dice_left) for o in scorer(FARKLE).options((1, 5, 2, 2, 3, 6))}
    assert options == {"1": (100, 5), "15": (150, 4), "5": (50, 5)}


def test_options_are_listed_once_best_first() -> None:
    options = scorer(FARKLE).options((1, 1, 1, 1, 5, 5))
    assert len({o.set_aside for o in options}) == len(options) == 14
    assert [o.points for o in options] == sorted((o.points for o in options), reverse=True)
    assert options[0].set_aside == SetAside(1, 1, 1, 1, 5, 5) and options[0].points == 1200


@pytest.mark.parametrize(
    ("knobs", "roll", "points"),
    [
        ("kinds=doubling", "3333", 600),
        ("kinds=doubling", "33333", 1200),
        ("kinds=doubling", "333333", 2400),
        ("kinds=additive", "3333", 600),
        ("kinds=additive", "33333", 900),
        ("kinds=additive", "333333", 1200),
        ("kinds=doubling", "1111", 2000),
        ("four_kind_pair=1500", "222233", 1500),
        ("three_1s=300", "111", 300),
        ("straight=2500", "123456", 2500),
        ("straight=3000", "123456", 3000),
        ("three_pairs=750", "223344", 750),
        ("low_straight=500,high_straight=750", "12345", 500),
        ("low_straight=500,high_straight=750", "23456", 750),
        ("low_straight=500,high_straight=750", "123455", 550),
        ("two_triplets=0", "333555", 800),
    ],
)
def test_house_rules_of_seed_003(knobs: str, roll: str, points: int) -> None:
    assert best(roll, Rules.parse(f"farkle,{knobs}")) == points


# -- seeds 001 and 000 (5000) -----------------------------------------------------------------


def test_5000_english_table() -> None:
    r = find_variant("5000").rules
    assert best("12345", r) == 1500
    assert best("23456", r) == 50  # no small straight: only the 5 scores
    assert best("3333", r) == 300 and "3333" not in keeps("3333", r)  # triples only
    assert best("11111", r) == 1200
    assert not scorer(r).wins_game((1, 1, 1, 1, 1))


def test_5000_french_table() -> None:
    r = find_variant("5000-fr").rules
    assert best("12345", r) == 750 and best("23456", r) == 750
    assert scorer(r).wins_game((1, 1, 1, 1, 1))
    assert not scorer(r).wins_game((1, 1, 1, 1, 5))
    # "Si on obtient un premier 1, puis deux autres": dice of different rolls never combine.
    assert best("1", r) + best("11", r) == 300


def test_5000_french_six_dice_keeps_every_triple() -> None:
    r = find_variant("5000-fr-6").rules
    # Seed 000's example: 3 3 3 1 = 300 + 100.
    assert best("3331", r) == 400
    assert keeps("333124", r) == {"333", "1333"}
    assert keeps("111111", r) == {"111111"}  # six of a face are two triples, both kept: 2000
    assert best("111111", r) == 2000
    assert best("333555", r) == 800  # no "two triplets" combination in this table
    assert keeps("11115", r) == {"111", "1111", "1115", "11115"}
    assert best("123456", r) == 150  # no straight


def test_five_1s_win_needs_five_1s_in_one_roll() -> None:
    r = Rules.parse("farkle,five_1s_win=yes")
    assert scorer(r).wins_game((1, 1, 1, 1, 1, 3))
    assert not scorer(r).wins_game((1, 1, 1, 1, 3, 3))


# -- value objects and errors -----------------------------------------------------------------


def test_set_aside_reads_and_writes_both_ways() -> None:
    s = SetAside.parse("515")
    assert s == SetAside(1, 5, 5) and str(s) == "155" and repr(s) == "SetAside(1, 5, 5)"
    assert SetAside.parse("1 5 5") == SetAside.parse(["1", 5, "5"]) == s


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7", "'7' is not a die"),
        ("1a", "'a' is not a die"),
        ("", "no dice"),
        ("1111111", "7 dice given"),
    ],
)
def test_unreadable_dice(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse_dice(text)


def test_a_roll_with_more_dice_than_the_rules_is_refused() -> None:
    with pytest.raises(DiceError):
        scorer(find_variant("5000").rules).options((1, 1, 1, 1, 1, 1))


# -- against the brute force ------------------------------------------------------------------

rolls = st.integers(1, 6).flatmap(lambda n: st.lists(st.integers(1, 6), min_size=n, max_size=n))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(any_rules(), rolls)
def test_options_equal_brute_force(r: Rules, roll: list[int]) -> None:
    roll = roll[: r.dice]
    expected = legal_set_asides(tuple(roll), r)
    s = scorer(r)
    got = {tuple(o.set_aside): o.points for o in s.options(roll)}
    assert got == expected
    assert s.is_farkle(roll) == (not expected)
    top = s.best(roll)
    assert (top.points if top else 0) == max(expected.values(), default=0)
    for o in s.options(roll):
        assert o.dice_left == len(roll) - len(o.set_aside)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(any_rules(), rolls)
def test_points_of_any_dice_equal_brute_force(r: Rules, dice: list[int]) -> None:
    dice = dice[: r.dice]
    pts = best_partition(tuple(sorted(dice)), r)
    assert scorer(r).score(dice) == (pts if pts > 0 else None)


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(any_rules(), st.integers(0, 2**32 - 1))
def test_batch_equals_one_by_one(r: Rules, seed: int) -> None:
    rng = np.random.default_rng(seed)
    faces = rng.integers(1, 7, size=(200, r.dice))
    s = scorer(r)
    batch = s.best_points_batch(faces)
    for roll, pts in zip(faces.tolist(), batch.tolist(), strict=True):
        top = s.best(roll)
        assert pts == (top.points if top else 0)


def test_kinds_none_never_scores_a_fourth_die_of_2_3_4_6() -> None:
    r = Rules(kinds=Kinds.NONE)
    for face in (2, 3, 4, 6):
        assert scorer(r).score((face,) * 4) is None


# -- kinds of combinations -------------------------------------------------------------------------------


def _shape(dice: tuple[int, ...]) -> tuple[int, ...]:
    """How many dice of each face, largest first: (4, 2) for four of a kind and a pair."""
    return tuple(sorted((dice.count(face) for face in set(dice)), reverse=True))


@settings(max_examples=100, deadline=None)
@given(any_rules())
def test_each_combination_has_the_kind_its_dice_make_and_the_points_the_rules_give(r: Rules) -> None:
    points = {
        CombinationKind.STRAIGHT: r.straight, CombinationKind.LOW_STRAIGHT: r.low_straight,
        CombinationKind.HIGH_STRAIGHT: r.high_straight, CombinationKind.THREE_PAIRS: r.three_pairs,
        CombinationKind.TWO_TRIPLETS: r.two_triplets, CombinationKind.FOUR_KIND_PAIR: r.four_kind_pair,
    }  # fmt: skip
    for combo in combinations(r):
        dice, kind = tuple(combo.dice), combo.kind
        shape = _shape(dice)
        if kind is CombinationKind.SINGLE:
            assert dice in ((1,), (5,)) and combo.points == (r.single_1 if dice == (1,) else r.single_5)
        elif kind is CombinationKind.OF_A_KIND:
            assert len(shape) == 1 and shape[0] >= 3 and combo.points == r.n_of_a_kind(dice[0], len(dice))
        else:
            expected = {
                CombinationKind.STRAIGHT: (1, 1, 1, 1, 1, 1), CombinationKind.LOW_STRAIGHT: (1, 1, 1, 1, 1),
                CombinationKind.HIGH_STRAIGHT: (1, 1, 1, 1, 1), CombinationKind.THREE_PAIRS: (2, 2, 2),
                CombinationKind.TWO_TRIPLETS: (3, 3), CombinationKind.FOUR_KIND_PAIR: (4, 2),
            }[kind]  # fmt: skip
            assert shape == expected and combo.points == points[kind]
            if kind is CombinationKind.LOW_STRAIGHT:
                assert 6 not in dice
            if kind is CombinationKind.HIGH_STRAIGHT:
                assert 1 not in dice


@pytest.mark.parametrize(
    ("dice", "kind", "name"),
    [
        ("1", CombinationKind.SINGLE, "a 1"),
        ("555", CombinationKind.OF_A_KIND, "three 5s"),
        ("222222", CombinationKind.OF_A_KIND, "six 2s"),
        ("123456", CombinationKind.STRAIGHT, "straight 1-6"),
        ("12345", CombinationKind.LOW_STRAIGHT, "straight 1-5"),
        ("23456", CombinationKind.HIGH_STRAIGHT, "straight 2-6"),
        ("224466", CombinationKind.THREE_PAIRS, "three pairs 22-44-66"),
        ("333444", CombinationKind.TWO_TRIPLETS, "two triples 3s and 4s"),
        ("222255", CombinationKind.FOUR_KIND_PAIR, "four 2s and a pair of 5s"),
        ("335555", CombinationKind.FOUR_KIND_PAIR, "four 5s and a pair of 3s"),
    ],
)
def test_a_combination_is_named_from_its_kind_and_dice(dice: str, kind: CombinationKind, name: str) -> None:
    rules = FARKLE.replace(low_straight=500, high_straight=750, four_kind_pair=1500)
    (combo,) = [c for c in combinations(rules) if c.dice == SetAside.parse(dice)]
    assert combo.kind is kind and combo.name == name


def test_the_scoring_table_of_farkle_reads_as_it_always_has() -> None:
    assert [(line.name, line.points) for line in scoring_table(FARKLE)] == [
        ("A 1", 100), ("A 5", 50), ("Three 1s", 1000), ("Three 2s", 200), ("Three 3s", 300), ("Three 4s", 400),
        ("Three 5s", 500), ("Three 6s", 600), ("Four of a kind", 1000), ("Five of a kind", 2000),
        ("Six of a kind", 3000), ("Straight 1-6", 1500), ("Three pairs (three different values)", 1500),
        ("Two triples (two different values)", 2500),
    ]  # fmt: skip
    doubling = [(line.kind, line.dice, line.face) for line in scoring_table(FARKLE.replace(kinds=Kinds.DOUBLING))]
    assert (CombinationKind.OF_A_KIND, 4, 6) in doubling and (CombinationKind.OF_A_KIND, 4, None) not in doubling


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(any_rules(), rolls)
def test_a_partition_is_combinations_of_the_dice_adding_up_to_their_points(r: Rules, roll: list[int]) -> None:
    s = scorer(r)
    top = s.best(roll[: r.dice])
    if top is not None:
        parts = s.partition(top.set_aside)
        assert sorted(d for c in parts for d in c.dice) == list(top.set_aside)
        assert sum(c.points for c in parts) == top.points and all(c in s.combinations for c in parts)


def test_a_set_aside_survives_pickling_and_copies() -> None:
    import copy
    import pickle

    kept = SetAside(1, 5, 5)
    assert pickle.loads(pickle.dumps(kept)) == kept == copy.deepcopy(kept)
