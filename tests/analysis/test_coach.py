"""The coach around the solver: the post-game review (skill apart from luck), and the ``solve``, ``advise``
and ``plot`` commands.

The review is checked by bookkeeping that must hold exactly whatever the values are: over one turn, the
value the turn ends with minus the value it started with is the luck of its rolls less the cost of its
decisions; and against values computed here from the expected-points tables and the solved table.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.analysis.coach import advise, measure_for
from hotdice.analysis.expectation import turn_values
from hotdice.analysis.review import Review, full_review, review
from hotdice.analysis.solver import two_player_solution
from hotdice.cli import main
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game, Phase, Roll
from hotdice.game.position import position
from hotdice.game.record import record_of
from hotdice.game.refusals import Refused
from hotdice.game.rules import Rules
from hotdice.play.players import make_player, play_game

# -- the review: bookkeeping ------------------------------------------------------------------------------


def turn_ends(game: Game, player: int) -> dict[int, tuple[float, float]]:
    """Per turn of ``player`` (numbered from 1): the value for them when it starts and when it has ended
    (the next player's start, seen from their side, or the result), replaying the game."""
    again = Game(game.rules, players=game.players, first=game.first, turn_limit=game.turn_limit)
    out: dict[int, tuple[float, float]] = {}
    current: tuple[int, float] | None = None  # the player's turn in progress: its number, its start value
    steps = iter(game.history)
    while True:
        starting = again.phase is Phase.DECIDE and again.turn_total == 0 and again.rolls_this_turn == 0
        if current is not None and (again.is_over or (starting and again.turn + 1 != current[0])):
            if again.outcome is not None:
                end = 1.0 / len(again.outcome.winners) if player in again.outcome.winners else 0.0
            else:
                end = 1.0 - advise(again).best.value
            out[current[0]] = (current[1], end)
            current = None
        if current is None and starting and again.to_act == player:
            current = (again.turn + 1, advise(again).best.value)
        step = next(steps, None)
        if step is None:
            return out
        if isinstance(step.move, Roll):
            again.apply_roll(step.move.dice)
        else:
            again.apply(step.move)


@pytest.mark.parametrize("text", ["farkle,target=1000", "5000-fr,target=1000,entry=0", "5000,target=1000"])
@pytest.mark.parametrize("seed", range(3))
def test_each_turn_changes_the_chance_by_luck_less_skill(text: str, seed: int) -> None:
    rules = Rules.parse(text)
    specs = ("random", "hard") if seed % 2 else ("medium", "easy")
    game = Game(rules, players=specs)
    play_game(game, [make_player(s, random.Random(f"{seed}/{k}")) for k, s in enumerate(specs)],
              SeededDice(f"turns/{seed}"))
    for player in (0, 1):
        rev = full_review(game, player)
        for turn, (start, end) in turn_ends(game, player).items():
            luck = sum(r.luck for r in rev.rolls if r.turn == turn)
            cost = sum(d.cost for d in rev.decisions if d.turn == turn)
            assert end - start == pytest.approx(luck - cost, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    text=st.sampled_from(["farkle", "5000", "5000-fr-6", "farkle,hot_dice=must,min_bank=300", "5000-fr,entry=350"]),
    spec=st.sampled_from(["random", "easy", "greedy:500"]),
    seed=st.integers(0, 2**32),
)
def test_one_turn_for_points_ends_with_its_expectation_plus_luck_less_skill(text: str, spec: str, seed: int) -> None:
    rules = Rules.parse(text)
    game = Game(rules, players=("solo",), turn_limit=1)
    play_game(game, [make_player(spec, random.Random(seed))], SeededDice(str(seed)))
    rev = full_review(game, 0)
    assert rev.measure == "points"
    expected = turn_values(rules).turn_value(entered=rules.entry == 0)
    assert game.scores[0] - expected == pytest.approx(rev.luck - rev.skill, abs=1e-9)
    assert all(d.cost >= 0 for d in rev.decisions)


# -- the review: values ---------------------------------------------------------------------------------


def test_a_bank_too_early_costs_what_the_expected_points_say() -> None:
    # One turn for points: 1 from 1-2-3-4-6-6 (100, five dice left), then a bank instead of rolling five dice.
    rules = Rules.parse("farkle")
    game = Game(rules, players=("solo",), turn_limit=1)
    for action, dice in (("roll", "123466"), ("keep 1", None), ("bank", None)):
        game.apply(action)
        if dice:
            game.apply_roll(tuple(map(int, dice)))
    mistakes = review(game, 0)
    assert len(mistakes) == 1
    (bank,) = mistakes
    tv = turn_values(rules)
    assert (bank.turn, bank.turn_total, bank.played.then, bank.best.then) == (1, 100, "bank", "roll")
    assert bank.cost == pytest.approx(tv.roll_value(100, 5) - 100, abs=1e-9)
    rev = full_review(game, 0)
    assert rev.rolls[0].before == pytest.approx(tv.turn_value(), abs=1e-9)
    assert rev.rolls[0].after == pytest.approx(max(tv.roll_value(100, 5), 100.0), abs=1e-9)


def test_the_costliest_set_aside_of_a_two_player_game() -> None:
    # farkle to 500, 0 against 300, 400 set aside, roll 1-5-6: a 5 leaves 450 below the target; the 1
    # reaches 500 and hands the opponent a last turn needing only 200 more than their 300.
    rules = Rules.parse("farkle,target=500")
    game = position(rules, (0, 300), turn_total=400, dice_in_hand=3)
    game.apply("roll")
    game.apply_roll((1, 5, 6))
    values = {str(c.set_aside): c.value for c in advise(game).choices}
    game.apply("keep 1")
    game.apply("bank")
    assert game.last_round_by == 0
    mistakes = review(game, 0)  # from the position on: the game was set up there
    (set_aside,) = [m for m in mistakes if m.roll == (1, 5, 6)]
    (bank,) = [m for m in mistakes if m.turn_total == 500]
    assert (str(set_aside.played.set_aside), str(set_aside.best.set_aside), set_aside.roll) == ("1", "5", (1, 5, 6))
    assert set_aside.cost == pytest.approx(values["5"] - values["1"], abs=1e-12)
    # The bank is worth one minus the opponent's chance to pass 200 more in their last turn (the last-turn
    # table is checked against a plain value iteration in test_solver.py).
    sol = two_player_solution(rules)
    assert (bank.played.then, bank.turn_total) == ("bank", 500)
    assert bank.played.value == pytest.approx(1 - sol.final[1, 200 // 50], abs=1e-12)
    assert bank.best.then == "roll" and bank.cost > 0


def test_hard_makes_no_mistake_and_medium_some() -> None:
    rules = Rules.parse("5000-fr,target=1000,entry=0")
    found = []
    for seed in range(4):
        game = Game(rules, players=("hard", "medium"))
        play_game(game, [make_player("hard", random.Random(seed)), make_player("medium", random.Random(seed))],
                  SeededDice(f"review/{seed}"))
        record = record_of(game)
        assert review(record, 0) == []
        found += review(record, 1)
        for m in review(game, 1):
            assert m.cost > 0 and m.played != m.best
    assert found
    costs = [m.cost for m in found]
    assert all(c > 1e-9 for c in costs)
    assert isinstance(full_review(game, 1), Review)


def test_review_refuses_a_player_who_is_not_there() -> None:
    game = Game(Rules.parse("farkle"), players=("a", "b"))
    with pytest.raises(Refused, match="player must be from 0 to 1, not 2"):
        review(game, 2)


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
