"""Rules as data: the presets of RULES.md, the rules string, JSON, and refusals that name the knob."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotdice.game.rules import KNOBS, BelowEntry, End, HotDice, Kinds, Rules, RulesError, SetAsideRule
from hotdice.game.variants import VARIANTS, find_variant


def test_presets_are_the_four_of_rules_md() -> None:
    assert [v.name for v in VARIANTS] == ["farkle", "5000", "5000-fr", "5000-fr-6"]


def test_farkle_preset() -> None:
    r = find_variant("farkle").rules
    assert (r.dice, r.target, r.end, r.entry, r.min_bank, r.hot_dice) == (
        6,
        10_000,
        End.LAST_ROUND,
        0,
        0,
        HotDice.OPTIONAL,
    )
    assert (r.three_farkles, r.validate, r.five_1s_win, r.kinds) == (0, False, False, Kinds.FIXED)
    assert (r.four_kind, r.five_kind, r.six_kind) == (1000, 2000, 3000)
    assert (r.straight, r.three_pairs, r.two_triplets, r.four_kind_pair) == (1500, 1500, 2500, 0)
    assert (r.low_straight, r.high_straight) == (0, 0)


def test_5000_preset() -> None:
    r = find_variant("5000").rules
    assert (r.dice, r.target, r.end, r.entry, r.below_entry) == (5, 5000, End.LAST_ROUND, 350, BelowEntry.LOST)
    assert r.hot_dice is HotDice.MUST and r.kinds is Kinds.NONE and r.min_bank == 0
    assert (r.low_straight, r.high_straight, r.straight, r.three_pairs) == (1500, 0, 0, 0)
    assert not r.five_1s_win


def test_5000_fr_preset() -> None:
    r = find_variant("5000-fr").rules
    assert (r.dice, r.target, r.end, r.entry, r.below_entry) == (5, 5000, End.EXACT, 750, BelowEntry.ROLL)
    assert r.hot_dice is HotDice.MUST and r.kinds is Kinds.NONE and r.five_1s_win
    assert (r.low_straight, r.high_straight) == (750, 750)
    assert not r.rule_4900 and r.min_bank == 0
    assert r.set_aside is SetAsideRule.ALL  # every scoring die of a roll (RULES.md, seed 000)


def test_only_5000_fr_sets_aside_every_scoring_die() -> None:
    assert {v.name: v.rules.set_aside for v in VARIANTS} == {
        "farkle": SetAsideRule.CHOOSE, "5000": SetAsideRule.CHOOSE, "5000-fr": SetAsideRule.ALL,
        "5000-fr-6": SetAsideRule.CHOOSE,
    }


def test_5000_fr_6_preset() -> None:
    r = find_variant("5000-fr-6").rules
    assert (r.dice, r.target, r.end, r.entry, r.min_bank) == (6, 5000, End.FIRST, 700, 300)
    assert r.validate and r.hot_dice is HotDice.MUST and r.kinds is Kinds.NONE
    assert (r.straight, r.three_pairs, r.two_triplets, r.low_straight, r.high_straight) == (0, 0, 0, 0, 0)


def test_rules_string_with_overrides() -> None:
    r = Rules.parse("farkle,entry=500,three_farkles=1000")
    assert r.entry == 500 and r.three_farkles == 1000 and r.dice == 6
    assert str(r) == "farkle,entry=500,three_farkles=1000"


def test_required_knob_names_exist() -> None:
    names = {k.name for k in KNOBS}
    assert {"target", "entry", "below_entry", "min_bank", "hot_dice", "end", "three_farkles"} <= names
    r = Rules.parse("farkle,target=5000,entry=350,below_entry=lost,min_bank=300,hot_dice=must,end=first")
    assert (r.target, r.entry, r.below_entry, r.min_bank, r.hot_dice, r.end) == (
        5000,
        350,
        BelowEntry.LOST,
        300,
        HotDice.MUST,
        End.FIRST,
    )
    assert Rules.parse("5000-fr,end=exact,rule_4900=yes").rule_4900


def test_format_picks_the_shortest_preset() -> None:
    # farkle rules rewritten into 5000-fr-6 by hand print as the preset's name.
    r = Rules.parse(
        "farkle,dice=6,target=5000,end=first,entry=700,min_bank=300,hot_dice=must,validate=yes,"
        "kinds=none,straight=0,three_pairs=0,two_triplets=0"
    )
    assert str(r) == "5000-fr-6"
    assert r == find_variant("5000-fr-6").rules


def test_spaces_and_case_are_forgiven() -> None:
    assert Rules.parse("  Farkle , entry = 500 ") == Rules(entry=500)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty"]),
        ("zilch", ["unknown preset 'zilch'", "farkle", "5000-fr-6"]),
        ("farkle,nosuch=1", ["unknown knob 'nosuch'", "three_farkles"]),
        ("farkle,entry", ["'entry' is not knob=value"]),
        ("farkle,target=-50", ["target=-50", "positive"]),
        ("farkle,three_farkles=-500", ["three_farkles=-500", "negative"]),
        ("farkle,target=0", ["target=0", "positive"]),
        ("farkle,entry=20000", ["entry=20000", "above the target"]),
        ("farkle,min_bank=20000", ["min_bank=20000", "above the target"]),
        ("farkle,hot_dice=maybe", ["hot_dice=maybe", "optional or must"]),
        ("farkle,end=never", ["end=never", "last-round or first or exact"]),
        ("farkle,below_entry=x", ["below_entry=x", "lost or roll"]),
        ("farkle,kinds=triple", ["kinds=triple", "fixed or doubling or additive or none"]),
        ("farkle,dice=7", ["dice=7", "5 or 6"]),
        ("farkle,entry=abc", ["entry=abc", "whole number"]),
        ("farkle,entry=525", ["entry=525", "multiples of 50"]),
        ("farkle,validate=perhaps", ["validate=perhaps", "yes or no"]),
        ("farkle,rule_4900=yes", ["rule_4900", "end=exact"]),
        ("farkle,three_1s=0", ["three_1s=0"]),
        ("farkle,entry=500,entry=350", ["'entry' is given twice"]),
        ("farkle,set_aside=some", ["set_aside=some", "choose or all"]),
        ("5000,straight=2000", ["straight=2000 is not allowed with dice=5", "1-2-3-4-5-6 needs six dice"]),
        ("farkle,dice=5,three_pairs=750", ["three_pairs=750 is not allowed with dice=5", "six dice"]),
        ("5000-fr,two_triplets=2500", ["two_triplets=2500", "dice=5", "two triples needs six dice"]),
        ("5000,kinds=fixed,six_kind=4000", ["six_kind=4000", "dice=5", "six of a kind needs six dice"]),
        ("5000,four_kind_pair=1500", ["four_kind_pair=1500", "dice=5", "six dice"]),
    ],
)
def test_impossible_rules_are_refused_by_name(text: str, words: list[str]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.parse(text)
    for word in words:
        assert word in str(info.value)


def test_set_aside_reads_and_writes_both_ways() -> None:
    assert Rules.parse("farkle,set_aside=all").set_aside is SetAsideRule.ALL
    assert str(Rules.parse("farkle,set_aside=all")) == "farkle,set_aside=all"
    assert str(Rules.parse("5000-fr,set_aside=choose")) == "5000-fr,set_aside=choose"
    assert str(Rules.parse("5000-fr,set_aside=all")) == "5000-fr"
    assert Rules.from_json(Rules.parse("5000-fr,set_aside=choose").to_json()).set_aside is SetAsideRule.CHOOSE


def test_six_dice_combinations_off_or_inherited_are_allowed_with_five_dice() -> None:
    # Switched off they are fine; inherited from a six-dice preset they simply do not act.
    assert Rules.parse("5000,straight=0").straight == 0
    r = Rules.parse("farkle,dice=5")
    assert r.straight == 1500 and "straight" not in {k.name for k in r.acting_knobs()}
    assert Rules.parse(str(r)) == r and Rules.from_json(r.to_json()) == r
    # Every knob written out (the web settings page does so) changes nothing that was not asked.
    every = ",".join(f"{k.name}={k.write(getattr(r, k.name))}" for k in KNOBS)
    assert Rules.parse(f"farkle,{every}") == r
    assert Rules.parse("5000," + ",".join(f"{k.name}={k.write(getattr(Rules.parse('5000'), k.name))}"
                                          for k in KNOBS)) == Rules.parse("5000")


@pytest.mark.parametrize(
    ("text", "idle"),
    [
        ("5000", {"four_kind", "five_kind", "six_kind", "four_kind_pair", "straight", "three_pairs", "two_triplets",
                  "rule_4900"}),
        ("5000-fr", {"four_kind", "five_kind", "six_kind", "four_kind_pair", "straight", "three_pairs",
                     "two_triplets"}),
        ("5000-fr-6", {"four_kind", "five_kind", "six_kind", "rule_4900"}),
        ("farkle", {"below_entry", "rule_4900"}),
        ("farkle,entry=500", {"rule_4900"}),
        ("5000,kinds=fixed", {"six_kind", "four_kind_pair", "straight", "three_pairs", "two_triplets", "rule_4900"}),
    ],
)
def test_acting_knobs_leave_out_those_that_cannot_act(text: str, idle: set[str]) -> None:
    acting = [k.name for k in Rules.parse(text).acting_knobs()]
    assert set(acting) == {k.name for k in KNOBS} - idle
    assert acting == [k.name for k in KNOBS if k.name in acting]  # in the order of KNOBS


def test_rules_imports_no_other_module_of_the_package() -> None:
    """rules.py owns the presets; variants.py imports it, never the other way round (no import cycle). Its
    refusals are values of hotdice.game.refusals, which imports nothing of the package."""
    import hotdice.game.refusals
    import hotdice.game.rules

    tree = ast.parse(Path(hotdice.game.rules.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert {m for m in imported if m.split(".")[0] == "hotdice"} == {"hotdice.game.refusals"}
    refusals = ast.parse(Path(hotdice.game.refusals.__file__).read_text())
    assert not [n for n in ast.walk(refusals) if isinstance(n, ast.ImportFrom) and "hotdice" in (n.module or "")]
    assert [v.rules for v in VARIANTS] == list(hotdice.game.rules.PRESETS.values())


def test_constructor_and_replace_validate_too() -> None:
    with pytest.raises(RulesError, match="target"):
        Rules(target=-1)
    with pytest.raises(RulesError, match="unknown knob 'colour'"):
        Rules().replace(colour="red")
    with pytest.raises(RulesError, match="entry"):
        Rules().replace(entry="500")


_knob_values = {
    "dice": st.sampled_from([5, 6]),
    "target": st.integers(1, 400).map(lambda n: n * 50),
    "end": st.sampled_from([End.LAST_ROUND, End.FIRST]),
    "entry": st.sampled_from([0, 350, 500, 700, 750, 1000]),
    "below_entry": st.sampled_from(list(BelowEntry)),
    "min_bank": st.sampled_from([0, 300]),
    "hot_dice": st.sampled_from(list(HotDice)),
    "validate": st.booleans(),
    "three_farkles": st.sampled_from([0, 500, 1000]),
    "five_1s_win": st.booleans(),
    "three_1s": st.sampled_from([300, 1000]),
    "kinds": st.sampled_from(list(Kinds)),
    "four_kind": st.sampled_from([0, 1000, 2000]),
    "four_kind_pair": st.sampled_from([0, 1500]),
    "straight": st.sampled_from([0, 1500, 2500, 3000]),
    "three_pairs": st.sampled_from([0, 750, 1500]),
    "two_triplets": st.sampled_from([0, 2500]),
    "low_straight": st.sampled_from([0, 500, 750, 1500]),
    "high_straight": st.sampled_from([0, 750]),
    "set_aside": st.sampled_from(list(SetAsideRule)),
}
_SIX_DICE_KNOBS = ("six_kind", "four_kind_pair", "straight", "three_pairs", "two_triplets")


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    base = draw(st.sampled_from(VARIANTS)).rules
    changes = draw(st.fixed_dictionaries({}, optional=_knob_values))
    target = changes.get("target", base.target)
    changes["entry"] = min(changes.get("entry", base.entry), target)
    changes["min_bank"] = min(changes.get("min_bank", base.min_bank), target)
    if changes.get("end", base.end) is not End.EXACT:
        changes["rule_4900"] = False
    if changes.get("dice", base.dice) == 5:  # six-dice combinations cannot be set with five dice
        for name in _SIX_DICE_KNOBS:
            changes.pop(name, None)
    return base.replace(**changes)


@given(any_rules())
def test_string_round_trips(r: Rules) -> None:
    text = str(r)
    assert Rules.parse(text) == r
    assert str(Rules.parse(text)) == text
    candidates = [
        ",".join([v.name, *(f"{k.name}={k.write(getattr(r, k.name))}" for k in KNOBS
                            if getattr(r, k.name) != getattr(v.rules, k.name))])
        for v in VARIANTS
    ]
    assert len(text) <= min(len(c) for c in candidates if _parses(c))


def _parses(text: str) -> bool:
    """Whether a rules string is accepted (one setting a six-dice combination with five dice is not)."""
    try:
        Rules.parse(text)
    except RulesError:
        return False
    return True


@given(any_rules())
def test_json_round_trips(r: Rules) -> None:
    data = r.to_json()
    assert Rules.from_json(data) == r
    assert Rules.from_json(json.dumps(data)) == r
    assert data["rules"] == str(r)


def test_from_json_refuses_bad_documents() -> None:
    with pytest.raises(RulesError, match="not valid JSON"):
        Rules.from_json("{")
    with pytest.raises(RulesError, match="must be an object"):
        Rules.from_json("[1]")
    with pytest.raises(RulesError, match="unknown knob 'x'"):
        Rules.from_json({"rules": "farkle", "x": 1})
