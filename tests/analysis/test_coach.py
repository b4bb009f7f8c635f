"""The coach around the solver: the post-game review (skill apart from luck), and the ``solve``, ``advise``
and ``plot`` commands.

The review is checked by bookkeeping that must hold exactly whatever the values are: over one turn, the
value the turn ends with minus the value it started with is the luck of its rolls less the cost of its
decisions; and against values computed here from the expected-points tables and the solved table.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from hotdice.analysis.coach import advise, measure_for
from hotdice.analysis.expectation import turn_values
from hotdice.analysis.solver import two_player_solution
from hotdice.cli import main
from hotdice.game.engine import Game
from hotdice.game.position import position
from hotdice.game.rules import Rules

# -- the commands -----------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    captured = capsys.readouterr()
    return int(stop.value.code or 0), captured.out, captured.err


def test_solve_two_players_reports_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    text = "5000-fr,target=1000,entry=0"
    code, out, err = run(capsys, "solve", "--rules", text, "--json", "--check")
    assert (code, err) == (0, "")
    data = json.loads(out)
    sol = two_player_solution(Rules.parse(text))
    assert data["first_player_wins"] == pytest.approx(float(sol.w[0, 0]), abs=1e-12)
    # The fairest handicap, by brute force over every head start (seat k = k * 50 points).
    gaps = [abs(float(sol.w[0, k]) - 0.5) for k in range(sol.w.shape[0])]
    assert data["handicap"] == 50 * int(np.argmin(gaps))
    assert data["first_player_wins_with_handicap"] == pytest.approx(float(sol.w[0, int(np.argmin(gaps))]))
    assert data["residual"] <= 1e-9
    code, out, _ = run(capsys, "solve", "--rules", text)
    assert code == 0 and f"{100 * sol.w[0, 0]:.1f} %" in out and "handicap" in out


def test_solve_solo_reports_points_thresholds_and_turns(capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.parse("5000,target=1000")
    code, out, _ = run(capsys, "solve", "--rules", str(rules), "--players", "1", "--json")
    data = json.loads(out)
    tv = turn_values(rules)
    assert code == 0
    assert data["turn_points"] == pytest.approx(tv.turn_value())
    assert data["first_turn_points"] == pytest.approx(tv.turn_value(entered=False))
    for row in data["bank_thresholds"]:
        t, n = row["bank_from"], row["dice"]
        assert not tv.should_roll(t, n) and all(not tv.should_roll(x, n) for x in range(t, tv.cap + 50, 50))
        assert t == 50 or tv.should_roll(t - 50, n)
    assert 1 < data["turns_to_target"] < 20


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("solve", "--players", "3"), "--players 3"),
        (("solve", "--rules", "nope"), "unknown preset"),
        (("advise", "--scores", "x,1", "1"), "--scores"),
        (("advise", "--scores", "0,0", "1", "7"), "'7' is not a die"),
        (("advise", "--scores", "0,0", "--dice-left", "2", "1"), "1 dice given"),
        (("advise", "--scores", "0,20000", "1"), "20000 points with the game still on"),
        (("advise", "--scores", "100,0", "--turn", "100", "--dice-left", "2"), "turn total of 100 and leave 2"),
        (("advise", "1"), "--scores"),
        (("advise", "--position", "0,0 0 0/6 - - -"), "not 8"),
        (("advise", "--position", "0,0 0 0/6 - - - 0.0 -", "--scores", "0,0"), "give no --scores"),
        (("advise", "--position", "0,0 1 0/6 ? - - 1.0 -"), "give them (DICE)"),
        (("advise", "--position", "0,0 0 0/6 125346 - - 0.1 -", "1"), "set aside scoring dice"),
        (("plot", "--chart", "pie"), "--chart pie"),
        (("plot", "--output", "/nonexistent/folder"), "no such folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                          words: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("hotdice: error: ") and words in err


def test_advise_lists_every_set_aside_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    text = "farkle,target=1000"
    code, out, _ = run(capsys, "advise", "--rules", text, "--scores", "300,450", "--turn", "200", "--dice-left",
                       "4", "1", "5", "5", "2", "--json")
    data = json.loads(out)
    game = position(Rules.parse(text), (300, 450), turn_total=200, dice_in_hand=4)
    game.apply("roll")
    game.apply_roll((1, 5, 5, 2))
    expected = advise(game)
    assert code == 0 and data["measure"] == "win"
    assert sorted(c["keep"] for c in data["choices"]) == sorted(str(o.set_aside) for o in game.options())
    assert [c["value"] for c in data["choices"]] == pytest.approx([c.value for c in expected.choices])
    values = [c["value"] for c in data["choices"]]
    assert values == sorted(values, reverse=True)
    assert [c["cost"] for c in data["choices"]] == pytest.approx([values[0] - v for v in values])
    code, out, _ = run(capsys, "advise", "--rules", text, "--scores", "300,450", "--turn", "200", "-d", "4",
                       "1552")
    assert code == 0 and "best" in out and "set aside 155" in out


def test_advise_without_dice_is_roll_or_bank_and_says_farkle(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", "--scores", "500", "--turn", "300", "--dice-left", "3", "--rules",
                       "farkle,target=1000", "--json")
    data = json.loads(out)
    assert code == 0 and data["measure"] == "turns"
    assert {c["then"] for c in data["choices"]} == {"roll", "bank"}
    code, out, _ = run(capsys, "advise", "--scores", "0,0", "2", "2", "3", "4", "6", "6")
    assert code == 0 and out.startswith("Farkle")


def test_advise_reads_a_whole_position(capsys: pytest.CaptureFixture[str]) -> None:
    text = "farkle,target=1000"
    by_numbers = run(capsys, "advise", "--rules", text, "--scores", "300,450", "--turn", "200", "-d", "4", "1552",
                     "--json")
    game = position(Rules.parse(text), (300, 450), turn_total=200, dice_in_hand=4)
    assert game.position() == "300,450 0 200/4 - - - 2.2 -"
    assert run(capsys, "advise", "--rules", text, "--position", game.position(), "1552", "--json") == by_numbers
    # The seat to act is whoever the position says: here the second player, with the roll on the table.
    code, out, _ = run(capsys, "advise", "--rules", text, "--position", "450,300 1 200/4 1552 - - 3.3 -", "--json")
    data = json.loads(out)
    seat_1 = Game.from_position(Rules.parse(text), "450,300 1 200/4 1552 - - 3.3 -")
    assert code == 0 and data["dice"] == [1, 5, 5, 2] and data["scores"] == [450, 300]
    assert [c["value"] for c in data["choices"]] == pytest.approx([c.value for c in advise(seat_1).choices])
    assert [c["value"] for c in data["choices"]] == pytest.approx([c["value"] for c in json.loads(by_numbers[1])[
        "choices"]])  # the same game seen from the other chair


def test_advise_says_farkle_alone_at_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    # Alone, the next turn is the same player's again: the farkle is still told, not advised over.
    code, out, _ = run(capsys, "advise", "--scores", "500", "--rules", "farkle,target=1000", "2", "2", "3", "4", "6",
                       "6", "--json")
    assert code == 0 and json.loads(out)["outcome"] == "farkle" and json.loads(out)["choices"] == []


def test_plot_writes_both_charts(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    code, out, _ = run(capsys, "plot", "--rules", "5000-fr,target=1000,entry=0", "--output", str(tmp_path))
    paths = out.split()
    assert code == 0 and len(paths) == 2
    for path in paths:
        with open(path, "rb") as f:
            head = f.read()
        assert head.startswith(b"\x89PNG") and len(head) > 10_000


def test_a_turn_total_past_the_target_is_banked_when_that_wins() -> None:
    rules = Rules.parse("farkle,target=1500,end=first")
    game = position(rules, (0, 1100), turn_total=2000, dice_in_hand=1)
    assert game.why_not_bank() is None
    best = advise(game).best
    assert (best.then, best.value) == ("bank", 1.0)


def test_a_triple_that_must_be_validated_is_not_yet_won() -> None:
    rules = Rules.parse("5000-fr-6,target=600,entry=350")
    game = position(rules, (550, 0))
    game.apply("roll")
    game.apply_roll((6, 6, 6, 2, 3, 4))
    (triple,) = [c for c in advise(game).choices if str(c.set_aside) == "666"]
    # Three dice must score before the 1150 can be banked (and win): 1 - P(farkle with three dice) at best.
    assert triple.value < 1.0


def test_rules_too_long_to_solve_now_fall_back_to_expected_points() -> None:
    assert measure_for(Game(Rules.parse("farkle"), ["a", "b"])) == "win"
    assert measure_for(Game(Rules.parse("farkle,target=20000,three_farkles=500"), ["a", "b"])) == "points"
    assert measure_for(Game(Rules.parse("farkle,three_farkles=500"), ["a", "b"])) == "win"  # solved when asked
    assert measure_for(Game(Rules.parse("farkle,three_farkles=1000"), ["a", "b"])) == "win"  # shipped
    assert measure_for(Game(Rules.parse("farkle,target=2000,three_farkles=1000"), ["a", "b"])) == "win"
