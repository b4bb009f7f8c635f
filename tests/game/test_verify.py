"""``hotdice verify`` and the web's commitments: real records of played games verify; a changed die, a wrong
key, a wrong commitment or a changed result do not, and the verdict names the first mismatch.

The commitments are checked against SHA-256 computed here with hashlib; the rolls against the line that was
changed (the first mismatch must be exactly there).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.cli import main
from hotdice.game.dice import SeededDice
from hotdice.game.engine import Game
from hotdice.game.record import Record, RecordError, Result, record_of, time_text
from hotdice.game.rules import Rules
from hotdice.game.verify import verify_text
from hotdice.play.daily import daily_seed
from hotdice.play.modes import Challenge, challenge, daily
from hotdice.play.players import make_player, play_game
from hotdice.web import Settings, create_app
from hotdice.web.services import daily as daily_service
from hotdice.web.services import reveal
from tests.web_support import next_intent

SERVER_KEY = b"verify tests: the server's daily key"
DAY = date(2026, 11, 29)


def sha256(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()


def daily_record(player: str = "greedy", day: date = DAY) -> Record:
    setup = daily("Ann", now=datetime(day.year, day.month, day.day, 15, tzinfo=UTC), key=SERVER_KEY)
    assert setup.dice is not None and setup.seed is not None
    play_game(setup.game, [make_player(player, random.Random(1))], setup.dice)
    return record_of(setup.game, seed=setup.seed, mode="daily")


def versus_record() -> Record:
    key = bytes(range(32))
    game = Game(Rules.parse("5000-fr,target=3000"), players=("Ann", "Bob", "Cid"), first=1)
    players = [make_player(spec, random.Random(i)) for i, spec in enumerate(("greedy:350", "random", "easy"))]
    play_game(game, players, SeededDice(key))
    return record_of(game, seed=key, mode="versus")


def challenge_record() -> Record:
    setup = challenge(Challenge.new("5000"), "Bob")
    assert setup.dice is not None
    play_game(setup.game, [make_player("medium", random.Random(2))], setup.dice)
    return record_of(setup.game, seed=setup.seed, mode="challenge")


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """``hotdice verify FILE OPTIONS`` in this process, FILE holding the record: exit code, stdout, stderr."""

    def call(record: Record | dict[str, Any] | str, *options: str) -> tuple[int, str, str]:
        path = tmp_path / "game.json"
        data = record.to_json() if isinstance(record, Record) else record
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        with pytest.raises(SystemExit) as exited:
            main(["verify", str(path), *options])
        captured = capsys.readouterr()
        return exited.value.code, captured.out, captured.err

    return call


# -- records of played games verify ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", [daily_record, versus_record, challenge_record], ids=["daily", "versus", "challenge"])
def test_records_of_played_games_verify_with_their_commitment(cli: Any, make: Any) -> None:
    record: Record = make()
    assert record.seed is not None
    code, out, err = cli(record, "--commitment", sha256(bytes.fromhex(record.seed)))
    assert (code, err) == (0, ""), out
    lines = out.splitlines()
    rolls = sum(line.startswith("dice ") for line in record.history)
    assert f"all {rolls} rolls of the" in out
    assert f"all {len(record.history) - rolls} actions legal" in out
    assert f"commitment: SHA-256 of the key is {sha256(bytes.fromhex(record.seed))}, as published" in lines
    assert lines[-1].startswith("VALID:")


def test_a_record_without_its_key_verifies_with_the_key_given(cli: Any) -> None:
    record = daily_record()
    key = daily_seed(DAY, SERVER_KEY)
    hidden = dataclasses.replace(record, seed=None)  # as the web gives it before the day is over
    code, out, _ = cli(hidden, "--key", key.hex().upper(), "--commitment", sha256(key))
    assert code == 0 and "(from --key)" in out
    code, out, _ = cli(record)
    assert code == 0 and "commitment: not checked" in out


# -- tampered records do not ------------------------------------------------------------------------------------


def test_every_changed_die_is_caught_at_its_own_roll() -> None:
    record = daily_record("medium")
    positions = [i for i, line in enumerate(record.history) if line.startswith("dice ")]
    assert len(positions) >= 10
    for i in positions:
        faces = record.history[i].removeprefix("dice ")
        for j in (0, len(faces) - 1):
            changed = faces[:j] + str(int(faces[j]) % 6 + 1) + faces[j + 1 :]
            history = (*record.history[:i], f"dice {changed}", *record.history[i + 1 :])
            # A cheat recomputes the digest: to_json signs the altered record afresh.
            verdict = verify_text(json.dumps(dataclasses.replace(record, history=history).to_json()))
            assert not verdict.valid and len(verdict.lines) == 1
            assert f"history line {i + 1} ('dice {changed}')" in verdict.lines[0]
            assert f"is {faces} with this seed" in verdict.lines[0]


def test_a_changed_die_names_its_turn_and_roll_in_one_line(cli: Any) -> None:
    record = daily_record()
    # The first roll that follows a set-aside is the second roll of its turn.
    line = next(i for i in range(2, len(record.history)) if record.history[i - 2].startswith("keep ")
                and record.history[i - 1] == "roll")
    faces = record.history[line].removeprefix("dice ")
    history = list(record.history)
    history[line] = "dice " + str(int(faces[0]) % 6 + 1) + faces[1:]
    code, out, err = cli(dataclasses.replace(record, history=tuple(history)))
    assert code == 1 and err == "" and len(out.splitlines()) == 1
    assert out.startswith("does not verify: record altered: ") and "roll 2 of turn " in out


def test_a_changed_die_without_a_new_digest_is_caught_by_the_digest(cli: Any) -> None:
    data = daily_record().to_json()
    line = next(i for i, entry in enumerate(data["history"]) if entry.startswith("dice "))
    data["history"][line] = "dice " + "".join(str(int(f) % 6 + 1) for f in data["history"][line][5:])
    code, out, _ = cli(data)
    assert code == 1 and out == "does not verify: record corrupted: its digest does not match its contents\n"


def test_a_wrong_key_is_caught(cli: Any) -> None:
    record = daily_record()
    other = daily_seed(DAY + timedelta(days=1), SERVER_KEY)  # the next day's key: a plausible mix-up
    code, out, _ = cli(record, "--key", other.hex())
    assert code == 1 and out == f"does not verify: the record's dice key {record.seed} is not the key given " \
                                 f"({other.hex()})\n"
    code, out, _ = cli(dataclasses.replace(record, seed=None), "--key", other.hex())
    assert code == 1 and "history line 2 " in out and "roll 1 of turn 1 is" in out  # the very first roll
    code, out, _ = cli(dataclasses.replace(record, seed=other.hex()))  # the key swapped inside the record
    assert code == 1 and "roll 1 of turn 1 is" in out


def test_a_wrong_commitment_is_caught(cli: Any) -> None:
    record = daily_record()
    assert record.seed is not None
    wrong = sha256(daily_seed(DAY - timedelta(days=1), SERVER_KEY))
    code, out, _ = cli(record, "--commitment", wrong)
    assert code == 1
    assert out == f"does not verify: SHA-256 of the key is {sha256(bytes.fromhex(record.seed))}, not the " \
                  f"commitment {wrong}\n"


def test_a_changed_result_is_caught(cli: Any) -> None:
    record = daily_record()
    claimed = Result((record.result.scores[0] + 50,), record.result.winners, record.result.termination)
    code, out, _ = cli(dataclasses.replace(record, result=claimed))
    assert code == 1 and out.startswith("does not verify: record altered: it says scores ")


def test_an_illegal_history_is_caught(cli: Any) -> None:
    record = daily_record()
    bank = record.history.index("bank")
    history = (*record.history[:bank], "roll", *record.history[bank + 1 :])  # rolled on instead of banking
    code, out, err = cli(dataclasses.replace(record, history=history))
    # No game under its rules has that history: the record cannot describe one (exit 2), whatever the key.
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "history line " in err, err


def test_a_record_played_on_after_its_key_was_revealed_is_refused(cli: Any) -> None:
    # The attack: an attempt at the daily started before midnight and played out after it, once the day's key
    # (and so every roll to come) was public: 48 rolls predicted, a top score.
    record = daily_record("medium")
    midnight = datetime.combine(DAY + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    first_after = len(record.history) // 2
    played_at = tuple(time_text(midnight + timedelta(seconds=i + 1 - first_after)) for i in range(len(record.history)))
    revealed = time_text(midnight)
    cheat = dataclasses.replace(record, played_at=played_at, revealed_at=revealed)
    code, out, err = cli(cheat)
    line = record.history[first_after]
    assert (code, err) == (1, "") and out == (
        f"does not verify: history line {first_after + 1} ('{line}') was played at {played_at[first_after]}, after "
        f"the dice key was revealed at {revealed}: every roll was known by then\n")
    # Played before the reveal, to its last second, it verifies; records without times are read as before.
    honest = dataclasses.replace(cheat, played_at=tuple(min(t, revealed) for t in played_at))
    code, out, _ = cli(honest)
    assert code == 0 and f"reveal: every line was played before the dice key was revealed at {revealed}" in out
    code, out, _ = cli(record)
    assert code == 0 and "reveal: not checked" in out
    assert "played_at" not in record.to_json()  # a record without times is written as before


# -- bad input: one line on stderr, exit 2 --------------------------------------------------------------------


def unfinished() -> Record:
    setup = daily("Ann", now=datetime(2026, 11, 29, tzinfo=UTC), key=SERVER_KEY)
    assert setup.dice is not None
    setup.game.play("roll", setup.dice)
    return record_of(setup.game, seed=setup.seed, mode="daily")


def signed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its digest made afresh, as a cheat would (SHA-256 of the canonical JSON of the rest)."""
    content = {name: value for name, value in data.items() if name != "digest"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {**content, "digest": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}


def daily_with(field: str, text: str) -> str:
    """A daily record's JSON text whose ``field`` is written as ``text`` (JSON that Python could not write)."""
    return json.dumps({**daily_record().to_json(), field: "@"}).replace('"@"', text)


def test_a_deep_record_is_refused_whatever_the_recursion_limit() -> None:
    """The depth is checked before json.dumps recurses: with a raised limit (as other code may set it), a record
    nested 1000 deep was written, its digest failed, and it read as altered (exit 1) instead of unreadable."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        with pytest.raises(RecordError, match="nested too deeply"):
            Record.from_json(daily_with("history", "[" * 1000 + "]" * 1000))
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize(
    ("record", "options", "message"),
    [
        (lambda: dataclasses.replace(daily_record(), seed=None), (), "holds no dice key: give the revealed key"),
        (daily_record, ("--key", "xyz"), "the key 'xyz' is not hexadecimal bytes"),
        (daily_record, ("--key", ""), "the key '' is not hexadecimal bytes"),
        (daily_record, ("--commitment", "abc"), "'abc' is not a SHA-256 in hex"),
        (unfinished, (), "unfinished game: only a finished game can be verified"),
        (lambda: "{oops", (), "not a game record: invalid JSON"),
        (lambda: {"version": 1}, (), "missing field"),
        (lambda: signed({**daily_record().to_json(), "played_at": ["yesterday"]}), (), "played_at has 1 times for"),
        (lambda: signed({**daily_record().to_json(), "revealed_at": "2026-11-30 00:00"}), (),
         "the time '2026-11-30 00:00' is not UTC written YYYY-MM-DDTHH:MM:SSZ"),
        # What made Python's json crash with a traceback: each is one line, like any unreadable record.
        (lambda: "[" * 100_000 + "]" * 100_000, (), "invalid JSON (depth limit exceeded"),
        (lambda: daily_with("first", "1" + "0" * 5000), (), "invalid JSON (number is infinity"),
        (lambda: {**daily_record().to_json(), "players": ["\ud800"]}, (), "invalid JSON (no low surrogate"),
        (lambda: daily_with("history", "[" * 1000 + "]" * 1000), (), "nested too deeply"),
        (lambda: signed({**daily_record().to_json(), "history": json.loads("[" * 600 + "]" * 600)}), (),
         "nested too deeply"),
        (lambda: signed({**daily_record().to_json(), "history": json.loads("[" * 20 + "]" * 20)}), (),
         "list of strings, not holding [[[[[[[...]]]]]]]"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli: Any, record: Any, options: tuple[str, ...], message: str) -> None:
    code, out, err = cli(record(), *options)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("hotdice: error: ") and message in err, err


def test_the_real_command(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    record = challenge_record()
    good.write_text(json.dumps(record.to_json()), encoding="utf-8")
    bad.write_text(json.dumps(dataclasses.replace(record, seed=bytes(32).hex()).to_json()), encoding="utf-8")
    runs = [
        subprocess.run([sys.executable, "-m", "hotdice.cli", "verify", str(path)], capture_output=True, text=True,
                       timeout=60, check=False)
        for path in (good, bad)
    ]
    assert [r.returncode for r in runs] == [0, 1]
    assert runs[0].stdout.splitlines()[-1].startswith("VALID") and runs[0].stderr == ""
    assert runs[1].stdout.startswith("does not verify:") and len(runs[1].stdout.splitlines()) == 1


# -- the web: commitments shown first, keys revealed after, records to download -------------------------------


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> FastAPI:
    return create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=SERVER_KEY,
                               player_rate=None, address_rate=None, new_device_rate=None))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as found:
        yield found


def play_out(client: TestClient, game_id: str) -> dict[str, Any]:
    view = client.get(f"/api/games/{game_id}").json()
    while view["outcome"] is None:
        answer = client.post(f"/api/games/{game_id}/act", json={"n": view["n"], **next_intent(view)})
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return dict(view)


def test_the_daily_commitment_is_shown_first_and_the_key_revealed_after_the_day(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    today = datetime.now(UTC).date()
    key = daily_seed(today, SERVER_KEY)
    opened = client.get(f"/api/daily/{today.isoformat()}/key").json()
    assert opened == {"day": today.isoformat(), "commitment": sha256(key), "key": None,
                      "revealed_at": f"{(today + timedelta(days=1)).isoformat()}T00:00:00+00:00"}
    page = client.get("/daily").text
    assert sha256(key) in page and key.hex() not in page
    yesterday = daily_seed(today - timedelta(days=1), SERVER_KEY)
    assert yesterday.hex() in page  # yesterday's key, revealed
    assert client.get("/api/daily").json()["today_key"] == opened

    game_id = client.post("/api/daily").json()["id"]
    play_out(client, game_id)
    downloaded = client.get(f"/api/games/{game_id}/record").json()
    assert downloaded["seed"] is None  # others have yet to play these dice
    path = tmp_path / "daily.json"
    path.write_text(json.dumps(downloaded), encoding="utf-8")
    assert verify_text(path.read_text(), key=yesterday.hex()).valid is False  # not that day's key

    # The day is over: the same addresses now reveal the key, and the record carries it.
    def tomorrow(now: datetime | None = None) -> date:
        return today + timedelta(days=1)

    monkeypatch.setattr(daily_service, "daily_day", tomorrow)
    monkeypatch.setattr(reveal, "day_revealed_at", lambda day: datetime.now(UTC))  # after every line played
    revealed = client.get(f"/api/daily/{today.isoformat()}/key").json()
    assert revealed == {**opened, "key": key.hex()}
    verdict = verify_text(path.read_text(), key=revealed["key"], commitment=opened["commitment"])
    assert verdict.valid, verdict.lines
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["seed"] == key.hex()
    assert verify_text(json.dumps(record), commitment=opened["commitment"]).valid


def test_bad_or_future_days_are_refused_with_a_reason(client: TestClient) -> None:
    tomorrow = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
    for day, status, reason in [
        ("2026-13-01", 400, "is not a day"),
        ("yesterday", 400, "is not a day"),
        ("20261130", 400, "is not a day"),
        ("0000-01-01", 400, "is not a day"),
        ("2026-11-30-and-more", 422, "at most 10 characters"),
        (tomorrow, 409, "has not opened yet"),
    ]:
        answer = client.get(f"/api/daily/{day}/key")
        assert answer.status_code == status and reason in answer.json()["detail"], (day, answer.text)


def test_a_challenge_shows_its_commitment_from_creation_and_its_record_verifies_once_closed(
    client: TestClient, app: FastAPI
) -> None:
    made = client.post("/api/challenges", json={"preset": "farkle"}).json()
    code, commitment = made["code"], made["commitment"]
    assert client.get(f"/api/challenges/{code}").json()["commitment"] == commitment
    assert commitment in client.get(f"/c/{code}").text
    game_id = client.post(f"/api/challenges/{code}/play").json()["id"]
    play_out(client, game_id)
    assert client.get(f"/api/games/{game_id}/record").json()["seed"] is None
    closed = client.post(f"/api/challenges/{code}/close").json()
    assert sha256(bytes.fromhex(closed["dice_key"])) == commitment == closed["commitment"]
    assert closed["dice_key"] in client.get(f"/c/{code}/results").text
    record = client.get(f"/api/games/{game_id}/record").json()
    verdict = verify_text(json.dumps(record), commitment=commitment)
    assert verdict.valid and verdict.lines[-1].startswith("VALID"), verdict.lines


# -- a record that cannot describe a game: exit 2; one whose dice or result do not match its key: exit 1 ---------


def _hundred_players() -> dict[str, Any]:
    data = versus_record().to_json()
    names = [f"P{n}" for n in range(100)]
    return signed({**data, "players": names, "result": {**data["result"], "scores": [0] * 100}})


def _illegal_set_aside() -> dict[str, Any]:
    data = daily_record().to_json()
    line = next(i for i, entry in enumerate(data["history"]) if entry.startswith("keep "))
    history = [*data["history"][:line], "keep 222222", *data["history"][line + 1 :]]  # dice never rolled
    return signed({**data, "history": history})


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (_hundred_players, "the game cannot be set up: "),
        (lambda: signed({**daily_record().to_json(), "turn_limit": 10**9}),
         "the record says its game ended at its turn limit of 1000000000 turns, but its history plays 10"),
        (lambda: daily_with("turn_limit", "1" + "0" * 30), "field 'turn_limit' must be a whole number"),
        (lambda: daily_with("turn_limit", "1" + "0" * 30).replace('"digest": "', '"digest": "0'),
         "field 'turn_limit' must be a whole number"),
        (_illegal_set_aside, "history line "),
    ],
    ids=["100-players", "turn-limit-1e9", "turn-limit-1e30", "turn-limit-1e30-digest", "illegal-line"],
)
def test_a_record_that_cannot_describe_a_game_is_exit_2(cli: Any, record: Any, message: str) -> None:
    code, out, err = cli(record())
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and message in err, (code, out, err)


def test_verify_help_says_what_each_exit_code_means(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "Exit 0 if it verifies; 1 if" in shown and "2 if" in shown and "cannot describe a game" in shown
