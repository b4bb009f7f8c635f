"""Every refusal code is reached through the library that makes it, its English sentence is the library's,
and the terminal's catalogue words it in both languages."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import pytest

from hotdice.analysis import coach
from hotdice.game.dice import FixedDice
from hotdice.game.engine import (
    BANK,
    ROLL,
    Decision,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    parse_action,
    roll_off,
)
from hotdice.game.position import position
from hotdice.game.refusals import ENGLISH, Code, Refusal, Refused
from hotdice.game.rules import Rules, RulesError
from hotdice.game.scoring import DiceError, SetAside, parse_dice, scorer
from hotdice.play.codes import ALPHABET
from hotdice.play.modes import Challenge, together
from hotdice.play.training import ScoringQuestion
from hotdice.tui.i18n import LANGUAGES, Translator, catalog


def game(rules: str = "farkle", players: int = 1) -> Game:
    return Game(Rules.parse(rules), [f"P{i}" for i in range(players)])


def play(g: Game, *steps: str) -> Game:
    """Steps: 'roll 122346' (roll, then those dice), 'keep 1', 'bank'."""
    for step in steps:
        word, _, arg = step.partition(" ")
        if word == "roll":
            g.apply(ROLL)
            g.apply_roll(parse_dice(arg))
        else:
            g.apply(SetAside.parse(arg) if word == "keep" else BANK)
    return g


def raised(act: Callable[[], object], error: type[Refused] = Refused) -> Refusal:
    with pytest.raises(error) as info:
        act()
    return info.value.refusal


def position_refusal(rules: str, text: str) -> Refusal:
    return raised(lambda: Game.from_position(Rules.parse(rules), text), PositionError)


def bank(rules: str, *steps: str) -> Refusal:
    """The refusal of a bank after ``steps``: why_not_bank gives the very refusal the error carries."""
    g = play(game(rules), *steps)
    why = g.why_not_bank()
    with pytest.raises(IllegalMoveError) as info:
        g.apply(BANK)
    assert info.value.bank and str(info.value) == f"cannot bank: {why}"
    assert why == info.value.refusal
    return why


def set_aside(rules: str, dice: SetAside, *steps: str) -> Refusal:
    """The refusal of a set-aside after ``steps``: why_not_set_aside gives the very refusal the error carries."""
    g = play(game(rules), *steps)
    why = g.why_not_set_aside(dice)
    assert why is not None and raised(lambda: g.apply(dice), IllegalMoveError) == why
    return why


def rules_error(text: str) -> Refusal:
    return raised(lambda: Rules.parse(text), RulesError)


def challenge_preset() -> Refusal:
    """A code whose checksum holds but whose preset symbol is past the presets: one last symbol fits."""
    for last in ALPHABET:
        try:
            Challenge.parse(f"ZZZZZ-ZZZZ{last}")
        except Refused as exc:
            if exc.code is Code.CHALLENGE_PRESET:
                return exc.refusal
    raise AssertionError("no code names an unknown preset")


def game_over() -> Refusal:
    g = play(game("farkle,target=100"), "roll 122346", "keep 1", "bank")  # one player reaches the target
    assert g.is_over and g.why_not_bank() == Refusal(Code.GAME_OVER)
    return raised(lambda: g.apply(ROLL), IllegalMoveError)


def rolling() -> Refusal:
    g = game()
    g.apply(ROLL)
    assert g.why_not_bank() == Refusal(Code.ROLLING)
    return raised(lambda: g.apply(ROLL), IllegalMoveError)


def set_aside_first() -> Refusal:
    g = play(game(), "roll 122346")
    return raised(lambda: g.apply(ROLL), IllegalMoveError)


def dice_count() -> Refusal:
    g = game()
    g.apply(ROLL)
    return raised(lambda: g.apply_roll((1, 2)), InvalidMoveError)


EXACT = "farkle,end=exact,target=300"
VALIDATE = "farkle,validate=yes"
RULE_4900 = "farkle,dice=5,end=exact,target=1000,rule_4900=yes"

REACHED: dict[Code, Callable[[], Refusal]] = {
    Code.GAME_OVER: game_over,
    Code.NOT_YOUR_TURN: lambda: raised(lambda: game(players=2).apply(ROLL, player=1), IllegalMoveError),
    Code.NO_SUCH_PLAYER: lambda: raised(lambda: game(players=2).apply(ROLL, player=5), IllegalMoveError),
    Code.SET_ASIDE_FIRST: set_aside_first,
    Code.ROLLING: rolling,
    Code.NOT_ROLLING: lambda: raised(lambda: game().apply_roll((1, 2, 3, 4, 5, 6)), IllegalMoveError),
    Code.NO_ROLL: lambda: set_aside("farkle", SetAside(1)),
    Code.EMPTY_SET_ASIDE: lambda: set_aside("farkle", SetAside(), "roll 122346"),
    Code.NOT_IN_ROLL: lambda: set_aside("farkle", SetAside(5), "roll 122346"),
    Code.NOT_SCORING: lambda: set_aside("farkle", SetAside(1, 2), "roll 122346"),
    Code.EVERY_TRIPLE: lambda: set_aside(VALIDATE, SetAside(5), "roll 222345"),
    Code.SET_ASIDE_ALL: lambda: set_aside("5000-fr", SetAside(1), "roll 15236"),
    Code.WOULD_PASS_TARGET: lambda: set_aside(EXACT, SetAside(1, 1, 1), "roll 111234"),
    Code.ROLL_FIRST: lambda: bank("farkle"),
    Code.HOT_DICE_MUST_ROLL: lambda: bank("farkle,hot_dice=must", "roll 123456", "keep 123456"),
    Code.MUST_VALIDATE: lambda: bank(VALIDATE, "roll 222345", "keep 2225"),
    Code.BELOW_ENTRY: lambda: bank("farkle,entry=500,below_entry=roll", "roll 122346", "keep 1"),
    Code.MIN_BANK: lambda: bank("farkle,min_bank=300", "roll 122346", "keep 1"),
    Code.RULE_4900: lambda: bank(RULE_4900, "roll 55523", "keep 555", "roll 11", "keep 11", "roll 11236", "keep 11"),
    Code.EMPTY_RULES: lambda: rules_error(" "),
    Code.UNKNOWN_PRESET: lambda: rules_error("farkel"),
    Code.NOT_KNOB_VALUE: lambda: rules_error("farkle,entry"),
    Code.KNOB_TWICE: lambda: rules_error("farkle,entry=500,entry=300"),
    Code.UNKNOWN_KNOB: lambda: rules_error("farkle,entrance=500"),
    Code.NOT_JSON: lambda: raised(lambda: Rules.from_json("{"), RulesError),
    Code.JSON_NOT_OBJECT: lambda: raised(lambda: Rules.from_json("[]"), RulesError),
    Code.KNOB_TAKES: lambda: rules_error("farkle,end=never"),
    Code.POINTS_TAKES: lambda: rules_error("farkle,entry=lots"),
    Code.TARGET_NOT_POSITIVE: lambda: rules_error("farkle,target=0"),
    Code.TARGET_TOO_HIGH: lambda: rules_error("farkle,target=2000000"),
    Code.NEGATIVE_POINTS: lambda: rules_error("farkle,entry=-50"),
    Code.NOT_MULTIPLE_OF_50: lambda: rules_error("farkle,entry=75"),
    Code.SINGLES_SCORE_NOTHING: lambda: rules_error("farkle,single_1=0,single_5=0"),
    Code.THREE_1S_SCORE_NOTHING: lambda: rules_error("farkle,three_1s=0"),
    Code.ENTRY_ABOVE_TARGET: lambda: rules_error("farkle,entry=20000"),
    Code.MIN_BANK_ABOVE_TARGET: lambda: rules_error("farkle,min_bank=20000"),
    Code.RULE_4900_NOT_EXACT: lambda: rules_error("farkle,end=first,rule_4900=yes"),
    Code.RULE_4900_LOW_TARGET: lambda: rules_error("farkle,end=exact,target=100,rule_4900=yes"),
    Code.SIX_DICE_ONLY: lambda: rules_error("5000,straight=2000"),
    Code.NO_DICE: lambda: raised(lambda: parse_dice(" "), DiceError),
    Code.NOT_A_DIE: lambda: raised(lambda: parse_dice("127"), DiceError),
    Code.TOO_MANY_DICE: lambda: raised(lambda: parse_dice("1234561"), DiceError),
    Code.NOT_A_ROLL: lambda: raised(lambda: scorer(Rules.parse("farkle")).options((1, 7)), DiceError),
    Code.NOT_A_QUESTION: lambda: raised(lambda: ScoringQuestion(Rules.parse("farkle"), (1, 7)), DiceError),
    Code.NOT_ALL_SCORE: lambda: raised(lambda: scorer(Rules.parse("farkle")).partition((1, 2)), DiceError),
    Code.DICE_COUNT: dice_count,
    Code.NOT_AN_ACTION: lambda: raised(lambda: parse_action("jump"), InvalidMoveError),
    Code.UNKNOWN_ACTION: lambda: raised(lambda: game().apply(42), InvalidMoveError),  # type: ignore[arg-type]
    Code.THEN_MISSING: lambda: raised(lambda: Decision.parse("155"), InvalidMoveError),
    Code.NOT_A_DECISION: lambda: raised(lambda: Decision.parse("roll, then bank"), InvalidMoveError),
    Code.PLAYER_COUNT: lambda: raised(lambda: Game(Rules.parse("farkle"), ())),
    Code.TOGETHER_COUNT: lambda: raised(lambda: together(Rules.parse("farkle"), ["Ann"])),
    Code.NO_NAME: lambda: raised(lambda: together(Rules.parse("farkle"), ["Ann", " "])),
    Code.NAME_CONTROL: lambda: raised(lambda: together(Rules.parse("farkle"), ["Ann", "B\x1bob"])),
    Code.NAME_TOO_LONG: lambda: raised(lambda: together(Rules.parse("farkle"), ["Ann", "B" * 25])),
    Code.SAME_NAME: lambda: raised(lambda: together(Rules.parse("farkle"), ["Ann", "Bob", "Ann"])),
    Code.CHALLENGE_CHARACTER: lambda: raised(lambda: Challenge.parse("07DZW-C4TCU")),
    Code.CHALLENGE_LENGTH: lambda: raised(lambda: Challenge.parse("07DZW-C4TC")),
    Code.CHALLENGE_TYPO: lambda: raised(lambda: Challenge.parse(_typo(Challenge("farkle", 12345).code))),
    Code.CHALLENGE_PRESET: challenge_preset,
    **{code: functools.partial(position_refusal, rules, text) for code, (rules, text) in {
           Code.POSITION_FIELDS: ("farkle", "0,0 0"),
           Code.POSITION_FIELD: ("farkle", "0,0 0 0/6 - - - 0.0 won"),
           Code.POSITION_SEATS: ("farkle", ",".join(["0"] * 9) + " 0 0/6 - - - 0.0 -"),
           Code.POSITION_NO_SEAT: ("farkle", "0,0 2 0/6 - - - 0.0 -"),
           Code.POSITION_UNIT: ("farkle", "1025,0 0 0/6 - - - 2.0 -"),
           Code.POSITION_NOT_ENTERED: ("5000", "400~,0 0 0/5 - - - 2.0 -"),
           Code.POSITION_NO_ENTRY: ("farkle", "0~,0 0 0/6 - - - 0.0 -"),
           Code.POSITION_BELOW_ENTRY: ("5000", "300,0~ 0 0/5 - - - 2.0 -"),
           Code.POSITION_NO_TURN: ("farkle", "500,0 0 0/6 - - - 0.0 -"),
           Code.POSITION_FARKLES: ("farkle,three_farkles=500", "0x3,0 0 0/6 - - - 6.0 -"),
           Code.POSITION_TURNS: ("farkle", "0,0 0 0/6 - - - 4.0/2 -"),
           Code.POSITION_PAST_TARGET: ("farkle", "10500,0 1 0/6 - - - 3.0 -"),
           Code.POSITION_LAST_ROUND: ("farkle", "0,0 0 0/6 - - 1 0.0 -"),
           Code.POSITION_HAND: ("farkle", "0,0 0 0/7 - - - 0.0 -"),
           Code.POSITION_END: ("farkle", "3000,2000 1 0/6 - - - 6.0 target"),
           Code.POSITION_OVER_TURN: ("farkle", "10500,2000 1 350/3 - - 0 6.2 target"),
           Code.POSITION_PENDING: ("farkle", "0,0 0 300/3 - v - 0.2 -"),
           Code.POSITION_TURN_TOTAL: ("farkle,end=exact,target=1000", "900,0 0 100/5 - - - 2.1 -"),
           Code.POSITION_ROLL_DICE: ("farkle", "0,0 0 0/6 2346 - - 0.1 -"),
           Code.POSITION_ROLL_ENDS: ("farkle", "0,0 0 0/6 223346 - - 0.1 -"),
           Code.POSITION_FIRST_ROLL: ("farkle", "0,0 0 0/3 123 - - 0.1 -"),
           Code.POSITION_TURN_START: ("farkle", "0,0 0 100/5 - - - 0.0 -"),
       }.items()},
    Code.POSITION_SET_ASIDE: lambda: raised(lambda: position(Rules.parse("farkle"), (100, 0), turn_total=100,
                                                            dice_in_hand=2), PositionError),
    Code.POSITION_NAMES: lambda: raised(lambda: Game.from_position(Rules.parse("farkle"), "0,0 0 0/6 - - - 0.0 -",
                                                                   ("a",)), PositionError),
    Code.ARGUMENT_TYPE: lambda: raised(lambda: game("farkle").apply_decision(None), InvalidMoveError),  # type: ignore[arg-type]
    Code.ARGUMENT_RANGE: lambda: raised(lambda: Game(Rules.parse("farkle"), ["a", "b"], first=2)),
    Code.ARGUMENT_LOW: lambda: raised(lambda: Game(Rules.parse("farkle"), ["a"], turn_limit=0)),
    Code.ARGUMENT_CHOICE: lambda: raised(lambda: coach.advise(game("farkle"), "luck")),
}


def _typo(code: str) -> str:
    """The code with its second character changed."""
    return code[0] + ("1" if code[1] != "1" else "2") + code[2:]


def test_every_code_is_reached_by_a_test() -> None:
    assert set(REACHED) == set(Code)
    assert set(ENGLISH) == set(Code)
    assert len({c.value for c in Code}) == len(Code)


@pytest.mark.parametrize("code", list(Code))
def test_the_library_makes_each_refusal(code: Code) -> None:
    refusal = REACHED[code]()
    assert refusal.code is code
    assert refusal.code == code.value  # a stable string
    assert isinstance(str(refusal), str) and "{" not in str(refusal)


# Today's English sentences, written out: str() of a refusal is exactly the library's sentence.
SENTENCES = {
    Code.GAME_OVER: "the game is over",
    Code.NOT_YOUR_TURN: "it is not P1's turn: it is P0's",
    Code.NO_SUCH_PLAYER: "it is not player 5's turn: it is P0's",
    Code.NOT_IN_ROLL: "5 is not in the roll 122346",
    Code.NOT_SCORING: "12: every die set aside must score, and these do not all score",
    Code.EVERY_TRIPLE: "5: every triple of the roll must be set aside (validate=yes)",
    Code.WOULD_PASS_TARGET: "111 would pass the target of exactly 300 (end=exact): set aside fewer dice",
    Code.BELOW_ENTRY: "the first bank needs 500 in one turn: keep rolling (entry=500)",
    Code.MIN_BANK: "a bank needs at least 300 (min_bank=300)",
    Code.RULE_4900: "a bank may not leave you between 900 and 999: go for the win (rule_4900)",
    Code.NO_NAME: "player 2 needs a name",
    Code.NAME_CONTROL: "player 2's name 'B\N{REPLACEMENT CHARACTER}ob' holds a control character (U+001B)",
    Code.NAME_TOO_LONG: f"player 2's name '{'B' * 25}' is longer than 24 characters",
    Code.UNKNOWN_PRESET: "unknown preset 'farkel'; presets are: ",
    Code.KNOB_TAKES: "end=never is not allowed: end takes last-round or first or exact",
    Code.POINTS_TAKES: "entry=lots is not allowed: entry takes a whole number of points, a multiple of 50",
    Code.TARGET_TOO_HIGH: "target=2000000 is not allowed: the target may be at most 1000000",
    Code.ENTRY_ABOVE_TARGET: "entry=20000 is not allowed: the entry may not be above the target (10000)",
    Code.NOT_A_ROLL: "(1, 7) is not a roll of 1 to 6 dice with faces 1 to 6",
    Code.NOT_ALL_SCORE: "12 do not all score together",
    Code.DICE_COUNT: "2 dice given, but 6 are rolled",
    Code.NOT_AN_ACTION: "'jump' is not an action: say roll, bank or the dice to set aside ('j' is not a die: faces are "
                        "1 to 6)",
    Code.UNKNOWN_ACTION: "42 is not an action",
    Code.PLAYER_COUNT: "a game has 1 to 8 players, not 0",
    Code.TOGETHER_COUNT: "playing together takes 2 to 8 players, not 1",
    Code.SAME_NAME: "two players have the same name: Ann, Bob, Ann",
    Code.CHALLENGE_CHARACTER: "'U' is not in challenge codes: they use 0-9 and A-Z without I, L, O, U",
}


@pytest.mark.parametrize("code", list(SENTENCES))
def test_the_english_is_the_library_sentence(code: Code) -> None:
    text = str(REACHED[code]())
    assert text.startswith(SENTENCES[code]) if code is Code.UNKNOWN_PRESET else text == SENTENCES[code]


def test_an_empty_set_aside_is_refused_not_misread() -> None:
    g = play(game(), "roll 122346")
    why = g.why_not_set_aside(SetAside())
    assert why == Refusal(Code.EMPTY_SET_ASIDE)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(SetAside())
    assert info.value.code is Code.EMPTY_SET_ASIDE and not isinstance(info.value, DiceError)
    assert g.roll == (1, 2, 2, 3, 4, 6), "nothing changed"


def test_refusals_are_json_values() -> None:
    assert REACHED[Code.NOT_IN_ROLL]().to_json() == {"code": "not-in-roll", "values": {"keep": [5],
                                                                                          "roll": [1, 2, 2, 3, 4, 6]}}
    nested = REACHED[Code.NOT_AN_ACTION]().to_json()
    assert nested["values"]["reason"] == {"code": "not-a-die", "values": {"token": "j"}}


def test_the_roll_off_refuses_no_players() -> None:
    assert raised(lambda: roll_off(0, FixedDice([]))).code is Code.PLAYER_COUNT


# -- the terminal's catalogue -----------------------------------------------------------------------

_KNOB_NOTE = re.compile(r" \(\w+=[\w-]+\)(?=$|:)")  # the terminal leaves the knob a refusal names out


def test_the_terminal_has_a_message_for_every_code_in_both_languages() -> None:
    for lang in LANGUAGES:
        missing = [c.value for c in Code if f"refusal.{c.value}" not in catalog(lang)]
        assert not missing, (lang, missing)
        assert "refusal.cannot_bank" in catalog(lang)


@pytest.mark.parametrize("code", list(Code))
def test_the_terminal_words_each_refusal(code: Code) -> None:
    refusal = REACHED[code]()
    english, french = Translator("en").refusal(refusal), Translator("fr").refusal(refusal)
    assert english == _KNOB_NOTE.sub("", str(refusal)), "the terminal's English is the library's, without knob notes"
    assert french != english or not any(ch.isalpha() for ch in english)
    assert "{" not in french


def test_the_terminal_words_a_refused_bank() -> None:
    g = play(game("farkle,min_bank=300"), "roll 122346", "keep 1")
    with pytest.raises(IllegalMoveError) as info:
        g.apply(BANK)
    assert Translator("en").error(info.value) == "cannot bank: a bank needs at least 300"
    assert Translator("fr").error(info.value) == "impossible d'encaisser\u00a0: un encaissement demande au moins 300"
    assert Translator("fr").error(ValueError("plain")) == "plain"


def test_french_joins_choices_with_ou() -> None:
    assert Translator("fr").refusal(REACHED[Code.KNOB_TAKES]()) == (
        "end=never n'est pas permis\u00a0: end prend last-round ou first ou exact")




def test_a_refusal_naming_players_carries_their_seats_for_the_front_end_to_name() -> None:
    """The English names the game holds (a seat nobody named holds its English default) stay in the library's
    sentence; a front end names each seat its own way, from the seat the refusal carries."""
    g = Game(Rules.parse("farkle"), ["Computer (Easy)", "Player 2", "Ann"])
    wrong = raised(lambda: g.apply(ROLL, player=1), IllegalMoveError)
    assert str(wrong) == "it is not Player 2's turn: it is Computer (Easy)'s"
    assert (wrong.values["player_seat"], wrong.values["current_seat"]) == (1, 0)
    nobody = raised(lambda: g.apply(ROLL, player=7), IllegalMoveError)
    assert str(nobody) == "it is not player 7's turn: it is Computer (Easy)'s" and nobody.values["current_seat"] == 0
    shown = ["L’ordinateur (Facile)", "Joueur 2", "Ann"]
    french = Translator("fr")
    assert french.refusal(wrong, lambda seat, _name: shown[seat]) == (
        "ce n'est pas le tour de Joueur 2\u00a0: c'est celui de L’ordinateur (Facile)")
    assert french.error(IllegalMoveError(nobody), lambda seat, _name: shown[seat]) == (
        "ce n'est pas le tour du joueur 7\u00a0: c'est celui de L’ordinateur (Facile)")
    assert Translator("en").refusal(wrong) == str(wrong), "without names, the names the game holds"


def test_the_solvers_refusal_is_worded_from_its_bounds() -> None:
    """Why Hard cannot solve some rules (analysis.solver.TooLong): the terminal's English is its ``str()``, the
    French has no English."""
    from hotdice.analysis.solver import TooLong
    from tests.french_support import english_left

    for reason in (TooLong(10_000, 20_000), TooLong(10_000, 10_050)):
        assert Translator("en").too_long(reason) == str(reason)
        french = Translator("fr").too_long(reason)
        assert not english_left(french, "tui") and f"{reason.max_target}\u202f; target={reason.target}" in french
