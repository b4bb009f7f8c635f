"""Modes: how each ends and what it yields; daily and challenge dice; codes; the scoring quiz and drills."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.analysis.expectation import turn_values
from hotdice.game.dice import FixedDice, SeededDice
from hotdice.game.engine import BANK, ROLL, EventKind, Game, IllegalMoveError, Phase, Step, Termination
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside, parse_dice
from hotdice.game.variants import VARIANTS, find_variant
from hotdice.play.codes import ALPHABET
from hotdice.play.daily import DAILY_KEY_ENV, DEFAULT_DAILY_KEY, daily_day, daily_seed
from hotdice.play.modes import (
    SEED_BITS,
    Challenge,
    Mode,
    Result,
    Setup,
    challenge,
    daily,
    pad,
    race,
    solo,
    ten_turn_rules,
    together,
    versus,
)
from hotdice.play.ranking import compare, turn_points
from hotdice.play.training import Drill, ScoringQuestion
from hotdice.store.stats import MODES
from tests.analysis.test_expectation import SMALL, reference
from tests.reference import legal_set_asides

FARKLE = find_variant("farkle").rules
CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}")


def play_well(setup: Setup, max_actions: int = 5000) -> Setup:
    """Play every seat with the turn-value policy until the game ends."""
    game = setup.game
    tv = turn_values(game.rules)
    for _ in range(max_actions):
        if game.outcome is not None:
            return setup
        seat = game.current
        entered = game.entered[seat]
        if game.phase is Phase.SET_ASIDE:
            assert game.roll is not None
            best = tv.best_set_aside(game.roll, game.turn_total, entered=entered)
            allowed = {o.set_aside for o in game.options()}
            setup.play(
                best.set_aside if best is not None and best.set_aside in allowed else game.options()[0].set_aside
            )
        else:
            rolling = game.why_not_bank() is not None or tv.should_roll(
                game.turn_total, game.dice_in_hand, entered=entered, hot_dice=game.hot_dice
            )
            setup.play(ROLL if rolling else BANK)
    raise AssertionError("the game did not end")


def do(setup: Setup, *steps: str) -> Setup:
    """Steps with the dice written out: 'roll 111234', 'keep 111', 'bank' (for the score pad too)."""
    for step in steps:
        word, _, arg = step.partition(" ")
        if word == "roll":
            setup.game.apply(ROLL)
            setup.game.apply_roll(parse_dice(arg))
        else:
            setup.game.apply(step)
    return setup


def test_mode_identifiers_are_the_projects() -> None:
    assert tuple(m.value for m in Mode) == MODES == ("solo", "race", "versus", "together", "daily", "challenge",
                                                     "training", "pad")
    assert Mode("daily") is Mode.DAILY and Mode.PAD == "pad"


# -- solo and race ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_solo_is_exactly_ten_turns(variant: object) -> None:
    rules = variant.rules  # type: ignore[attr-defined]
    setup = play_well(solo(rules, "Ann", dice=SeededDice(f"solo/{rules}")))
    game = setup.game
    assert game.outcome is not None and game.outcome.termination is Termination.TURN_LIMIT
    assert game.turns_played == (10,) and game.turn == 10
    (result,) = setup.results()
    assert result == Result("Ann", game.scores[0], 10, Mode.SOLO)


def test_solo_goes_on_past_the_target() -> None:
    # Six 1s (3000) and a bank every turn: the target of 10 000 is passed in turn 4, the game still has ten.
    setup = solo(FARKLE, dice=FixedDice([(1,) * 6] * 10))
    for _ in range(10):
        setup.play(ROLL)
        setup.play("keep 111111")
        setup.play(BANK)
    assert setup.game.outcome is not None and setup.game.outcome.termination is Termination.TURN_LIMIT
    assert setup.results()[0].score == 30_000 and setup.results()[0].turns == 10
    # Under the exact 5000 the turn would bust past 5000; a ten-turn game has no target to pass.
    fr = solo(find_variant("5000-fr").rules)
    assert fr.game.rules.target == 1_000_000 and not fr.game.rules.five_1s_win


def test_ten_turn_rules_keep_the_scoring_of_the_preset() -> None:
    for v in VARIANTS:
        ten = ten_turn_rules(v.rules)
        assert ten.replace(target=v.rules.target, five_1s_win=v.rules.five_1s_win) == v.rules


@pytest.mark.parametrize(
    ("rules", "steps", "turns", "termination"),
    [
        # last round: with one player, the bank reaching the target ends the game.
        ("farkle,target=1000", ["roll 122346", "keep 1", "bank", "roll 111234", "keep 111", "bank"], 2, "target"),
        # first: reaching the target wins at once.
        ("5000-fr-6,target=1000,entry=0", ["roll 111236", "keep 111", "roll 123", "keep 1", "bank"], 1, "target"),
        # exact: 500 + 200 + 150 = 850 banked, then exactly 150 more ends it (the 1 and 5 of a straight).
        (
            "5000-fr,target=1000,entry=0,set_aside=choose",
            ["roll 55523", "keep 555", "roll 11", "keep 11", "roll 15236", "keep 15", "bank", "roll 15234", "keep 15"],
            2,
            "exact",
        ),
        # five 1s win at once, in the first roll of the second turn.
        ("5000-fr,entry=0", ["roll 12346", "keep 1", "bank", "roll 11111"], 2, "five-ones"),
    ],
)
def test_race_ends_on_reaching_the_target_for_every_end(
    rules: str, steps: list[str], turns: int, termination: str
) -> None:
    setup = do(race(Rules.parse(rules), "Bo"), *steps)
    game = setup.game
    assert game.outcome is not None and game.outcome.termination.value == termination
    (result,) = setup.results()
    assert result.turns == turns and result.mode is Mode.RACE and result.score == game.scores[0]


def test_race_does_not_end_below_the_target_or_past_an_exact_one() -> None:
    exact = Rules.parse("5000-fr,target=1000,entry=0,set_aside=choose")
    setup = do(race(exact), "roll 11123", "keep 111")
    assert setup.game.outcome is not None  # exactly 1000: the game ends without a bank
    setup = do(race(exact), "roll 55523", "keep 555", "bank")
    assert setup.game.outcome is None and setup.game.scores == (500,)
    # 500 banked: a set-aside worth more than 500 (555 and 11, 555 and a 1) is not offered.
    do(setup, "roll 55511")
    offered = {str(o.set_aside): o.points for o in setup.game.options()}
    assert max(offered.values()) == 500 and "11555" not in offered
    do(setup, "keep 1")
    assert setup.game.outcome is None and setup.game.turn_total == 100


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_race_played_to_the_end_counts_its_turns(variant: object) -> None:
    rules = variant.rules  # type: ignore[attr-defined]
    setup = play_well(race(rules, dice=SeededDice(f"race/{rules}")))
    game = setup.game
    assert game.outcome is not None
    (result,) = setup.results()
    # Every turn started counts, the one that reached the target included.
    assert result.turns == sum(1 for e in game.events if e.kind is EventKind.TURN) >= 1
    if game.outcome.termination is not Termination.FIVE_ONES:
        assert result.score >= rules.target if rules.end.value != "exact" else result.score == rules.target


# -- versus, together, pad ------------------------------------------------------------------------


def test_versus_the_computer() -> None:
    setup = versus(find_variant("5000").rules, "Ann", "Hard")
    assert setup.mode is Mode.VERSUS and setup.game.players == ("Ann", "Hard") and setup.computer == 1
    assert setup.game.first == 0 and setup.game.rules == find_variant("5000").rules and setup.game.turn_limit is None
    assert versus(FARKLE, computer_starts=True).game.first == 1
    off = versus(FARKLE, hold_roll_off=True, dice=FixedDice([(2, 5)]))
    assert off.roll_off is not None and off.game.first == 1
    play_well(versus(FARKLE, dice=SeededDice("versus")))  # ends under the last-round rule


def test_together_two_to_eight_with_a_roll_off() -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        together(FARKLE, ["Ann"])
    with pytest.raises(ValueError, match="2 to 8"):
        together(FARKLE, [f"P{i}" for i in range(9)])
    with pytest.raises(ValueError, match="same name"):
        together(FARKLE, ["Ann", "Ann "])
    eight = together(FARKLE, [f"P{i}" for i in range(8)])
    assert len(eight.game.players) == 8 and eight.game.first == 0 and eight.roll_off is None
    # Everyone rolls one die, the tied highest roll again: Cy (index 2) starts.
    setup = together(FARKLE, ["Ann", "Bo", "Cy"], hold_roll_off=True, dice=FixedDice([(6, 2, 6), (3, 5)]))
    assert setup.roll_off is not None and setup.roll_off.first == 2 and setup.game.first == 2
    assert setup.game.current == 2
    finished = play_well(together(FARKLE, ["Ann", "Bo", "Cy"], hold_roll_off=True, dice=SeededDice("together")))
    ranking = compare(finished.results())
    assert ranking[0].rank == 1 and ranking[0].result.score == max(finished.game.scores)


def test_score_pad_checks_the_tables_dice() -> None:
    setup = pad(Rules.parse("farkle,entry=500"), ["Ann", "Bo"], first=1)
    assert setup.dice is None and setup.game.first == 1
    with pytest.raises(ValueError, match="apply_roll"):
        setup.play(ROLL)
    do(setup, "roll 111523")
    with pytest.raises(IllegalMoveError):
        setup.game.apply("keep 23")  # a 2 and a 3 do not score
    with pytest.raises(IllegalMoveError, match="entry"):
        do(setup, "keep 5", "bank")  # 50 is below the entry of 500
    do(setup, "roll 11123", "keep 111", "bank")
    assert setup.game.scores == (0, 1050)


# -- daily ------------------------------------------------------------------------------------------


def _daily_history(name: str, now: datetime, key: bytes = b"k") -> list[Step]:
    return play_well(daily(name, now=now, key=key)).game.history


def test_daily_same_dice_all_day_and_new_dice_at_midnight_utc() -> None:
    morning = datetime(2025, 3, 12, 0, 0, 0, tzinfo=UTC)
    night = datetime(2025, 3, 12, 23, 59, 59, tzinfo=UTC)
    next_day = night + timedelta(seconds=1)
    a, b = daily("Ann", now=morning, key=b"k"), daily("Bo", now=night, key=b"k")
    assert a.day == b.day and a.seed == b.seed
    assert _daily_history("Ann", morning) == _daily_history("Bo", night)  # same play, same dice
    c = daily("Cy", now=next_day, key=b"k")
    assert c.day == a.day + timedelta(days=1) and c.seed != a.seed
    assert _daily_history("Cy", next_day) != _daily_history("Ann", morning)
    # The first rolls of every turn are the same for everyone, whatever they set aside.
    for turn in range(10):
        assert a.dice is not None and b.dice is not None
        assert a.dice.roll(6, turn, 0) == b.dice.roll(6, turn, 0)


def test_daily_day_is_the_utc_date() -> None:
    new_york = timezone(timedelta(hours=-5))
    assert str(daily_day(datetime(2025, 3, 12, 19, 0, tzinfo=new_york))) == "2025-03-13"  # midnight UTC passed
    assert str(daily_day(datetime(2025, 3, 12, 18, 59, tzinfo=new_york))) == "2025-03-12"
    with pytest.raises(ValueError, match="time zone"):
        daily_day(datetime(2025, 3, 12, 12, 0))


def test_daily_seed_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    day = datetime(2025, 3, 12, 12, tzinfo=UTC)
    expected = hmac.new(b"server key", b"daily/2025-03-12", hashlib.sha256).digest()
    monkeypatch.setenv(DAILY_KEY_ENV, "server key")
    setup = daily(now=day)
    assert setup.seed == expected and daily_seed(day.date()) == expected
    assert setup.dice is not None and setup.dice.roll(6, 0, 0) == SeededDice(expected).roll(6, 0, 0)
    monkeypatch.delenv(DAILY_KEY_ENV)
    assert daily(now=day).seed == hmac.new(DEFAULT_DAILY_KEY, b"daily/2025-03-12", hashlib.sha256).digest()


def test_daily_is_plain_farkle_for_ten_turns() -> None:
    setup = daily(now=datetime(2025, 3, 12, tzinfo=UTC))
    assert setup.mode is Mode.DAILY and setup.game.turn_limit == 10
    assert setup.game.rules.replace(target=FARKLE.target) == FARKLE
    assert setup.game.players == ("Player",)


# -- friend challenge -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from([v.name for v in VARIANTS]), seed=st.integers(0, 2**SEED_BITS - 1))
def test_challenge_code_round_trips(preset: str, seed: int) -> None:
    found = Challenge(preset, seed)
    code = found.code
    assert CODE.fullmatch(code)
    assert Challenge.parse(code) == found
    assert Challenge.parse(code.lower()) == found
    assert Challenge.parse(code.replace("-", " ")) == found
    assert Challenge.parse(" " + code.replace("-", "") + " ") == found


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from([v.name for v in VARIANTS]),
    seed=st.integers(0, 2**SEED_BITS - 1),
    position=st.integers(0, 9),
    data=st.data(),
)
def test_a_one_character_typo_is_refused(preset: str, seed: int, position: int, data: st.DataObject) -> None:
    chars = list(Challenge(preset, seed).code.replace("-", ""))
    wrong = data.draw(st.sampled_from([c for c in ALPHABET if c != chars[position]]))
    typo = chars.copy()
    typo[position] = wrong
    with pytest.raises(ValueError, match="typo"):
        Challenge.parse("".join(typo))
    # Two neighbours swapped are refused too.
    if position < 9 and chars[position] != chars[position + 1]:
        swapped = chars.copy()
        swapped[position], swapped[position + 1] = swapped[position + 1], swapped[position]
        with pytest.raises(ValueError, match="typo"):
            Challenge.parse("".join(swapped))


def test_i_l_o_are_read_as_1_and_0() -> None:
    rng = random.Random(5)
    seen = 0
    while seen < 20:
        found = Challenge.new("farkle", rng)
        code = found.code
        if "1" not in code and "0" not in code:
            continue
        typed = code.replace("1", rng.choice("IiLl")).replace("0", rng.choice("Oo"))
        assert Challenge.parse(typed) == found
        seen += 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0000-0000", "10 characters"),
        ("00000-000000", "10 characters"),
        ("0000U-00000", "'U' is not in challenge codes"),
        ("0000*-00000", r"'\*' is not in challenge codes"),
    ],
)
def test_unreadable_codes_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Challenge.parse(text)


def test_a_code_naming_an_unknown_preset_is_refused() -> None:
    # Preset index 31 with a valid check symbol: a code from a hotdice with more presets.
    from hotdice.play.codes import check_symbol

    symbols = [31] + [0] * 8
    symbols.append(check_symbol(symbols))
    with pytest.raises(ValueError, match="preset"):
        Challenge.parse("".join(ALPHABET[s] for s in symbols))


def test_everyone_with_the_code_plays_the_same_ten_turns() -> None:
    made = Challenge.new("5000-fr-6", random.Random(11))
    assert made.preset == "5000-fr-6" and made.rules == ten_turn_rules(find_variant("5000-fr-6").rules)
    first = play_well(challenge(made.code, "Ann"))
    second = play_well(challenge(made.code.lower().replace("-", " "), "Bo"))
    assert first.seed == second.seed and first.challenge == second.challenge == made
    assert first.game.history == second.game.history  # same play, same dice
    assert first.game.turns_played == (10,) == second.game.turns_played
    other = play_well(challenge(Challenge.new("5000-fr-6", random.Random(12)), "Cy"))
    assert other.game.history != first.game.history


def test_compare_ranks_results() -> None:
    s = Mode.CHALLENGE
    ranking = compare(
        [Result("Ann", 3000, 10, s), Result("Bo", 4500, 10, s), Result("Cy", 3000, 10, s), Result("Di", 1000, 10, s)]
    )
    assert [(r.rank, r.result.name) for r in ranking] == [(1, "Bo"), (2, "Ann"), (2, "Cy"), (4, "Di")]
    r = Mode.RACE
    ranking = compare([Result("Ann", 10_050, 14, r), Result("Bo", 10_400, 12, r), Result("Cy", 10_600, 14, r)])
    assert [(x.rank, x.result.name) for x in ranking] == [(1, "Bo"), (2, "Cy"), (3, "Ann")]
    with pytest.raises(ValueError, match="different modes"):
        compare([Result("Ann", 1, 1, s), Result("Bo", 1, 1, r)])
    with pytest.raises(ValueError, match="not over"):
        solo(FARKLE).results()


def test_an_unfinished_result_ranks_below_every_finished_one() -> None:
    s = Mode.CHALLENGE
    # Ed's attempt ended unfinished when the key was revealed: 9000 in nine turns beats no finished 500.
    ranking = compare([Result("Ed", 9000, 9, s, finished=False), Result("Di", 500, 10, s), Result("Fay", 700, 4, s,
                                                                                                   finished=False)])
    assert [(r.rank, r.result.name) for r in ranking] == [(1, "Di"), (2, "Ed"), (3, "Fay")]
    r = Mode.RACE
    ranking = compare([Result("Ed", 10_000, 3, r, finished=False), Result("Di", 10_000, 30, r)])
    assert [x.result.name for x in ranking] == ["Di", "Ed"]


def test_turn_points_are_what_each_finished_turn_changed_the_score_by() -> None:
    """Bob starts; Ann banks 1000 then 150, farkles three times in a row (the penalty cut to her 1150 would be
    500: -500), and her turn in progress is not counted. Values worked out by hand."""
    farkle = (2, 2, 3, 4, 6, 6)
    dice = FixedDice([farkle, (1, 1, 1, 2, 3, 4), farkle, (1, 5, 2, 3, 4, 6), *[farkle] * 7, (5, 2, 3, 4, 6, 6)])
    game = Game(Rules.parse("farkle,three_farkles=500"), ("Ann", "Bob"), first=1)
    for action in ["roll", "roll", "111", "bank", "roll", "roll", "15", "bank", *["roll"] * 8]:
        game.play(action, dice)
    assert game.current == 0 and game.phase is Phase.SET_ASIDE  # Ann's sixth turn, not finished
    assert turn_points(game, 0) == (1000, 150, 0, 0, -500) and game.scores[0] == 650
    assert turn_points(game, 1) == (0,) * 6  # Bob's penalties at 0 cost nothing


@given(st.integers(0, 2**32 - 1))  # the seed is four bytes
@settings(max_examples=20, deadline=None)
def test_turn_points_add_up_to_the_score(seed: int) -> None:
    setup = solo(FARKLE, dice=SeededDice(seed.to_bytes(4, "big")))
    rng = random.Random(seed)
    while setup.game.outcome is None:
        actions = setup.game.legal_actions()
        setup.game.play(rng.choice(actions), setup.dice)
    points = turn_points(setup.game)
    assert len(points) == 10 and sum(points) == setup.game.scores[0]


# -- training: scoring quiz ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "roll", "best", "set_aside", "parts"),
    [
        ("farkle", "111523", 1050, "1115", ["three 1s = 1000", "a 5 = 50"]),
        ("farkle", "111155", 1200, "111155", ["three 1s = 1000", "a 1 = 100", "a 5 = 50"]),
        ("farkle", "222233", 1000, "2222", ["four 2s = 1000"]),
        ("farkle", "123456", 1500, "123456", ["straight 1-6 = 1500"]),
        ("farkle", "224466", 1500, "224466", ["three pairs 22-44-66 = 1500"]),
        ("farkle", "333555", 2500, "333555", ["two triples 3s and 5s = 2500"]),
        ("5000", "12345", 1500, "12345", ["straight 1-5 = 1500"]),
        ("5000-fr", "23456", 750, "23456", ["straight 2-6 = 750"]),
        ("5000", "11111", 1200, "11111", ["three 1s = 1000", "a 1 = 100"]),
    ],
)
def test_scoring_quiz_on_hand_worked_rolls(preset: str, roll: str, best: int, set_aside: str, parts: list[str]) -> None:
    q = ScoringQuestion(find_variant(preset).rules, parse_dice(roll))
    assert q.best_score == best and q.best_set_aside == SetAside.parse(set_aside)
    for part in parts:
        assert part in q.explanation
    assert q.check_score(best).correct and not q.check_score(best - 50).correct
    assert q.check_set_aside(set_aside).correct
    assert not q.check_set_aside(set_aside[:-1]).correct  # fewer dice, fewer points (or none)
    assert q.check_score(best - 50).explanation.startswith(f"No, {best}.")


def test_scoring_quiz_farkle() -> None:
    q = ScoringQuestion(FARKLE, (2, 3, 4, 6, 6, 2))
    assert q.best_score == 0 and q.best_set_aside is None
    assert q.check_score(0).correct and q.check_set_aside("farkle").correct
    assert not q.check_set_aside("2").correct
    assert "farkle" in q.explanation


def test_scoring_quiz_random_questions_against_brute_force() -> None:
    rng = random.Random(3)
    for i in range(200):
        rules = VARIANTS[i % len(VARIANTS)].rules
        q = ScoringQuestion.random(rules, rng)
        brute = legal_set_asides(tuple(sorted(q.roll)), rules)
        best = max(brute.values(), default=0)
        assert q.best_score == best
        if best:
            assert q.best_set_aside is not None and brute[tuple(q.best_set_aside)] == best
            # The combinations listed add up to the score.
            listed = q.explanation.split(": ", 1)[1].split(";")[0]
            assert sum(int(p) for p in re.findall(r"= (\d+)", listed)) == best
    again = ScoringQuestion.random(FARKLE, random.Random(9))
    assert again == ScoringQuestion.random(FARKLE, random.Random(9))  # the injected generator decides


# -- training: bank-or-roll drills --------------------------------------------------------------------

EXPLANATION = re.compile(
    r"Rolling (\d) (?:die|dice)(?: \(hot dice\))? is worth ([\d.]+) expected points against ([\d.]+) for banking: "
    r"(roll|bank)"
)


def test_drills_against_the_plain_recursive_search() -> None:
    rules = SMALL[0]
    _, ref_roll = reference(rules)
    rng = random.Random(17)
    for _ in range(150):
        drill = Drill.random(rules, rng)
        rolling = ref_roll(drill.turn_total, drill.dice_in_hand, drill.entered)
        bank = drill.turn_total
        match = EXPLANATION.fullmatch(drill.explanation)
        assert match is not None, drill.explanation
        assert int(match[1]) == drill.dice_in_hand
        assert float(match[2]) == pytest.approx(rolling, abs=0.051)
        assert float(match[3]) == bank
        if abs(rolling - bank) > 1e-6:
            assert drill.answer == match[4] == ("roll" if rolling > bank else "bank")
            assert (
                drill.check(drill.answer).correct
                and not drill.check("bank" if drill.answer == "roll" else "roll").correct
            )


def test_drill_by_hand() -> None:
    # One die at a huge total: a 1 (100) or a 5 (50) gives hot dice, then bank; otherwise the total is lost.
    drill = Drill(FARKLE, 30_000, 1)
    assert drill.roll_value == pytest.approx((30_100 + 30_050) / 6)
    assert drill.answer == "bank"
    assert drill.explanation == "Rolling 1 die is worth 10025 expected points against 30000 for banking: bank"
    assert drill.check("B").correct and not drill.check("roll").correct
    with pytest.raises(ValueError, match="roll or bank"):
        drill.check("maybe")
    # Six dice at 50 are always worth rolling.
    assert Drill(FARKLE, 50, 6).answer == "roll"


def test_a_drill_needs_a_choice() -> None:
    with pytest.raises(ValueError, match="nothing to decide"):
        Drill(find_variant("5000-fr-6").rules, 250, 3)  # min_bank=300
    with pytest.raises(ValueError, match="nothing to decide"):
        Drill(find_variant("5000").rules, 400, 5, hot_dice=True)  # hot dice must be rolled
    with pytest.raises(ValueError, match="multiple of 50"):
        Drill(FARKLE, 75, 3)
    lost = Drill(find_variant("5000").rules, 300, 2, entered=False)  # below the entry: stopping records nothing
    assert lost.bank_value == 0 and lost.answer == "roll"


def test_random_drills_are_states_where_banking_is_allowed() -> None:
    rng = random.Random(4)
    for v in VARIANTS:
        for _ in range(20):
            drill = Drill.random(v.rules, rng)
            assert drill.turn_total > 0 and 1 <= drill.dice_in_hand <= v.rules.dice
            assert EXPLANATION.fullmatch(drill.explanation)


def test_shown_rules_hide_only_what_ten_turns_lift() -> None:
    from hotdice.play.modes import shown_rules, ten_turn_rules

    for text in ("farkle", "5000-fr", "farkle,entry=500", "5000-fr,rule_4900=yes"):
        rules = Rules.parse(text)
        assert shown_rules(ten_turn_rules(rules)) == ("5000-fr" if text.startswith("5000-fr") else text)
        assert shown_rules(rules) == str(rules)
    assert shown_rules("farkle,five_1s_win=yes") == "farkle,five_1s_win=yes"


@given(symbols=st.lists(st.integers(0, 31), max_size=30), position=st.integers(0, 30), wrong=st.integers(1, 31))
def test_the_check_symbol_makes_any_code_sum_to_zero_and_one_wrong_symbol_breaks_it(
    symbols: list[int], position: int, wrong: int
) -> None:
    from hotdice.play.codes import check_symbol, weighted_sum

    code = [*symbols, check_symbol(symbols)]
    assert weighted_sum(code) == 0
    position %= len(code)
    code[position] ^= wrong
    assert weighted_sum(code) != 0
