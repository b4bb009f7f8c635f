"""Game records: JSON round trip, replay equal to live play, the golden playthroughs, tamper detection,
and ``hotdice replay``.

The golden transcripts in tests/golden/ are written by tests/golden/make_golden.py; a test that fails on
them means the engine now plays the same actions differently: read the diff, and regenerate only if the
change is intended.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.game.dice import FixedDice, SeededDice
from hotdice.game.engine import BANK, ROLL, Game, Phase, Roll, Step, Termination
from hotdice.game.record import Record, RecordError, Result, record_of, replay, transcript
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from hotdice.game.variants import VARIANTS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PRESETS = [v.name for v in VARIANTS]
# Presets and house rules that reach every event: penalty, bust, entry missed, turn limit...
RULESETS = [
    *PRESETS,
    "farkle,target=1500,three_farkles=500",
    "farkle,target=2000,end=first,min_bank=300,entry=500",
    "5000,target=1000",
    "5000-fr,target=1000,entry=0,rule_4900=yes",
    "5000-fr-6,target=1500,entry=350,end=last-round,below_entry=lost",
]
ENV = {**os.environ, "COLUMNS": "200", "LINES": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
ENV.pop("FORCE_COLOR", None)


def golden(preset: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{preset}.json").read_text(encoding="utf-8"))
    return data


def digest(data: dict[str, Any]) -> str:
    """The documented digest, computed here: SHA-256 of the canonical JSON of every other field."""
    rest = {k: v for k, v in data.items() if k != "digest"}
    canonical = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def signed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its digest recomputed, as someone tampering on purpose would do."""
    return {**data, "digest": digest(data)}


def random_game(
    rules: str,
    seed: bytes,
    chooser: random.Random,
    steps: int,
    turn_limit: int | None = None,
    players: int = 2,
    greed: float = 0.0,
) -> Game:
    """A game played live with seeded dice: roll with probability ``greed``, else any legal action."""
    game = Game(Rules.parse(rules), players=[f"P{i}" for i in range(players)], turn_limit=turn_limit)
    dice = SeededDice(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.play(ROLL if ROLL in legal and chooser.random() < greed else chooser.choice(legal), dice)
    return game


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a player or a front end can see of a game."""
    return {
        "rules": game.rules,
        "players": tuple(game.players),
        "events": list(game.events),
        "history": list(game.history),
        "phase": game.phase,
        "current": game.current,
        "to_act": game.to_act,
        "turn": game.turn,
        "rolls_this_turn": game.rolls_this_turn,
        "scores": game.scores,
        "entered": game.entered,
        "farkles_in_row": game.farkles_in_row,
        "turns_played": game.turns_played,
        "turn_total": game.turn_total,
        "dice_to_roll": game.dice_in_hand,
        "roll": game.roll,
        "set_aside": list(game.set_asides),
        "must_validate": game.must_validate,
        "hot_dice": game.hot_dice,
        "last_round_by": game.last_round_by,
        "outcome": game.outcome,
        "legal_actions": game.legal_actions(),
        "options": game.options(),
        "why_not_bank": game.why_not_bank(),
    }


# -- replay is live play ------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(RULESETS),
    st.binary(max_size=8),
    st.randoms(use_true_random=False),
    st.integers(min_value=0, max_value=300),
    st.none() | st.integers(min_value=1, max_value=6),
    st.integers(min_value=1, max_value=4),
    st.floats(min_value=0, max_value=1),
)
def test_replay_rebuilds_live_play(
    rules: str, seed: bytes, chooser: random.Random, steps: int, turn_limit: int | None, players: int, greed: float
) -> None:
    live = random_game(rules, seed, chooser, steps, turn_limit, players, greed)
    record = record_of(live, seed=seed)
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    assert snapshot(replay(again)) == snapshot(live)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_golden_line_reads_as_a_step_and_back(preset: str) -> None:
    lines = golden(preset)["history"]
    assert lines
    for line in lines:
        step = Step.parse(line)
        assert str(step) == line and Step.parse(str(step)) == step


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESETS), st.binary(max_size=8), st.randoms(use_true_random=False),
       st.integers(min_value=0, max_value=300))
def test_the_steps_of_random_games_read_back(rules: str, seed: bytes, chooser: random.Random, steps: int) -> None:
    live = random_game(rules, seed, chooser, steps)
    for step, line in zip(live.history, record_of(live).history, strict=True):
        assert Step.parse(line) == step and str(Step.parse(line)) == line


_DICE = st.lists(st.integers(1, 6), min_size=1, max_size=6)
_STEPS = st.one_of(
    st.sampled_from([Step(ROLL), Step(BANK)]),
    _DICE.map(lambda d: Step(SetAside(*d))),
    _DICE.map(lambda d: Step(Roll(tuple(d)))),
)


@given(_STEPS)
def test_any_step_reads_back(step: Step) -> None:
    assert Step.parse(str(step)) == step


def test_a_roll_and_a_set_aside_of_the_same_dice_are_different_steps() -> None:
    assert Step(Roll((1, 5))) != Step(SetAside(1, 5))
    assert [str(Step(Roll((5, 1)))), str(Step(SetAside(5, 1)))] == ["dice 51", "keep 15"]


def test_replay_while_dice_are_rolled() -> None:
    dice = SeededDice(b"x")
    live = Game(Rules.parse("farkle"), players=("Ann", "Bob"))
    live.play(ROLL, dice)
    live.apply(live.options()[0].set_aside)
    live.apply(ROLL)
    assert live.phase is Phase.CHANCE
    rebuilt = replay(record_of(live, seed=b"x"))
    assert snapshot(rebuilt) == snapshot(live)
    roll = dice.roll(live.dice_in_hand, live.turn, live.rolls_this_turn)
    live.apply_roll(roll)
    rebuilt.apply_roll(roll)
    assert snapshot(rebuilt) == snapshot(live)


def test_an_empty_game_replays() -> None:
    record = record_of(Game(Rules(), players=("Solo",)), mode="solo")
    assert record.history == () and record.result == Result(scores=(0,))
    assert snapshot(replay(record)) == snapshot(Game(Rules(), players=("Solo",)))


def test_unseeded_record_replays() -> None:
    """Typed-in dice: no seed, so the dice are taken as written."""
    dice = FixedDice([(1, 1, 1, 2, 3, 4), (1, 5, 5, 2, 3, 4), (1, 1, 1)])
    live = Game(Rules.parse("farkle"), players=("Ann", "Bob"), first=1, turn_limit=1)
    for action in ["roll", "111", "bank", "roll", "155", "roll", "111", "bank"]:
        live.play(action, dice)
    assert live.outcome is not None and live.outcome.termination is Termination.TURN_LIMIT
    record = record_of(live, mode="together")
    assert record.seed is None
    assert Record.from_json(json.dumps(record.to_json())) == record
    assert snapshot(replay(record)) == snapshot(live)
    assert live.scores == (1200, 1000) and live.outcome.winners == (0,)
    assert "typed-in or live dice (no seed)" in transcript(record)[1]


# -- JSON ---------------------------------------------------------------------------------------


def test_json_layout_and_digest() -> None:
    data = golden("5000")
    assert list(data) == [
        "version", "rules", "players", "first", "turn_limit", "mode", "seed", "history", "result", "digest"
    ]  # fmt: skip
    assert data["version"] == 1
    assert data["digest"] == digest(data)
    record = Record.from_json(data)
    assert record.to_json() == data
    assert Record.from_json(json.dumps(data)) == record


@given(st.text(min_size=1, max_size=12), st.text(max_size=20))
def test_any_names_and_mode_round_trip(name: str, mode: str) -> None:
    game = Game(Rules.parse("5000"), players=(name, "Bob"))
    dice = SeededDice(b"n")
    for _ in range(12):
        game.play(game.legal_actions()[0], dice)  # always roll, best set-aside
    record = record_of(game, seed=b"n", mode=mode)
    assert Record.from_json(json.dumps(record.to_json(), ensure_ascii=True)) == record


BAD: list[tuple[str, Any, str]] = [
    # (field, new value or "DELETE", expected message)
    ("history", "DELETE", "missing field.*history"),
    ("colour", "blue", "unknown field.*colour"),
    ("version", 2, "unknown record version 2"),
    ("version", "1", "unknown record version '1'"),
    ("rules", "chess", "bad rules string 'chess': unknown preset"),
    ("rules", "farkle,entry=7", "bad rules string.*multiples of 50"),
    ("rules", 5000, "field 'rules' must be a string"),
    ("players", "Ann", "field 'players' must be a list"),
    ("players", ["Ann", 2], "must be a list of strings"),
    ("first", "0", "field 'first' must be a whole number"),
    ("first", True, "field 'first' must be a whole number"),
    ("first", 2, "first player 2 is not one of the 2 players"),
    ("turn_limit", 0, "turn_limit must be at least 1"),
    ("turn_limit", 1.5, "field 'turn_limit' must be a whole number or null"),
    ("mode", None, "field 'mode' must be a string"),
    ("seed", "XYZ", "not lowercase hexadecimal"),
    ("seed", "abc", "not lowercase hexadecimal"),
    ("history", ["roll", None], "list of strings"),
    ("result", [1, 2], "field 'result' must be an object"),
    ("result", {"scores": [0, 0], "winners": None}, "exactly scores, winners and termination"),
    ("result", {"scores": [0, 0, 0], "winners": None, "termination": None}, "3 scores for 2 players"),
    ("result", {"scores": [0, 0], "winners": None, "termination": "target"}, "both winners and termination"),
    ("result", {"scores": [0, 0], "winners": [], "termination": "target"}, r"winners \[\] are not players"),
    ("result", {"scores": [0, 0], "winners": [2], "termination": "target"}, r"winners \[2\] are not players"),
    ("result", {"scores": [0, 0], "winners": [0], "termination": "resign"}, "termination 'resign' is not one"),
    ("result", {"scores": [0, "0"], "winners": None, "termination": None}, "'scores' must be a list of whole"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_malformed_records_are_refused(name: str, value: Any, message: str) -> None:
    data = golden("5000")
    if value == "DELETE":
        del data[name]
    else:
        data[name] = value
    with pytest.raises(RecordError, match=message):
        Record.from_json(signed(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "invalid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ("{}", "missing field.*version.*digest"),
    ],
)
def test_unreadable_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_json(text)


def test_corruption_is_caught_by_the_digest() -> None:
    data = golden("5000")
    data["history"][1] = "dice 55555"
    with pytest.raises(RecordError, match="record corrupted: its digest does not match"):
        Record.from_json(data)
    del data["digest"]
    with pytest.raises(RecordError, match=r"missing field.*digest"):
        Record.from_json(data)


def test_too_many_players_do_not_set_up() -> None:
    record = Record("farkle", tuple("ABCDEFGHI"), 0, None, "together", None, (), Result((0,) * 9))
    with pytest.raises(RecordError, match="cannot be set up: a game has 1 to 8 players"):
        replay(record)


# -- tampering with the digest recomputed -------------------------------------------------------


def farkle_record() -> Record:
    return Record.from_json(golden("farkle"))


def with_history(record: Record, history: list[str]) -> Record:
    return dataclasses.replace(record, history=tuple(history))


def test_the_golden_farkle_record_starts_as_the_tampering_tests_expect() -> None:
    assert farkle_record().history[:10] == (
        "roll", "dice 356625", "keep 55", "roll", "dice 1344", "keep 1", "roll", "dice 514", "keep 15", "bank",
    )  # fmt: skip


def test_a_changed_die_is_caught() -> None:
    history = list(farkle_record().history)
    history[4] = "dice 1345"  # still legal: the 1 is kept either way
    with pytest.raises(RecordError, match=r"record altered: history line 5 \('dice 1345'\): roll 2 of turn 1 is 1344"):
        replay(with_history(farkle_record(), history))
    # Through JSON with the digest recomputed, as a cheat would do:
    data = golden("farkle")
    data["history"][4] = "dice 1345"
    with pytest.raises(RecordError, match="record altered"):
        replay(Record.from_json(signed(data)))


def test_a_changed_seed_is_caught() -> None:
    record = dataclasses.replace(farkle_record(), seed=b"other".hex())
    with pytest.raises(RecordError, match=r"record altered: history line 2 .*roll 1 of turn 1"):
        replay(record)


def test_a_changed_legal_keep_is_caught() -> None:
    history = list(farkle_record().history)
    history[2] = "keep 5"  # legal, but then five dice are rolled, not four
    five = "".join(map(str, SeededDice(b"golden/farkle").roll(5, 0, 1)))
    with pytest.raises(RecordError, match=rf"record altered: history line 5 .*roll 2 of turn 1 is {five} "):
        replay(with_history(farkle_record(), history))


def test_an_illegal_keep_names_its_position_and_the_rule() -> None:
    history = list(farkle_record().history)
    history[2] = "keep 2"
    with pytest.raises(RecordError, match=r"history line 3 \('keep 2'\): 2: every die set aside must score"):
        replay(with_history(farkle_record(), history))
    history[2] = "keep seven"
    with pytest.raises(RecordError, match=r"history line 3 \('keep seven'\): .*not an action"):
        replay(with_history(farkle_record(), history))


def test_a_line_not_written_as_the_engine_writes_it() -> None:
    history = list(farkle_record().history)
    history[2] = "k 5 5"
    with pytest.raises(RecordError, match=r"history line 3 .*the engine writes it 'keep 55'"):
        replay(with_history(farkle_record(), history))


def test_a_dropped_bank_is_caught() -> None:
    history = list(farkle_record().history)
    assert history.pop(9) == "bank"
    with pytest.raises(RecordError, match="record altered: history line 11"):
        replay(with_history(farkle_record(), history))


def test_a_changed_final_score_is_caught() -> None:
    record = farkle_record()
    fake = dataclasses.replace(record, result=dataclasses.replace(record.result, scores=(10_100, 10_600)))
    with pytest.raises(RecordError, match=r"record altered: it says scores 10100-10600, won by player.s. 1"):
        replay(fake)
    data = golden("farkle")
    data["result"]["winners"] = [0]
    with pytest.raises(RecordError, match=r"record altered: .*won by player.s. 0 .*replays to .*won by player.s. 1"):
        replay(Record.from_json(signed(data)))


def test_an_action_after_the_end_is_caught() -> None:
    history = [*farkle_record().history, "roll"]
    with pytest.raises(RecordError, match=f"history line {len(history)} .*the game is over"):
        replay(with_history(farkle_record(), history))


def test_an_edited_rules_string_is_caught() -> None:
    record = dataclasses.replace(farkle_record(), rules="farkle,entry=500")
    with pytest.raises(RecordError, match=r"history line 10 \('bank'\): cannot bank: the first bank needs 500"):
        replay(record)
    data = golden("farkle")
    data["rules"] = "farkle,target=20000"  # every action stays legal: only the result can tell
    with pytest.raises(RecordError, match=r"record altered: .* replays to scores .*, unfinished"):
        replay(Record.from_json(signed(data)))


def test_unseeded_dice_are_checked_for_legality() -> None:
    record = dataclasses.replace(farkle_record(), seed=None)
    assert replay(record).scores == record.result.scores
    history = list(record.history)
    history[1] = "dice 346622"  # a farkle now: the keep after it is illegal
    with pytest.raises(RecordError, match=r"history line 3 \('keep 55'\): there is no roll"):
        replay(with_history(record, history))


# -- golden playthroughs ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_golden_transcript(preset: str) -> None:
    record = Record.from_json((GOLDEN / f"{preset}.json").read_text(encoding="utf-8"))
    assert record.rules == preset and record.seed is not None
    expected = (GOLDEN / f"{preset}.txt").read_text(encoding="utf-8")
    assert "\n".join(transcript(record)) + "\n" == expected
    assert replay(record).is_over


def load_make_golden() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("preset", PRESETS)
def test_golden_files_are_what_the_script_writes(preset: str) -> None:
    """The golden policy, the seeded dice and the engine still make the same games."""
    for name, text in load_make_golden().files(preset).items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name


def test_golden_games_show_the_events_of_their_rules() -> None:
    texts = {p: (GOLDEN / f"{p}.txt").read_text(encoding="utf-8") for p in PRESETS}
    assert all("farkle" in t and "banks" in t and "hot dice" in t for t in texts.values())
    assert "last round" in texts["farkle"] and "last round" in texts["5000"]
    assert "Game over (exactly 5000)" in texts["5000-fr"]
    assert "validates" in texts["5000-fr-6"]


def typed_in(rules: str, rolls: list[str], actions: list[str], turn_limit: int | None = None) -> Record:
    """The record of a game of Ann and Bob with dice typed in; "roll" takes the next of ``rolls``."""
    game = Game(Rules.parse(rules), players=("Ann", "Bob"), turn_limit=turn_limit)
    dice = FixedDice([map(int, roll) for roll in rolls])
    for action in actions:
        game.play(action, dice)
    assert dice.remaining == 0
    return record_of(game)


def test_transcript_of_entry_missed_bust_penalty_and_exact_win() -> None:
    farkle = "22346"
    record = typed_in(
        "5000-fr,target=1000,entry=350,below_entry=lost,three_farkles=500",
        ["12346", "55523", farkle, "12346", "6662", farkle, farkle, "55523", farkle, farkle, farkle, "55523"],
        [*("roll", "1", "bank", "roll", "555", "bank", "roll", "roll", "1", "roll", "roll", "roll"),
         *("roll", "555", "bank", "roll", "roll", "roll", "roll", "555")],
    )
    assert transcript(record) == [
        f"Rules: {record.rules}",
        "Players: Ann, Bob; Ann starts; mode versus; typed-in or live dice (no seed)",
        "Turn 1: Ann (score 0)",
        "  rolls 1 2 3 4 6: sets aside 1 for 100 (turn total 100); stops at 100, below the entry of 350: not recorded",
        "Turn 2: Bob (score 0)",
        "  rolls 5 5 5 2 3: sets aside 5 5 5 for 500 (turn total 500); banks 500 (score 500)",
        "Turn 3: Ann (score 0)",
        "  rolls 2 2 3 4 6: farkle",
        "Turn 4: Bob (score 500)",
        "  rolls 1 2 3 4 6: sets aside 1 for 100 (turn total 100)",
        "  rolls 6 6 6 2: bust (every set-aside passes 1000), loses 100",
        "Turn 5: Ann (score 0)",
        "  rolls 2 2 3 4 6: farkle",
        "Turn 6: Bob (score 500)",
        "  rolls 2 2 3 4 6: farkle",
        "Turn 7: Ann (score 0)",
        "  rolls 5 5 5 2 3: sets aside 5 5 5 for 500 (turn total 500); banks 500 (score 500)",
        "Turn 8: Bob (score 500)",
        "  rolls 2 2 3 4 6: farkle",
        "Turn 9: Ann (score 500)",
        "  rolls 2 2 3 4 6: farkle",
        "Turn 10: Bob (score 500)",
        "  rolls 2 2 3 4 6: farkle; three farkles in a row, penalty 500 (score 0)",
        "Turn 11: Ann (score 500)",
        "  rolls 5 5 5 2 3: sets aside 5 5 5 for 500 (turn total 500); banks 500 (score 1000)",
        "Game over (exactly 1000): Ann wins; Ann 1000, Bob 0",
    ]


def test_transcript_endings() -> None:
    five_ones = transcript(typed_in("5000-fr", ["11111"], ["roll"]))
    assert five_ones[-2:] == ["  rolls 1 1 1 1 1", "Game over (five 1s in one roll): Ann wins; Ann 0, Bob 0"]
    tie = transcript(typed_in("farkle", ["234662", "234662"], ["roll", "roll"], turn_limit=1))
    assert tie[1].endswith("; 1 turns each")
    assert tie[-1] == "Game over (every player has played the turns): Ann and Bob share the win; Ann 0, Bob 0"
    playing = transcript(typed_in("farkle", ["234662", "123446"], ["roll", "roll"]))
    assert playing[-2:] == ["  rolls 1 2 3 4 4 6", "Unfinished (Bob to play): Ann 0, Bob 0"]


# -- hotdice replay ------------------------------------------------------------------------------


def hotdice(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=ENV, timeout=60, check=False
    )


def test_cli_replay_prints_the_transcript() -> None:
    run = hotdice("replay", str(GOLDEN / "5000-fr-6.json"))
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == (GOLDEN / "5000-fr-6.txt").read_text(encoding="utf-8")


def test_cli_replay_json_prints_the_final_state() -> None:
    run = hotdice("replay", str(GOLDEN / "5000.json"), "--json")
    assert run.returncode == 0 and run.stderr == ""
    state = json.loads(run.stdout)
    data = golden("5000")
    assert state["scores"] == data["result"]["scores"]
    assert state["outcome"] == {**data["result"], "scores": data["result"]["scores"]}
    assert state["phase"] == "over" and state["to_act"] is None and state["legal_actions"] == []
    assert state["history_length"] == len(data["history"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read .*missing.json: No such file"),
        (b"{oops", "missing.json: not a game record: invalid JSON"),
        (b"\xff\xfe\x00", "missing.json is not a text file"),
        ("ALTERED", "missing.json: record altered: history line 2"),
    ],
)
def test_cli_replay_errors(tmp_path: Path, content: bytes | str | None, message: str) -> None:
    path = tmp_path / "missing.json"
    if content == "ALTERED":
        data = golden("farkle")
        data["history"][1] = "dice 356626"
        path.write_text(json.dumps(signed(data)), encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    run = hotdice("replay", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("hotdice: error: ")
    assert re.search(message, run.stderr), run.stderr
