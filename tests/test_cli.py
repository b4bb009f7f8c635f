"""The ``hotdice`` command, run as a real subprocess (what a user types, what a script reads back).

Figures are checked against independent sources: the set-asides against the brute-force search of
``tests/reference.py`` (written from RULES.md, sharing no code with src/), the farkle risks against the
table of seed 003 ("Le risque de Farkle": 2,3 % ... 66,7 %) and against an enumeration of every roll.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hotdice.game.rules import KNOBS, Rules, SetAsideRule
from hotdice.game.scoring import scoring_table
from hotdice.game.variants import VARIANTS
from tests.reference import legal_set_asides

PRESETS = [v.name for v in VARIANTS]
# A fixed, wide terminal so that rich neither wraps nor colours differently from one machine to the next.
ENV = {**os.environ, "COLUMNS": "200", "LINES": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
ENV.pop("FORCE_COLOR", None)


def hotdice(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``hotdice ARGS`` (with ``stdin`` as its input); each distinct call runs once, the tests share it."""
    return _run(args, stdin)


@functools.cache
def _run(args: tuple[str, ...], stdin: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hotdice.cli", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
        check=False,
    )


def ok(*args: str, stdin: str | None = None) -> str:
    """Stdout of a call that must succeed quietly."""
    proc = hotdice(*args, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Traceback" not in proc.stdout
    return proc.stdout


def ok_json(*args: str) -> Any:
    return json.loads(ok(*args))


def table_rows(text: str) -> list[list[str]]:
    """The body rows of a rich table, as lists of stripped cells (header and rules left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("│"):
            rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows


def is_sub_multiset(part: list[int], whole: list[int]) -> bool:
    return not Counter(part) - Counter(whole)


def farkle_risk(rules: Rules, n: int) -> Fraction:
    """P(a roll of n dice has no legal set-aside), by the reference search over every distinct roll."""
    total = Fraction(0)
    for roll in itertools.combinations_with_replacement(range(1, 7), n):
        if not legal_set_asides(roll, rules):
            ways = math.factorial(n)
            for c in Counter(roll).values():
                ways //= math.factorial(c)
            total += Fraction(ways, 6**n)
    return total


# -- score ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_score_dice_written_apart_or_together_agree() -> None:
    assert ok("score", "1", "1", "1", "1", "5", "5") == ok("score", "111155")


def test_score_human_output_best_first_with_points_and_dice_left() -> None:
    text = ok("score", "1", "1", "1", "1", "5", "5")
    rows = table_rows(text)
    assert rows[0] == ["1 1 1 1 5 5", "1200", "0 — hot dice"]
    points = [int(r[1]) for r in rows]
    assert points == sorted(points, reverse=True)
    # Same set-asides, same order, as the JSON output.
    data = ok_json("score", "111155", "--json")
    assert [(r[0], int(r[1]), int(r[2].split()[0])) for r in rows] == [
        (" ".join(map(str, o["keep"])), o["points"], o["dice_left"]) for o in data["options"]
    ]
    # Four 1s are 1100 (1000 + 100), not 1000 (RULES.md); 1-1-1-1 + 5-5 is 1200.
    assert ["1 1 1 1", "1100", "2"] in rows


# Rolls whose set-asides are checked against the reference search, read one per line from stdin.
SCORED = {
    "farkle": ["111155", "123456", "222233", "112233", "5"],
    "5000": ["12345", "11115"],
    "5000-fr": ["23456", "11111"],
    "5000-fr-6": ["111235", "666666"],
}


def scored_stdin(preset: str) -> str:
    return "".join(f"{dice}\n" for dice in SCORED[preset])


def test_score_json_has_exactly_the_documented_keys() -> None:
    data = ok_json("score", "111155", "--json")
    assert set(data) == {"dice", "rules", "set_aside", "farkle", "wins_game", "best", "options"}
    assert data["set_aside"] == "choose"
    assert data["best"] == {"keep": [1, 1, 1, 1, 5, 5], "points": 1200}
    assert data["options"][0] == {"keep": [1, 1, 1, 1, 5, 5], "points": 1200, "dice_left": 0}


@pytest.mark.parametrize("preset", PRESETS)
def test_score_json_lists_every_legal_set_aside_once(preset: str) -> None:
    rules = Rules.parse(preset)
    lines = ok("score", "--rules", preset, "-", stdin=scored_stdin(preset)).splitlines()
    assert len(lines) == len(SCORED[preset])
    for dice, line in zip(SCORED[preset], lines, strict=True):
        data = json.loads(line)
        assert set(data) == {"dice", "rules", "set_aside", "farkle", "wins_game", "best", "options"}
        assert data["set_aside"] == rules.set_aside.value
        roll = [int(d) for d in dice]
        assert data["dice"] == roll
        assert data["rules"] == preset
        assert data["farkle"] is False
        keeps = [tuple(o["keep"]) for o in data["options"]]
        assert len(keeps) == len(set(keeps)), f"{dice}: a set-aside is listed twice"
        for o in data["options"]:
            assert o["keep"] == sorted(o["keep"])
            assert is_sub_multiset(o["keep"], roll), (dice, o)
            assert o["dice_left"] == len(roll) - len(o["keep"])
            assert o["points"] > 0
        expected = legal_set_asides(tuple(roll), rules)
        if rules.set_aside is SetAsideRule.ALL:  # the game takes every scoring die: one set-aside, the largest
            largest = max(expected, key=len)
            assert all(len(k) < len(largest) for k in expected if k != largest)
            expected = {largest: expected[largest]}
        assert {tuple(o["keep"]): o["points"] for o in data["options"]} == expected, dice
        points = [o["points"] for o in data["options"]]
        assert points == sorted(points, reverse=True)
        assert data["best"] == {"keep": data["options"][0]["keep"], "points": max(expected.values())}


def test_score_json_farkle_has_no_best() -> None:
    roll = (2, 2, 3, 4, 6, 6)
    assert legal_set_asides(roll, Rules.parse("farkle")) == {}  # really a farkle
    data = ok_json("score", "2", "2", "3", "4", "6", "6", "--json")
    assert data == {
        "dice": list(roll),
        "rules": "farkle",
        "set_aside": "choose",
        "farkle": True,
        "wins_game": False,
        "best": None,
        "options": [],
    }
    text = ok("score", "223466")
    assert "farkle — nothing scores" in text
    assert table_rows(text) == []


def test_five_ones_win_the_game_only_under_5000_fr() -> None:
    data = ok_json("score", "--rules", "5000-fr", "1", "1", "1", "1", "1", "--json")
    assert data["wins_game"] is True
    assert data["best"]["keep"] == [1, 1, 1, 1, 1]
    assert ok_json("score", "--rules", "farkle", "1", "1", "1", "1", "1", "--json")["wins_game"] is False


def test_score_stdin_one_json_object_per_line() -> None:
    lines = ok("score", "-", stdin="111155\n23466\n").splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == ok_json("score", "111155", "--json")
    second = json.loads(lines[1])
    assert second["dice"] == [2, 3, 4, 6, 6]
    assert second["farkle"] is True
    assert second["best"] is None


def test_score_stdin_bad_line_names_its_number() -> None:
    proc = hotdice("score", "-", stdin="111155\n12a\n5\n")
    assert proc.returncode == 2
    err = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(err) == 1
    assert err[0].startswith("hotdice: error: line 2")
    assert "Traceback" not in proc.stdout + proc.stderr


# -- odds -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_odds_json_gives_exact_farkle_risks(preset: str) -> None:
    rules = Rules.parse(preset)
    data = ok_json("odds", "--rules", preset, "--json")
    assert data["rules"] == preset
    assert [row["dice"] for row in data["dice"]] == list(range(1, rules.dice + 1))
    for row in data["dice"]:
        risk = Fraction(row["farkle"])
        assert risk == farkle_risk(rules, row["dice"])
        assert row["farkle_percent"] == pytest.approx(100 * float(risk), abs=1e-4)
        assert sum(Fraction(p) for p in row["best"].values()) == 1
        assert Fraction(row["best"].get("0", "0")) == risk


@pytest.mark.parametrize("preset", PRESETS)
def test_odds_table_has_one_row_per_number_of_dice(preset: str) -> None:
    rules = Rules.parse(preset)
    rows = table_rows(ok("odds", "--rules", preset))
    assert [int(r[0]) for r in rows] == list(range(rules.dice, 0, -1))
    exact = {row["dice"]: row["farkle"] for row in ok_json("odds", "--rules", preset, "--json")["dice"]}
    assert all(r[2] == exact[int(r[0])] for r in rows)


def test_odds_farkle_percent_column_matches_seed_003() -> None:
    rows = table_rows(ok("odds"))
    assert [r[1] for r in rows] == ["2.3 %", "7.7 %", "15.7 %", "27.8 %", "44.4 %", "66.7 %"]
    assert rows == table_rows(ok("odds", "--rules", "farkle"))


# -- rules ------------------------------------------------------------------------------------

# Spot checks written from RULES.md, independent of scoring_table().
RULES_MD_LINES = {
    "farkle": [
        ("A 1", 100),
        ("A 5", 50),
        ("Three 1s", 1000),
        ("Three 6s", 600),
        ("Four of a kind", 1000),
        ("Five of a kind", 2000),
        ("Six of a kind", 3000),
        ("Straight 1-6", 1500),
        ("Three pairs", 1500),
        ("Two triples", 2500),
    ],
    "5000": [("Three 1s", 1000), ("Three 2s", 200), ("Straight 1-5", 1500)],
    "5000-fr": [("Three 1s", 1000), ("Straight 1-5", 750), ("Straight 2-6", 750)],
    "5000-fr-6": [("A 1", 100), ("A 5", 50), ("Three 1s", 1000), ("Three 5s", 500)],
}


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_prints_rules_string_and_scoring_table(preset: str) -> None:
    text = ok("rules", preset)
    assert f"Rules: {preset}" in text.splitlines()
    rows = [r for r in table_rows(text) if len(r) == 2]
    assert rows == [[line.name, str(line.points)] for line in scoring_table(Rules.parse(preset))]
    for name, pts in RULES_MD_LINES[preset]:
        assert any(r[0].startswith(name) and r[1] == str(pts) for r in rows), (name, pts)
    if preset != "farkle":
        assert not any("pairs" in r[0] or "Straight 1-6" in r[0] or "of a kind" in r[0] for r in rows)
    if preset == "5000-fr-6":
        assert not any(r[0].startswith("Straight") for r in rows)


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_shows_only_the_knobs_that_act(preset: str) -> None:
    r = Rules.parse(preset)
    shown = [row[0] for row in table_rows(ok("rules", preset)) if len(row) == 3 and row[0] not in ("", "knob")]
    assert shown == [k.name for k in r.acting_knobs()]
    data = json.loads(ok("rules", preset, "--json"))
    assert [name for name in data if name not in ("rules", "scoring")] == shown
    assert all(data[name] == value for name, value in r.to_json().items() if name in data)
    if preset.startswith("5000"):
        assert not {"four_kind", "five_kind", "six_kind"} & set(shown)  # kinds=none: only triples score
    if r.dice == 5:
        assert not {"straight", "three_pairs", "two_triplets", "four_kind_pair"} & set(shown)
    assert data["set_aside"] == ("all" if preset == "5000-fr" else "choose")


def test_rules_list_names_the_four_presets() -> None:
    rows = table_rows(ok("rules", "--list"))
    assert [r[0] for r in rows] == ["farkle", "5000", "5000-fr", "5000-fr-6"]


def test_rules_help_lists_every_knob() -> None:
    text = ok("rules", "--help")
    for knob in KNOBS:
        assert f"{knob.name}: " in text, knob.name


# -- mistakes ---------------------------------------------------------------------------------


BAD_INPUTS = [
    (("score", "1", "7"), "'7'"),
    (("score", "abc"), "'a'"),
    (("score", "1111111"), "7 dice"),
    (("score", "--rules", "5000", "111111"), "6 dice"),
    (("odds", "--rules", "foo"), "unknown preset 'foo'"),
    (("score", "--rules", "farkle,hot_dice=maybe", "1"), "hot_dice"),
    (("score", "--rules", "farkle,target=-50", "1"), "target"),
    (("score", "--rules", "farkle,entry=20000", "1"), "entry"),
    (("odds", "--rules", "farkle,nosuch=1"), "nosuch"),
    (("rules", "5000,straight=2000"), "straight=2000 is not allowed with dice=5: 1-2-3-4-5-6 needs six dice"),
    (("score", "--bogus", "1"), "--bogus"),
    (("score",), "Missing argument"),
    (("nosuchcommand",), "nosuchcommand"),
]


@pytest.mark.parametrize(("args", "said"), BAD_INPUTS, ids=[" ".join(args) for args, _ in BAD_INPUTS])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], said: str) -> None:
    proc = hotdice(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("hotdice: error: ")
    assert said in lines[0]


def test_no_arguments_prints_usage() -> None:
    text = ok()
    assert text.startswith("Usage: hotdice")
    for command in ("score", "odds", "rules"):
        assert command in text


# -- running the calls above two at a time -----------------------------------------------------

# The calls of the tests that are not parametrised. Listed only so that they start early: a call missing
# here still runs, just later and alone.
FIXED_CALLS: list[tuple[tuple[str, ...], str | None]] = [
    (("score", "1", "1", "1", "1", "5", "5"), None),
    (("score", "111155"), None),
    (("score", "111155", "--json"), None),
    (("score", "2", "2", "3", "4", "6", "6", "--json"), None),
    (("score", "223466"), None),
    (("score", "--rules", "5000-fr", "1", "1", "1", "1", "1", "--json"), None),
    (("score", "--rules", "farkle", "1", "1", "1", "1", "1", "--json"), None),
    (("--rules", "5000-fr", "score", "1", "1", "1", "1", "1", "--json"), None),
    (("score", "-"), "111155\n23466\n"),
    (("score", "-"), "111155\n12a\n5\n"),
    (("odds",), None),
    (("rules", "--list"), None),
    (("rules", "--help"), None),
    ((), None),
]


@pytest.fixture(scope="module", autouse=True)
def _start_every_call_one_per_core() -> None:
    """Each call is mostly the start-up of Python, numpy and the tables: run them one per core up front,
    the tests then read the results from the cache of ``hotdice()``."""
    calls = [*FIXED_CALLS, *((args, None) for args, _ in BAD_INPUTS)]
    for preset in PRESETS:
        calls += [
            (("score", "--rules", preset, "-"), scored_stdin(preset)),
            (("odds", "--rules", preset), None),
            (("odds", "--rules", preset, "--json"), None),
            (("rules", preset), None),
        ]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        list(pool.map(lambda call: hotdice(*call[0], stdin=call[1]), calls))


@pytest.mark.parametrize("dice", ["111155", "223466"])
def test_an_ascii_terminal_gets_no_traceback(dice: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "hotdice.cli", "score", dice], capture_output=True,
                          env={**ENV, "PYTHONIOENCODING": "ascii"}, timeout=60, check=False)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    assert proc.stdout.isascii()


@pytest.mark.slow
def test_solve_refuses_rules_hard_cannot_solve() -> None:
    for rules, bound in (("farkle,target=20000", "up to a target of 10000"),
                         ("farkle,target=20000,three_farkles=500", "up to a target of 10000")):
        refused = hotdice("solve", "--rules", rules, "--json")
        assert refused.returncode == 2 and refused.stdout == "", refused
        assert refused.stderr.count("\n") == 1 and bound in refused.stderr and "too long" in refused.stderr


@pytest.mark.slow
def test_solve_shows_a_progress_bar(tmp_path: Any) -> None:
    """On a terminal (here a pseudo-terminal for stderr) the solve's share done is drawn, up to 100 %."""
    import pty

    leader, follower = pty.openpty()
    env = {**ENV, "HOTDICE_CACHE_DIR": str(tmp_path)}
    with subprocess.Popen([sys.executable, "-m", "hotdice.cli", "solve", "--rules", "farkle,target=3000"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower, env=env) as done:
        os.close(follower)
        drawn = b""
        with contextlib.suppress(OSError):  # read as it is drawn, to the end of what the terminal was sent
            while chunk := os.read(leader, 65536):
                drawn += chunk
        os.close(leader)
        assert done.stdout is not None
        printed = done.stdout.read().decode()
    bar = drawn.decode(errors="replace")
    assert done.returncode == 0 and "First player's chance" in printed
    assert "Solving farkle,target=3000 for 2 players" in bar and "100%" in bar
    shown = [int(p) for p in re.findall(r"(\d+)%", bar)]
    assert shown == sorted(shown) and any(0 < p < 100 for p in shown), shown


# -- --lang: the human output in French, the JSON the same ------------------------------------


@pytest.mark.slow
def test_odds_in_french_with_cldr_numbers() -> None:
    rows = table_rows(ok("--lang", "fr", "odds"))
    risks = [farkle_risk(Rules.parse("farkle"), n) for n in range(6, 0, -1)]
    assert [r[1] for r in rows] == [f"{100 * float(p):.1f}".replace(".", ",") + "\u00a0%" for p in risks]
    assert rows[-1][1] == "66,7\u00a0%" and rows[-1][3] == "25,0"
    assert "risque de Farkle" in ok("--lang", "fr", "odds")


@pytest.mark.slow
def test_score_in_french() -> None:
    text = ok("--lang", "fr", "score", "11111", "--rules", "5000-fr")
    assert text.startswith("1 1 1 1 1\u00a0: cinq 1 en un lancer — ce lancer gagne la partie\u202f!\n")
    assert ["1 1 1 1 1", "1200", "0 — Hot Dice"] in table_rows(text) and "mise de côté" in text
    assert ok("--lang", "fr", "score", "2346", "--rules", "5000").startswith("2 3 4 6\u00a0: Farkle — rien")
    assert ok("--lang", "en", "score", "2346", "--rules", "5000") == ok("score", "2346", "--rules", "5000")


def test_rules_in_french_name_the_combinations_in_french() -> None:
    rows = table_rows(ok("--lang", "fr", "rules", "5000"))
    assert ["Trois 1", "1000"] in rows and ["Un 5", "50"] in rows


@pytest.mark.parametrize("command", [("score", "115"), ("odds",), ("rules", "5000-fr")])
def test_the_json_is_the_same_in_every_language(command: tuple[str, ...]) -> None:
    assert ok("--lang", "fr", *command, "--json") == ok(*command, "--json")


def test_an_unknown_language_is_one_line_and_exit_2() -> None:
    proc = hotdice("--lang", "de", "odds")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "hotdice: error: unknown language 'de': choose one of en, fr\n"
@pytest.mark.slow
def test_a_ten_turn_games_replay_and_statistics_show_the_rules_chosen_not_the_lifted_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solo lifts the target to the largest one (``target=1000000``) so that only the ten turns end it: the
    players chose ``farkle,entry=500``, and that is what replay and stats show."""
    from hotdice.game.dice import FixedDice
    from hotdice.game.record import record_of
    from hotdice.play.modes import solo
    from hotdice.store import Store
    from hotdice.store.stats import record_game

    dice = FixedDice([(2, 2, 3, 4, 6, 6)] * 10)  # ten farkles
    setup = solo(Rules.parse("farkle,entry=500"), "Ann", dice=dice)
    while setup.game.outcome is None:
        setup.game.play("roll", dice)
    assert "target=1000000" in str(setup.game.rules)  # what the game plays
    record = record_of(setup.game, mode="solo")
    (tmp_path / "solo.json").write_text(json.dumps(record.to_json()), encoding="utf-8")
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(tmp_path))
    with Store() as store:
        record_game(store, setup.game, player=0, mode="solo", opponent=None)
    env = {**ENV, "HOTDICE_DATA_DIR": str(tmp_path)}
    for command in (["replay", str(tmp_path / "solo.json")], ["stats"]):
        run = subprocess.run([sys.executable, "-m", "hotdice.cli", *command], capture_output=True, text=True,
                             env=env, timeout=60, check=False)
        assert run.returncode == 0 and run.stderr == "", run.stderr
        assert "farkle,entry=500" in run.stdout and "1000000" not in run.stdout, run.stdout


@pytest.mark.slow
def test_score_under_set_aside_all_says_so_and_shows_the_one_set_aside_the_game_allows() -> None:
    text = ok("score", "--rules", "5000-fr", "1", "5", "5", "2", "3")
    assert "every scoring die (set_aside=all)" in " ".join(text.split())
    assert table_rows(text) == [["1 5 5", "200", "2"]]  # not 1 5, 5 5, 1, 5: the game takes all three
    assert "set_aside=all" not in ok("score", "--rules", "farkle", "1", "5", "5", "2", "3")
    assert ok_json("score", "--rules", "5000-fr", "15523", "--json")["set_aside"] == "all"
    assert "set_aside=all" in " ".join(ok("score", "--help").split())
