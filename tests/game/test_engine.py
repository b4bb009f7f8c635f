"""Hand-written dice sequences for every rule of RULES.md: turns, entry, banks, hot dice, validation,
exact target and bust, instant win, three-farkle penalty, last round and the other endings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.game.dice import FixedDice
from hotdice.game.engine import (
    BANK,
    CHANCE,
    ROLL,
    Decision,
    EventKind,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    Termination,
    parse_action,
    roll_off,
)
from hotdice.game.refusals import Refused
from hotdice.game.rules import End, Rules, SetAsideRule
from hotdice.game.scoring import SetAside, parse_dice, scorer
from tests.game.test_rules import any_rules


def game(rules: str = "farkle", players: int = 2, **kw: object) -> Game:
    return Game(Rules.parse(rules), [f"P{i}" for i in range(players)], **kw)  # type: ignore[arg-type]


def do(g: Game, *steps: str) -> Game:
    """Steps: 'roll 111234' (roll, then those dice), 'keep 111', 'bank'."""
    for step in steps:
        word, _, arg = step.partition(" ")
        if word == "roll":
            g.apply(ROLL)
            g.apply_roll(parse_dice(arg))
        elif word == "keep":
            g.apply(SetAside.parse(arg))
        elif word == "bank":
            g.apply(BANK)
        else:
            raise AssertionError(step)
    return g


def kinds(g: Game) -> list[EventKind]:
    return [e.kind for e in g.events]


# -- a turn ---------------------------------------------------------------------------------------


def test_a_turn_roll_set_aside_bank() -> None:
    g = do(game(), "roll 111234", "keep 111")
    assert g.turn_total == 1000 and g.dice_in_hand == 3 and g.phase is Phase.DECIDE
    assert g.legal_actions() == [ROLL, BANK]
    do(g, "bank")
    assert g.scores == (1000, 0) and g.current == 1 and g.turn_total == 0 and g.dice_in_hand == 6


def test_farkle_loses_the_turn_total_not_the_score() -> None:
    g = do(game(), "roll 111234", "keep 111", "bank", "roll 155234", "keep 1", "roll 23466")
    assert g.scores == (1000, 0) and g.current == 0
    assert EventKind.FARKLE in kinds(g)
    farkle = next(e for e in g.events if e.kind is EventKind.FARKLE)
    assert (farkle.player, farkle.points) == (1, 100)


def test_only_dice_of_one_roll_combine() -> None:
    g = do(game(), "roll 144236", "keep 1", "roll 44123")
    # Two 4s now and one before do not make three 4s.
    assert [str(a) for a in g.legal_actions()] == ["1"]


def test_a_set_aside_must_come_from_the_roll_and_score() -> None:
    g = do(game(), "roll 122346")
    with pytest.raises(IllegalMoveError, match="not in the roll"):
        g.apply(SetAside(1, 1))
    with pytest.raises(IllegalMoveError, match="every die set aside must score"):
        g.apply(SetAside(1, 2))
    with pytest.raises(IllegalMoveError, match="set aside scoring dice"):
        g.apply(ROLL)
    with pytest.raises(IllegalMoveError, match="set aside scoring dice"):
        g.apply(BANK)
    assert g.turn_total == 0 and g.phase is Phase.SET_ASIDE  # nothing changed


def test_cannot_bank_before_rolling_nor_act_out_of_turn() -> None:
    g = game()
    with pytest.raises(IllegalMoveError, match="nothing to bank"):
        g.apply(BANK)
    with pytest.raises(IllegalMoveError, match="not P1's turn: it is P0's"):
        g.apply(ROLL, player=1)
    g.apply(ROLL, player=0)
    with pytest.raises(IllegalMoveError, match="being rolled"):
        g.apply(ROLL)
    assert g.to_act is CHANCE


def test_unreadable_actions_and_dice() -> None:
    for text in ("jump", "keep 7", "k x", ""):
        with pytest.raises(InvalidMoveError):
            parse_action(text)
    assert parse_action("keep 5 1") == SetAside(1, 5) and parse_action("B") is BANK and parse_action("r") is ROLL
    g = game()
    with pytest.raises(IllegalMoveError, match="no roll is asked for"):
        g.apply_roll((1, 2, 3, 4, 5, 6))
    g.apply(ROLL)
    with pytest.raises(InvalidMoveError, match="5 dice given, but 6"):
        g.apply_roll((1, 2, 3, 4, 5))
    with pytest.raises(InvalidMoveError, match="'7' is not a die"):
        g.apply_roll((1, 2, 3, 4, 5, 7))


# -- hot dice -------------------------------------------------------------------------------------


def test_hot_dice_optional_in_farkle() -> None:
    g = do(game(), "roll 111555", "keep 111555")
    assert g.hot_dice and g.dice_in_hand == 6 and g.turn_total == 2500
    assert g.legal_actions() == [ROLL, BANK]
    do(g, "roll 123456", "keep 123456", "bank")  # hot dice again, then bank
    assert g.scores == (4000, 0)
    assert kinds(g).count(EventKind.HOT_DICE) == 2


def test_hot_dice_over_several_rolls() -> None:
    g = do(game(), "roll 122346", "keep 1", "roll 55234", "keep 55", "roll 111", "keep 111")
    assert g.hot_dice and g.dice_in_hand == 6 and g.turn_total == 1200


def test_hot_dice_must_be_rolled_in_5000() -> None:
    g = do(game("5000"), "roll 12345", "keep 12345")
    assert g.hot_dice and g.dice_in_hand == 5 and g.legal_actions() == [ROLL]
    with pytest.raises(IllegalMoveError, match="hot dice must be rolled again"):
        g.apply(BANK)
    do(g, "roll 16234", "keep 1", "bank")
    assert g.scores == (1600, 0)


def test_a_farkle_after_hot_dice_loses_everything() -> None:
    g = do(game(), "roll 111555", "keep 111555", "roll 223346")
    assert g.scores == (0, 0) and g.current == 1


# -- entry ----------------------------------------------------------------------------------------


def test_entry_must_keep_rolling() -> None:
    g = do(game("farkle,entry=500"), "roll 122346", "keep 1")
    with pytest.raises(IllegalMoveError, match="first bank needs 500"):
        g.apply(BANK)
    do(g, "roll 55523", "keep 555", "bank")
    assert g.scores == (600, 0) and g.entered == (True, False)
    do(g, "roll 111234", "keep 111", "bank")  # 1000 >= 500: P1 enters too
    do(g, "roll 122346", "keep 1", "bank")  # once entered, any positive total
    assert g.scores == (700, 1000)


def test_entry_below_is_lost_in_5000() -> None:
    g = do(game("5000"), "roll 12234", "keep 1")
    assert BANK in g.legal_actions()  # the player may stop...
    do(g, "bank")
    assert g.scores == (0, 0) and not g.entered[0]  # ...but nothing is recorded
    assert g.events[-2].kind is EventKind.ENTRY_MISSED and g.events[-2].points == 100
    do(g, "roll 11123", "keep 111", "bank")
    assert g.scores == (0, 1000) and g.entered == (False, True)


def test_min_bank_after_entry() -> None:
    g = do(game("farkle,min_bank=300"), "roll 122346", "keep 1")
    with pytest.raises(IllegalMoveError, match="at least 300"):
        g.apply(BANK)
    do(g, "roll 55523", "keep 555", "bank")
    assert g.scores == (600, 0)


# -- 5000-fr-6: triples kept and validated ---------------------------------------------------------


def test_every_triple_must_be_set_aside() -> None:
    g = do(game("5000-fr-6"), "roll 333124")
    with pytest.raises(IllegalMoveError, match="every triple of the roll must be set aside"):
        g.apply(SetAside(1))
    assert {str(a) for a in g.legal_actions()} == {"333", "1333"}


def test_a_triple_must_be_validated_before_banking() -> None:
    g = do(game("5000-fr-6"), "roll 111523", "keep 1115")
    assert g.turn_total == 1050 and g.must_validate
    with pytest.raises(IllegalMoveError, match="validated"):
        g.apply(BANK)
    do(g, "roll 52", "keep 5")  # the 5 scores: validated
    assert EventKind.VALIDATED in kinds(g) and not g.must_validate
    do(g, "bank")
    assert g.scores == (1100, 0)


def test_a_failed_validation_loses_the_turn() -> None:
    g = do(game("5000-fr-6"), "roll 111523", "keep 1115", "roll 22")
    assert g.scores == (0, 0) and g.current == 1 and EventKind.FARKLE in kinds(g)


def test_a_full_hand_must_be_validated_with_all_six_dice() -> None:
    g = do(game("5000-fr-6"), "roll 111555", "keep 111555")
    assert g.turn_total == 1500 and g.dice_in_hand == 6 and g.legal_actions() == [ROLL]
    do(g, "roll 123466", "keep 1", "bank")
    assert g.scores == (1600, 0)


def test_a_triple_in_the_validating_roll_needs_validating_again() -> None:
    g = do(game("5000-fr-6"), "roll 111523", "keep 1115", "roll 44")
    assert g.scores == (0, 0)  # no scoring dice: lost
    g = do(game("5000-fr-6"), "roll 111234", "keep 111", "roll 444")
    assert [str(a) for a in g.legal_actions()] == ["444"]
    do(g, "keep 444")
    assert g.must_validate and g.hot_dice and g.legal_actions() == [ROLL]


def test_5000_fr_6_entry_and_minimum_then_first_to_5000_wins() -> None:
    g = do(game("5000-fr-6"), "roll 155234", "keep 155", "roll 123", "keep 1")
    with pytest.raises(IllegalMoveError, match="700"):
        g.apply(BANK)  # 300 < entry 700
    g = do(game("5000-fr-6,target=800,entry=0"), "roll 155234", "keep 15")
    with pytest.raises(IllegalMoveError, match="at least 300"):
        g.apply(BANK)
    do(g, "roll 5123", "keep 15", "bank")  # 300
    do(g, "roll 222346", "keep 222", "roll 156", "keep 15", "bank")  # 350, the triple validated by 1-5-6
    do(g, "roll 555234", "keep 555", "roll 514", "keep 5", "bank")  # 300 + 550 >= 800
    assert g.outcome is not None and g.outcome.winners == (0,) and g.outcome.termination is Termination.TARGET
    assert g.scores == (850, 350)


# -- exact target, bust, the 4900 rule, five 1s ------------------------------------------------------


def test_exact_target_offers_no_set_aside_that_passes_it() -> None:
    # RULES.md: where the player chooses a subset, a set-aside that would pass the target is not offered.
    g = do(game("5000-fr,target=1000,entry=0,set_aside=choose"), "roll 55523", "keep 555", "roll 11", "keep 11")
    assert g.turn_total == 700 and g.hot_dice
    do(g, "roll 11236", "keep 11", "bank")  # 900 banked
    do(g, "roll 12346", "keep 1", "bank")  # P1: 100
    do(g, "roll 11236")
    assert [str(o.set_aside) for o in g.options()] == ["1"]  # 11 would pass 1000
    with pytest.raises(IllegalMoveError, match="would pass the target of exactly 1000"):
        g.apply(SetAside(1, 1))
    do(g, "keep 1")
    assert g.outcome is not None and g.outcome.termination is Termination.EXACT and g.outcome.winners == (0,)
    assert g.scores == (1000, 100)


def test_bust_when_every_set_aside_passes_the_exact_target() -> None:
    g = do(game("5000-fr,target=1000,entry=0"), "roll 55523", "keep 555", "roll 11", "keep 11",
           "roll 15236", "keep 15", "roll 523", "keep 5", "roll 52", "keep 5", "bank")  # 950
    do(g, "roll 12346", "keep 1", "bank")
    do(g, "roll 12346")  # only the 1 scores, and 950 + 100 passes 1000: bust
    assert EventKind.BUST in kinds(g)
    assert g.scores == (950, 100) and g.current == 1 and g.turn_total == 0


def test_exact_target_wins_even_with_a_full_hand() -> None:
    g = do(game("5000-fr,target=1000,entry=0,set_aside=choose"), "roll 55523", "keep 555", "roll 11", "keep 11",
           "roll 11236", "keep 11", "bank")  # 900
    do(g, "roll 12346", "keep 1", "bank")
    do(g, "roll 51236", "keep 5", "roll 5236", "keep 5")  # exactly 1000 without a bank
    assert g.outcome is not None and g.outcome.winners == (0,) and g.scores == (1000, 100)


# Player 0 of 5000-fr at 4 900: 750 from 66651, five more of 66615 (hot dice every time), then 444 and a bank.
_TO_4900 = ("roll 66651", "keep 15666", *(["roll 66615", "keep 15666"] * 5), "roll 44423", "keep 444", "bank",
            "roll 22346")


def test_5000_fr_a_player_at_4900_who_rolls_150_passes_and_gives_up_the_turn() -> None:
    """Seed 000: "un joueur qui a 4 900 points et fait 150 points dépasse, et doit passer son tour"."""
    g = do(game("5000-fr"), *_TO_4900)
    assert g.scores == (4900, 0) and g.current == 0
    do(g, "roll 15236")  # 150 points: the 1 and the 5 both score, and both are set aside
    assert kinds(g)[-2:] == [EventKind.BUST, EventKind.TURN]
    assert g.scores == (4900, 0) and g.current == 1 and g.outcome is None
    do(g, "roll 22346", "roll 12346", "keep 1")  # player 1 farkles; player 0's 100 hits 5000 exactly
    assert g.outcome is not None and g.outcome.termination is Termination.EXACT and g.scores == (5000, 0)


def test_5000_fr_house_rule_choose_takes_the_1_alone_to_win() -> None:
    g = do(game("5000-fr,set_aside=choose"), *_TO_4900, "roll 15236")
    assert [str(o.set_aside) for o in g.options()] == ["1", "5"]  # 15 (150) would pass 5000
    do(g, "keep 1")
    assert g.outcome is not None and g.outcome.winners == (0,) and g.scores == (5000, 0)


def test_5000_fr_sets_aside_every_scoring_die() -> None:
    g = do(game("5000-fr"), "roll 15523")
    assert [(str(o.set_aside), o.points) for o in g.options()] == [("155", 200)]
    for set_aside in (SetAside(1), SetAside(5, 5), SetAside(1, 5)):
        refusal = g.why_not_set_aside(set_aside)
        assert str(refusal) == f"{set_aside}: every scoring die of the roll must be set aside (set_aside=all)"
        with pytest.raises(IllegalMoveError, match=r"set_aside=all"):
            g.apply(set_aside)
    do(g, "keep 155")
    assert g.turn_total == 200 and g.dice_in_hand == 2


@pytest.mark.slow
@settings(deadline=None)  # a new rules value builds its scoring tables
@given(any_rules(), st.data())
def test_set_aside_all_offers_exactly_every_scoring_die(rules: Rules, data: st.DataObject) -> None:
    rules = rules.replace(set_aside=SetAsideRule.ALL, end=End.FIRST, rule_4900=False, five_1s_win=False)
    roll = tuple(data.draw(st.lists(st.integers(1, 6), min_size=rules.dice, max_size=rules.dice)))
    g = do(game(str(rules)), "roll " + "".join(map(str, roll)))
    every = scorer(rules).options(roll)  # every scoring subset of the roll
    if not every:
        assert g.phase is not Phase.SET_ASIDE
        return
    # The dice that score in some subset, each face as often as any subset takes it: they score together.
    union = SetAside(*(f for f in range(1, 7) for _ in range(max(o.set_aside.count(f) for o in every))))
    assert [o.set_aside for o in g.options()] == [union] == g.legal_actions()
    assert g.options()[0].points == scorer(rules).score(union)
    assert all(g.why_not_set_aside(o.set_aside) is not None for o in every if o.set_aside != union)


def test_rule_4900() -> None:
    g = do(game("5000-fr,target=1000,entry=0,rule_4900=yes"), "roll 55523", "keep 555", "roll 11", "keep 11",
           "roll 11236", "keep 11")
    assert g.turn_total == 900
    with pytest.raises(IllegalMoveError, match="between 900 and 999"):
        g.apply(BANK)
    do(g, "roll 523", "keep 5")
    assert BANK not in g.legal_actions()


def test_five_1s_win_at_once() -> None:
    g = do(game("5000-fr"), "roll 11111")
    assert g.outcome is not None and g.outcome.termination is Termination.FIVE_ONES
    assert g.outcome.winners == (0,) and g.scores == (0, 0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        g.apply(ROLL)
    g = do(game("5000"), "roll 11111")
    assert g.outcome is None and g.options()[0].points == 1200


# -- three farkles in a row ------------------------------------------------------------------------


def test_three_farkles_penalty_floor_and_restart() -> None:
    g = do(game("farkle,three_farkles=500"), "roll 111234", "keep 111", "bank")  # P0 1000
    for _ in range(3):
        do(g, "roll 122346", "keep 1", "bank")  # P1 banks
        do(g, "roll 223466")  # P0 farkles
    assert g.scores[0] == 500 and g.farkles_in_row[0] == 0
    penalty = [e for e in g.events if e.kind is EventKind.PENALTY]
    assert [(e.player, e.points) for e in penalty] == [(0, 500)]
    for _ in range(3):
        do(g, "roll 122346", "keep 1", "bank")
        do(g, "roll 223466")
    assert g.scores[0] == 0  # 500 - 500
    for _ in range(3):
        do(g, "roll 122346", "keep 1", "bank")
        do(g, "roll 223466")
    assert g.scores[0] == 0  # never below 0


def test_a_bank_breaks_the_farkle_run() -> None:
    g = do(game("farkle,three_farkles=1000", players=1), "roll 111234", "keep 111", "bank")
    do(g, "roll 223466", "roll 223466", "roll 122346", "keep 1", "bank", "roll 223466")
    assert g.scores == (1100,) and g.farkles_in_row == (1,)


# -- endings ---------------------------------------------------------------------------------------


def test_a_player_alone_reaching_the_target_ends_the_game_without_a_last_round() -> None:
    g = do(game("farkle,target=1000", players=1), "roll 111234", "keep 111", "bank")
    assert g.outcome is not None and g.outcome.termination is Termination.TARGET
    assert EventKind.LAST_ROUND not in kinds(g) and kinds(g)[-1] is EventKind.GAME_OVER


def test_last_round_everyone_else_plays_once_then_highest_wins() -> None:
    g = do(game("farkle,target=1000", players=3), "roll 122346", "keep 1", "bank")  # P0 100
    do(g, "roll 111234", "keep 111", "bank")  # P1 reaches 1000: last round
    assert g.last_round_by == 1 and EventKind.LAST_ROUND in kinds(g)
    do(g, "roll 111555", "keep 111555", "bank")  # P2 2500
    assert g.outcome is None and g.current == 0
    do(g, "roll 223466")  # P0 farkles: P1 does not play again
    assert g.outcome is not None and g.outcome.winners == (2,) and g.outcome.termination is Termination.TARGET


def test_last_round_ties_share_the_win() -> None:
    g = do(game("farkle,target=1000"), "roll 111234", "keep 111", "bank", "roll 111234", "keep 111", "bank")
    assert g.outcome is not None and g.outcome.winners == (0, 1)


def test_last_round_starting_player_triggers_second_player_answers() -> None:
    g = do(game("farkle,target=1000", first=1), "roll 111234", "keep 111", "bank")
    assert g.last_round_by == 1 and g.current == 0
    do(g, "roll 111234", "keep 111", "roll 155", "keep 155", "bank")
    assert g.outcome is not None and g.outcome.winners == (0,) and g.scores == (1200, 1000)


def test_first_to_reach_wins_at_once() -> None:
    g = do(game("farkle,target=1000,end=first"), "roll 111234", "keep 111", "bank")
    assert g.outcome is not None and g.outcome.winners == (0,) and g.current == 0


def test_one_player_race_ends_on_reaching_the_target() -> None:
    g = do(game("farkle,target=1000", players=1), "roll 122346", "keep 1", "bank", "roll 111234", "keep 111",
           "bank")
    assert g.outcome is not None and g.turns_played == (2,)


def test_turn_limit() -> None:
    g = game(players=1, turn_limit=10)
    for _ in range(9):
        do(g, "roll 122346", "keep 1", "bank")
    assert g.outcome is None
    do(g, "roll 223466")
    assert g.outcome is not None and g.outcome.termination is Termination.TURN_LIMIT and g.scores == (900,)


def test_play_draws_the_dice_of_each_roll_from_the_source() -> None:
    g = game()
    asked = []

    class Spy(FixedDice):
        def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
            asked.append((n, turn, roll))
            return super().roll(n, turn, roll)

    dice = Spy([(1, 2, 2, 3, 4, 6), (1, 2, 3, 4, 6), (2, 2, 3, 4, 6, 6)])
    g.play(ROLL, dice)
    g.play("keep 1", dice)
    g.play("r", dice)
    g.play("k1", dice)
    g.play("bank", dice)
    g.play("roll", dice)
    assert asked == [(6, 0, 0), (5, 0, 1), (6, 1, 0)]


def test_game_setup_errors() -> None:
    with pytest.raises(ValueError, match="1 to 8 players"):
        Game(Rules(), [f"P{i}" for i in range(9)])
    with pytest.raises(Refused, match="first must be from 0 to 1, not 2"):
        Game(Rules(), ["a", "b"], first=2)


def test_roll_off_highest_starts_ties_roll_again() -> None:
    result = roll_off(3, FixedDice([(6, 2, 6), (3, 5)]))
    assert result.first == 2
    assert result.rounds == (((0, 6), (1, 2), (2, 6)), ((0, 3), (2, 5)))


def test_why_not_set_aside_says_what_apply_would() -> None:
    g = game()
    assert str(g.why_not_set_aside(SetAside(1))) == "there is no roll to set dice aside from: roll first"
    do(g, "roll 122346")
    assert g.why_not_set_aside(SetAside(1)) is None
    for set_aside in (SetAside(1, 1), SetAside(1, 2)):
        reason = g.why_not_set_aside(set_aside)
        with pytest.raises(IllegalMoveError) as info:
            g.apply(set_aside)
        assert reason == info.value.refusal
        assert str(reason) == str(info.value)


@pytest.mark.parametrize(("rules", "steps"), [
    ("farkle,entry=500", ["roll 122346"]),
    ("5000", ["roll 12345"]),
    ("5000-fr-6", ["roll 111523"]),
    ("5000-fr,target=1000,entry=0,rule_4900=yes", ["roll 55523", "keep 555", "roll 11", "keep 11", "roll 11236"]),
    ("5000-fr,target=1000,entry=0", ["roll 55523", "keep 555", "roll 11", "keep 11", "roll 15236", "keep 15",
                                     "roll 523", "keep 5", "roll 51"]),
])
def test_why_not_bank_after_says_what_the_engine_will_say(rules: str, steps: list[str]) -> None:
    g = do(game(rules), *steps)
    for option in g.options():
        after = do(game(rules), *steps, f"keep {option.set_aside}")
        expected = None if after.is_over or after.current != g.current else after.why_not_bank()
        assert g.why_not_bank_after(option) == expected


# -- undo (the score pad) ---------------------------------------------------------------------------


@pytest.mark.slow
@settings(deadline=None, max_examples=60)
@given(any_rules(), st.data())
def test_undone_is_the_game_before_the_last_roll_or_decision(rules: Rules, data: st.DataObject) -> None:
    g = Game(rules, ["A", "B"])
    assert g.undone().history == [] and g.undone().position() == g.position()
    for _ in range(data.draw(st.integers(1, 40))):
        if g.outcome is not None:
            break
        before = g.clone()
        if g.phase is Phase.CHANCE:
            g.apply_roll(data.draw(st.lists(st.integers(1, 6), min_size=g.dice_in_hand, max_size=g.dice_in_hand)))
        else:
            set_aside = None
            if g.phase is Phase.SET_ASIDE:
                set_aside = data.draw(st.sampled_from(g.options())).set_aside
            then = data.draw(st.sampled_from([ROLL, BANK]))
            try:
                g.apply_decision(Decision(set_aside, then))
            except IllegalMoveError:
                g.apply_decision(Decision(set_aside, BANK if then is ROLL else ROLL))
        undone = g.undone()
        assert undone.history == before.history
        assert undone.position() == before.position() and undone.events == before.events


def test_undone_takes_back_a_set_aside_with_its_roll_then_the_dice() -> None:
    g = do(game(), "roll 155234")
    g.apply_decision(Decision(SetAside.parse("15"), ROLL))
    g.apply_roll((2, 3, 4, 6))  # a farkle: the turn passes
    assert g.current == 1
    g = g.undone()
    assert g.current == 0 and g.phase is Phase.CHANCE and g.turn_total == 150 and g.dice_in_hand == 4
    g = g.undone()
    assert g.phase is Phase.SET_ASIDE and g.roll == (1, 5, 5, 2, 3, 4) and g.turn_total == 0
    assert [str(s) for s in g.undone().history] == ["roll"]


def test_a_pickled_game_plays_on_without_carrying_its_scoring_tables() -> None:
    import pickle

    from hotdice.game.dice import SeededDice

    game = Game(Rules.parse("farkle"), ("a", "b"))
    game.play("roll", SeededDice(b"pickle"))
    text = pickle.dumps(game)
    again = pickle.loads(text)
    assert len(text) < 10_000 and again.position() == game.position()
    assert again.legal_actions() == game.legal_actions()
