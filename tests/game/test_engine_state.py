"""The fuller state of a game: who acts (a seat, CHANCE or TERMINAL), clone, chance outcomes, the position
notation both ways, and the Decision (set aside, then roll or bank) applied whole or refused.

The stateful machine of test_engine_stateful plays random games over every preset and house rule; here it
also checks, at every step, that a position read back behaves exactly like the game it was written from,
that a clone is equal and independent, and that the legal decisions are exactly those accepted."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from hotdice.game.dice import SeededDice
from hotdice.game.engine import (
    BANK,
    CHANCE,
    ROLL,
    TERMINAL,
    Decision,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    PositionError,
)
from hotdice.game.refusals import Code
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from tests.game.test_engine_stateful import GameMachine


def state(g: Game) -> tuple[Any, ...]:
    """Everything a position holds (not the history, the events, nor this turn's set-asides)."""
    return (g.phase, g.current, g.first, g.turn_limit, g.scores, g.entered, g.farkles_in_row, g.turns_played,
            g.turn, g.rolls_this_turn, g.turn_total, g.dice_in_hand, g.roll, g.options(), g.must_validate,
            g.hot_dice, g.last_round_by, g.outcome, g.to_act)


def answers(g: Game) -> tuple[Any, ...]:
    """What a player is told: the legal actions and decisions, and why a bank or each set-aside is refused."""
    keeps = [] if g.roll is None else [SetAside(*c) for n in range(1, len(g.roll) + 1)
                                       for c in sorted(set(itertools.combinations(sorted(g.roll), n)))]
    return (g.legal_actions(), g.legal_decisions(), g.why_not_bank(),
            [g.why_not_set_aside(k) for k in keeps], [g.why_not_decision(d) for d in candidates(g)])


def candidates(g: Game) -> list[Decision]:
    """Every decision worth trying now: no set-aside or any part of the roll on the table, then roll or bank."""
    keeps: list[SetAside | None] = [None]
    if g.roll is not None:
        keeps += [SetAside(*c) for n in range(1, len(g.roll) + 1) for c in sorted(set(itertools.combinations(
            sorted(g.roll), n)))]
    return [Decision(k, then) for k in keeps for then in (ROLL, BANK)]


class StateMachine(GameMachine):
    @invariant()
    def the_position_reads_back_as_the_game(self) -> None:
        if not hasattr(self, "game"):
            return
        g = self.game
        again = Game.from_position(g.rules, g.position(), g.players)
        assert again.position() == g.position()
        assert state(again) == state(g)
        assert answers(again) == answers(g)

    @invariant()
    def who_acts(self) -> None:
        if not hasattr(self, "game"):
            return
        g = self.game
        expected = {Phase.CHANCE: CHANCE, Phase.OVER: TERMINAL}.get(g.phase, g.current)
        assert g.to_act == expected and (g.to_act is CHANCE) == (g.phase is Phase.CHANCE)

    @precondition(lambda self: hasattr(self, "game"))
    @rule(data=st.data(), steps=st.integers(1, 30))
    def position_clone_and_game_share_a_future(self, data: st.DataObject, steps: int) -> None:
        """The same dice and the same decisions: the game, its clone and its position read back stay equal,
        and the game itself does not move."""
        g = self.game
        before = (state(g), g.position(), tuple(g.history), tuple(g.events), tuple(g.set_asides))
        twins = [g.clone(), Game.from_position(g.rules, g.position(), g.players)]
        for _ in range(steps):
            a = twins[0]
            if a.is_over:
                break
            if a.phase is Phase.CHANCE:
                dice = data.draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 5, 5, 6]), min_size=a.dice_in_hand,
                                          max_size=a.dice_in_hand))
                for t in twins:
                    t.apply_roll(dice)
            else:
                decision = data.draw(st.sampled_from(a.legal_decisions()))
                for t in twins:
                    t.apply_decision(decision)
            assert state(twins[0]) == state(twins[1]) and answers(twins[0]) == answers(twins[1])
        assert twins[0].history[len(g.history):] == twins[1].history
        assert (state(g), g.position(), tuple(g.history), tuple(g.events), tuple(g.set_asides)) == before

    @precondition(lambda self: hasattr(self, "game"))
    @rule(data=st.data())
    def a_mutated_position_is_read_or_refused_with_a_code(self, data: st.DataObject) -> None:
        """Change one field of the position (a number, a character, a field dropped or doubled): the game
        reads it as some game reaches it, or refuses it with a position code; never another error."""
        g = self.game
        fields = g.position().split()
        k = data.draw(st.integers(0, len(fields) - 1), label="field")
        how = data.draw(st.sampled_from(["number", "character", "drop", "double"]), label="how")
        if how == "number":
            fields[k] = re.sub(r"\d+", lambda m: str(data.draw(st.sampled_from(
                [0, 1, 2, 5, 6, 7, 49, 50, 100, 350, 4950, 5000, 9950, 10000, 10 ** 12, int(m.group()) + 50]))),
                fields[k], count=1)
        elif how == "character":
            at = data.draw(st.integers(0, len(fields[k]) - 1))
            fields[k] = fields[k][:at] + data.draw(st.sampled_from(list("0123456789-~x,./?v"))) + fields[k][at + 1:]
        elif how == "drop":
            del fields[k]
        else:
            fields.insert(k, fields[k])
        text = " ".join(fields)
        try:
            read = Game.from_position(g.rules, text, g.players)
        except PositionError as exc:
            assert exc.refusal.code in set(Code) and exc.refusal.code.value.startswith(("position-", "argument-"))
        else:
            again = Game.from_position(g.rules, read.position(), g.players)
            assert state(again) == state(read) and again.position() == read.position()

    @precondition(lambda self: hasattr(self, "game"))
    @rule()
    def legal_decisions_are_those_accepted(self) -> None:
        g = self.game
        legal = g.legal_decisions()
        accepted = []
        for decision in candidates(g):
            twin = g.clone()
            before = (state(twin), tuple(twin.history), tuple(twin.events))
            try:
                twin.apply_decision(decision)
            except IllegalMoveError as exc:
                assert exc.refusal == g.why_not_decision(decision)
                assert (state(twin), tuple(twin.history), tuple(twin.events)) == before, "a refusal changes nothing"
            else:
                assert g.why_not_decision(decision) is None
                accepted.append(decision)
        assert sorted(map(str, accepted)) == sorted(map(str, legal))
        assert len(set(legal)) == len(legal)

    @precondition(lambda self: hasattr(self, "game") and self.game.phase is Phase.CHANCE)
    @rule()
    def chance_outcomes_are_the_rolls_of_the_dice_in_hand(self) -> None:
        g = self.game
        outcomes = g.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        assert {len(roll) for roll, _ in outcomes} == {g.dice_in_hand}


TestState = StateMachine.TestCase
TestState.settings = settings(max_examples=60, stateful_step_count=30, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])


# -- chance --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 7))
def test_chance_outcomes_match_every_ordered_roll(n: int) -> None:
    rules = Rules.parse("farkle")
    total = 50 * (6 - n)  # a 5 set aside for each die gone
    g = Game.from_position(rules, f"0,0 0 {total}/{n} ? - - 0.{6 - n} -")
    counted = Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n))
    outcomes = g.chance_outcomes()
    assert dict(outcomes) == {roll: Fraction(k, 6**n) for roll, k in counted.items()}
    assert [roll for roll, _ in outcomes] == sorted(counted)
    for roll, _ in outcomes:
        twin = g.clone()
        twin.apply_roll(roll)  # each is a roll the game takes


def test_chance_outcomes_only_while_dice_are_to_be_rolled() -> None:
    g = Game(Rules.parse("farkle"), ("a", "b"))
    with pytest.raises(IllegalMoveError, match="no roll is asked for"):
        g.chance_outcomes()  # seat 0 is to act
    g.apply(ROLL)
    assert g.to_act is CHANCE and len(g.chance_outcomes()) == 462  # multisets of 6 dice: C(11, 5)


# -- clone ------------------------------------------------------------------------------------------------


def test_a_clone_is_equal_and_independent() -> None:
    g = Game(Rules.parse("farkle"), ("a", "b"))
    g.play(ROLL, SeededDice("clone"))
    twin = g.clone()
    assert twin.position() == g.position() and twin.history == g.history and twin.events == g.events
    twin.apply_decision(twin.legal_decisions()[-1])
    assert twin.history != g.history and twin.position() != g.position()
    assert g.legal_decisions() and g.phase is Phase.SET_ASIDE


# -- the position -------------------------------------------------------------------------------------


def test_a_new_game_and_a_turn_in_progress_written_out() -> None:
    rules = Rules.parse("5000-fr-6")  # entry 700, validate=yes
    g = Game(rules, ("a", "b", "c"), first=1, turn_limit=5)
    assert g.position() == "0~,0~,0~ 1 0/6 - - - 0.0/5 -"
    g.apply(ROLL)
    assert g.position() == "0~,0~,0~ 1 0/6 ? - - 0.0/5 -"
    g.apply_roll((2, 2, 2, 3, 4, 6))
    assert g.position() == "0~,0~,0~ 1 0/6 222346 - - 0.1/5 -"
    g.apply_decision("set aside 222, then roll")
    assert g.position() == "0~,0~,0~ 1 200/3 ? v - 0.1/5 -"
    g.apply_roll((3, 4, 6))  # farkle: c plays
    assert g.position() == "0~,0~x1,0~ 2 0/6 - - - 1.0/5 -"
    again = Game.from_position(rules, g.position(), ("a", "b", "c"))
    assert (again.first, again.turns_played, again.turn_limit) == (1, (0, 1, 0), 5)


def test_a_game_over_reads_back() -> None:
    rules = Rules.parse("5000,target=1000,five_1s_win=yes")
    g = Game.from_position(rules, "950,400 0 0/5 ? - - 8.0 -")
    g.apply_roll((1, 1, 1, 1, 1))  # five 1s win at once
    assert g.position() == "950,400 0 0/5 - - - 9.0 five-ones"
    again = Game.from_position(rules, g.position())
    assert again.outcome == g.outcome and again.to_act is TERMINAL and again.legal_decisions() == []
    assert again.players == ("Player 1", "Player 2")


# Each position breaks exactly one reachability condition of Game._unreachable (or one field of the grammar):
# the same position with that one thing mended is accepted (the second text).
@pytest.mark.parametrize(
    ("rules", "text", "code", "mended"),
    [
        ("farkle", "0,0 0 0/6 - - -", Code.POSITION_FIELDS, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,0 2 0/6 - - - 0.0 -", Code.POSITION_NO_SEAT, "0,0 1 0/6 - - - 1.0 -"),
        ("farkle", "0,0,0,0,0,0,0,0,0 0 0/6 - - - 0.0 -", Code.POSITION_SEATS, "0,0,0,0,0,0,0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,zero 0 0/6 - - - 0.0 -", Code.POSITION_FIELD, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,0 0 0/7 - - - 0.0 -", Code.POSITION_HAND, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,0 0 0/6 2346 - - 0.1 -", Code.POSITION_ROLL_DICE, "0,0 0 0/6 234615 - - 0.1 -"),
        ("farkle", "0,0 0 0/6 223346 - - 0.1 -", Code.POSITION_ROLL_ENDS, "0,0 0 0/6 223146 - - 0.1 -"),
        ("farkle", "0,0 0 0/6 117 - - 0.1 -", Code.POSITION_FIELD, "0,0 0 0/6 111425 - - 0.1 -"),
        ("farkle", "0,0 0 0/3 123 - - 0.1 -", Code.POSITION_FIRST_ROLL, "0,0 0 100/3 123 - - 0.2 -"),
        ("farkle", "0,0 0 300/3 - v - 0.2 -", Code.POSITION_PENDING, "0,0 0 300/3 - - - 0.2 -"),
        ("farkle", "0~,0 0 0/6 - - - 0.0 -", Code.POSITION_NO_ENTRY, "0,0 0 0/6 - - - 0.0 -"),
        ("5000", "400~,0 0 0/5 - - - 2.0 -", Code.POSITION_NOT_ENTERED, "400,0~ 0 0/5 - - - 2.0 -"),
        ("5000", "300,0~ 0 0/5 - - - 2.0 -", Code.POSITION_BELOW_ENTRY, "350,0~ 0 0/5 - - - 2.0 -"),
        ("5000,three_farkles=500", "0,0~ 0 0/5 - - - 2.0 -", None, "0,0~ 0 0/5 - - - 2.0 -"),
        ("farkle", "500,0 0 0/6 - - - 0.0 -", Code.POSITION_NO_TURN, "500,0 0 0/6 - - - 2.0 -"),
        ("farkle", "0x1,0 0 0/6 - - - 0.0 -", Code.POSITION_NO_TURN, "0x1,0 0 0/6 - - - 2.0 -"),
        ("farkle", "0x2,0 0 0/6 - - - 2.0 -", Code.POSITION_FARKLES, "0x2,0 0 0/6 - - - 4.0 -"),
        ("farkle,three_farkles=500", "0x3,0 0 0/6 - - - 6.0 -", Code.POSITION_FARKLES, "0x2,0 0 0/6 - - - 6.0 -"),
        ("farkle", "1025,0 0 0/6 - - - 2.0 -", Code.POSITION_UNIT, "1050,0 0 0/6 - - - 2.0 -"),
        ("farkle,single_5=0", "1050,0 0 0/6 - - - 2.0 -", Code.POSITION_UNIT, "1100,0 0 0/6 - - - 2.0 -"),
        ("farkle", "0,0 0 125/5 - - - 0.1 -", Code.POSITION_UNIT, "0,0 0 150/4 - - - 0.1 -"),
        ("farkle", "0,0 0 100/5 - - - 0.0 -", Code.POSITION_TURN_START, "0,0 0 100/5 - - - 0.1 -"),
        ("farkle", "0,0 0 0/3 - - - 0.0 -", Code.POSITION_TURN_START, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,0 0 0/6 - - 1 0.0 -", Code.POSITION_LAST_ROUND, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "10500,0 1 0/6 - - - 3.0 -", Code.POSITION_PAST_TARGET, "10500,0 1 0/6 - - 0 3.0 -"),
        ("5000-fr-6", "5200,0~ 0 0/6 - - - 2.0 -", Code.POSITION_PAST_TARGET, "4900,0~ 0 0/6 - - - 2.0 -"),
        ("5000-fr", "5100,0~ 0 0/5 - - - 2.0 -", Code.POSITION_PAST_TARGET, "4900,0~ 0 0/5 - - - 2.0 -"),
        ("farkle,end=exact,target=1000", "900,0 0 100/5 - - - 2.1 -", Code.POSITION_TURN_TOTAL,
         "850,0 0 100/5 - - - 2.1 -"),
        ("farkle", "0,0 0 0/6 - - - 4.0/2 -", Code.POSITION_TURNS, "0,0 0 0/6 - - - 2.0/2 -"),
        ("farkle", "0,0 0 0/6 - - - 5.0/2 turn-limit", Code.POSITION_TURNS, "0,0 1 0/6 - - - 4.0/2 turn-limit"),
        ("farkle", "0,0 0 0/6 - - - 0.0 won", Code.POSITION_FIELD, "0,0 0 0/6 - - - 0.0 -"),
        ("farkle", "0,0 1 0/6 - - - 4.0/3 turn-limit", Code.POSITION_END, "0,0 1 0/6 - - - 6.0/3 turn-limit"),
        ("farkle", "3000,2000 1 0/6 - - - 6.0 target", Code.POSITION_END, "10500,2000 1 0/6 - - 0 6.0 target"),
        ("farkle", "10500,2000 0 0/6 - - 0 6.0 target", Code.POSITION_END, "10500,2000 1 0/6 - - 0 6.0 target"),
        ("5000-fr", "4000,2000 1 0/5 - - - 6.0 exact", Code.POSITION_END, "4000,5000 1 0/5 - - - 6.0 exact"),
        ("farkle", "4000,2000 1 0/6 - - - 6.0 five-ones", Code.POSITION_END,
         "4000,2000 1 0/6 - - - 6.0/3 turn-limit"),
        ("5000-fr-6", "4000,5300 0 0/6 - - - 6.0 target", Code.POSITION_END, "4000,5300 1 0/6 - - - 6.0 target"),
        ("farkle", "10500,2000 1 350/3 - - 0 6.2 target", Code.POSITION_OVER_TURN,
         "10500,2000 1 0/6 - - 0 6.0 target"),
    ],
)
def test_positions_no_game_reaches_are_refused(rules: str, text: str, code: Code | None, mended: str) -> None:
    r = Rules.parse(rules)
    if code is None:  # a position that looks unreachable but is not (the penalty took the points)
        Game.from_position(r, text)
    else:
        with pytest.raises(PositionError) as refused:
            Game.from_position(r, text)
        assert refused.value.code is code, refused.value
    assert Game.from_position(r, mended).position() == mended


def test_a_game_set_up_from_a_position_replays_from_it() -> None:
    rules = Rules.parse("farkle")
    g = Game.from_position(rules, "1000,2500 1 300/3 - - - 7.2 -", ("a", "b"))
    g.play(ROLL, SeededDice("root"))
    root = g.root()
    assert root.position() == "1000,2500 1 300/3 - - - 7.2 -" and root.history == []
    assert Game(rules, ("a", "b")).root().position() == "0,0 0 0/6 - - - 0.0 -"


# -- decisions ---------------------------------------------------------------------------------------


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.sampled_from([ROLL, BANK]), st.booleans())
def test_a_decision_reads_back(dice: list[int], then: Any, alone: bool) -> None:
    decision = Decision(None if alone else SetAside(*dice), then)
    assert Decision.parse(str(decision)) == decision
    if not alone:
        assert Decision.parse(f"  Set aside {' '.join(map(str, dice))} then {str(then)[0]} ") == decision
        assert Decision.parse(f"keep {''.join(map(str, dice))}, then {then}") == decision


def test_decisions_in_words() -> None:
    assert str(Decision(SetAside(1, 5, 5), ROLL)) == "set aside 155, then roll"
    assert str(Decision(None, BANK)) == "bank"
    for text in ("155", "set aside 155", "set aside, then roll", "roll then bank", "set aside 7, then roll",
                 "set aside 1, then jump"):
        with pytest.raises(InvalidMoveError):
            Decision.parse(text)


def test_a_refused_bank_after_a_legal_set_aside_changes_nothing() -> None:
    g = Game.from_position(Rules.parse("farkle,min_bank=300"), "0,0 0 0/6 512346 - - 0.1 -", ("a", "b"))
    before = (g.position(), list(g.history), list(g.events))
    assert Decision(SetAside(5), BANK) not in g.legal_decisions()
    with pytest.raises(IllegalMoveError, match=r"^cannot bank: a bank needs at least 300 \(min_bank=300\)$"):
        g.apply_decision("set aside 5, then bank")
    assert (g.position(), g.history, g.events) == before
    g.apply_decision("set aside 15, then roll")
    assert list(map(str, g.history)) == ["keep 15", "roll"] and g.to_act is CHANCE


def test_a_set_aside_that_reaches_an_exact_target_wins_whatever_follows() -> None:
    rules = Rules.parse("farkle,end=exact,target=1000")
    for then in ("roll", "bank"):
        g = Game.from_position(rules, "850,0 0 0/6 154236 - - 4.1 -", ("a", "b"))
        assert {str(d) for d in g.legal_decisions() if d.set_aside == SetAside(1, 5)} == {
            "set aside 15, then roll", "set aside 15, then bank"}
        g.apply_decision(f"set aside 15, then {then}")
        assert g.to_act is TERMINAL and g.outcome is not None and g.outcome.winners == (0,)
        assert list(map(str, g.history)) == ["keep 15"]


def test_a_decision_from_the_wrong_seat_is_refused() -> None:
    g = Game(Rules.parse("farkle"), ("a", "b"))
    with pytest.raises(IllegalMoveError, match="not b's turn: it is a's"):
        g.apply_decision("roll", player=1)
    g.apply_decision("roll", player=0)
    assert g.to_act is CHANCE


def test_a_game_set_up_from_a_position_has_no_record() -> None:
    from hotdice.game.record import record_of

    with pytest.raises(ValueError, match="set up from a position"):
        record_of(Game.from_position(Rules.parse("farkle"), "0,0 1 0/6 - - - 1.0 -"))
