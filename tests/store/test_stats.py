"""Statistics and records, against a real SQLite file.

Real seeded games are played through the engine with a plain policy, recorded, and every figure is checked
against a count made here from the games' ``history`` (the actions and dice as text), scored with the
brute-force reference of ``tests/reference.py`` — no statistics code and no engine event is reused. The
expected farkle rates are checked against an enumeration of every roll and against seed 003's table.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError

from hotdice.game.dice import DiceSource, FixedDice, SeededDice
from hotdice.game.engine import BANK, ROLL, Action, Game
from hotdice.game.rules import Rules
from hotdice.game.variants import find_variant
from hotdice.store import DATA_DIR_ENV, DB_FILE, GameResult, Store
from hotdice.store.stats import record_game, statistics
from tests.reference import legal_set_asides

FARKLE = find_variant("farkle").rules
FIVE_THOUSAND = find_variant("5000").rules
DAY = date(2025, 3, 14)


def play(rules: Rules, players: tuple[str, ...], dice: DiceSource, turn_limit: int | None = None) -> Game:
    """The test's policy: set aside the best-scoring dice, bank at 300 or more whenever the rules allow it."""
    game = Game(rules, players=players, turn_limit=turn_limit)
    while not game.is_over:
        legal = game.legal_actions()
        action: Action
        if BANK in legal and game.turn_total >= 300:
            action = BANK
        elif ROLL in legal:
            action = ROLL
        else:
            action = game.options()[0].set_aside
        game.play(action, dice)
    return game


@dataclass
class Seat:
    """What the test counts for one player by reading a game's history."""

    farkled: list[bool] = field(default_factory=list)  # per turn started
    rolls: Counter[int] = field(default_factory=Counter)
    farkles: Counter[int] = field(default_factory=Counter)
    hot_dice: int = 0
    banks: list[int] = field(default_factory=list)
    score: int = 0


def count(game: Game) -> list[Seat]:
    """Replay ``game.history`` by hand (presets without penalties or instant wins), scoring with the reference."""
    rules = game.rules
    seats = [Seat() for _ in game.players]
    entered = [rules.entry == 0] * len(seats)
    roll: tuple[int, ...] = ()
    current, total, dice_in_hand, new_turn = game.first, 0, rules.dice, True
    for item in map(str, game.history):
        seat = seats[current]
        if item == "roll":
            if new_turn:
                seat.farkled.append(False)
                new_turn = False
            continue
        word, _, text = item.partition(" ")
        if word == "dice":
            roll = tuple(int(c) for c in text)
            seat.rolls[len(roll)] += 1
            if legal_set_asides(roll, rules):
                continue
            seat.farkles[len(roll)] += 1
            seat.farkled[-1] = True
        elif word == "keep":
            set_aside = tuple(sorted(int(c) for c in text))
            total += legal_set_asides(roll, rules)[set_aside]
            dice_in_hand -= len(set_aside)
            if dice_in_hand == 0:
                seat.hot_dice += 1
                dice_in_hand = rules.dice
            continue
        else:
            assert item == "bank"
            if entered[current] or total >= rules.entry:
                entered[current] = True
                seat.score += total
                seat.banks.append(total)
        current, total, dice_in_hand, new_turn = (current + 1) % len(seats), 0, rules.dice, True
    return seats


def winners(seats: list[Seat]) -> set[int]:
    best = max(s.score for s in seats)
    return {i for i, s in enumerate(seats) if s.score == best}


def longest_false_run(flags: list[bool]) -> int:
    best = run = 0
    for f in flags:
        run = 0 if f else run + 1
        best = max(best, run)
    return best


def reference_farkle_rate(rules: Rules, n: int) -> Fraction:
    """Share of the 6**n rolls with no legal set-aside, each distinct roll weighted by its arrangements."""
    farkles = 0
    for roll in itertools.combinations_with_replacement(range(1, 7), n):
        if not legal_set_asides(roll, rules):
            farkles += math.factorial(n) // math.prod(math.factorial(roll.count(f)) for f in set(roll))
    return Fraction(farkles, 6**n)


@dataclass
class Played:
    game: Game
    player: int
    mode: str
    opponent: str | None
    day: date | None
    seats: list[Seat]  # the test's own count of the game

    @property
    def seat(self) -> Seat:
        return self.seats[self.player]

    @property
    def won(self) -> bool:
        return self.player in winners(self.seats)


# Every mode worth recording, two rule sets, one to three players: (mode, rules, players, turn limit,
# seat recorded, opponent, day, seed). The first two dailies share a day and a seed: the second is a later
# attempt. The game "together" is recorded once per human player.
PLAN = [
    ("versus", FARKLE, ("Ann", "Easy"), None, 0, "easy", None, "v1"),
    ("versus", FARKLE, ("Ann", "Hard"), None, 0, "hard", None, "v2"),
    ("versus", FARKLE, ("Ann", "Easy"), None, 0, "easy", None, "v3"),
    ("versus", FIVE_THOUSAND, ("Ann", "Medium"), None, 0, "medium", None, "v4"),
    ("solo", FARKLE, ("Ann",), 10, 0, None, None, "s1"),
    ("solo", FARKLE, ("Ann",), 10, 0, None, None, "s2"),
    ("solo", FARKLE, ("Ann",), 20, 0, None, None, "s3"),  # twenty turns: no ten-turn record
    ("race", FARKLE, ("Ann",), None, 0, None, None, "r1"),
    ("race", FIVE_THOUSAND, ("Ann",), None, 0, None, None, "r2"),
    ("challenge", FARKLE, ("Ann",), 10, 0, "Bob", None, "c1"),
    ("daily", FARKLE, ("Ann",), 10, 0, None, DAY, "d1"),
    ("daily", FARKLE, ("Ann",), 10, 0, None, DAY, "d1"),
    ("daily", FARKLE, ("Ann",), 10, 0, None, date(2025, 3, 15), "d2"),
    ("together", FARKLE, ("Ann", "Bob", "Cy"), None, 0, "Bob, Cy", None, "t1"),
    ("together", FARKLE, ("Ann", "Bob", "Cy"), None, 1, "Ann, Cy", None, "t1"),
    ("pad", FIVE_THOUSAND, ("Ann", "Bob"), None, 1, "Ann", None, "p1"),
]

SOLO = 4
DAILY, AGAIN, NEXT_DAY = (i for i, row in enumerate(PLAN) if row[0] == "daily")


@pytest.fixture(scope="module")
def played() -> list[Played]:
    games: dict[str, Game] = {}
    out = []
    for mode, rules, players, limit, seat, opponent, day, seed in PLAN:
        if seed not in games or mode == "daily":  # a later daily attempt is played again with the same dice
            games[seed] = play(rules, players, SeededDice(seed), limit)
        out.append(Played(games[seed], seat, mode, opponent, day, count(games[seed])))
    return out


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'stats.sqlite3'}")


@pytest.fixture
def filled(store: Store, played: list[Played]) -> tuple[Store, list[GameResult]]:
    results = [
        record_game(store, p.game, player=p.player, mode=p.mode, opponent=p.opponent, day=p.day, record_json="{}")
        for p in played
    ]
    return store, results


def test_the_count_agrees_with_the_games(played: list[Played]) -> None:
    # The hand count reads the history right: same scores and winners as the engine.
    for p in played:
        assert p.game.outcome is not None
        assert tuple(s.score for s in p.seats) == p.game.scores
        assert winners(p.seats) == set(p.game.outcome.winners)
        assert [len(s.farkled) for s in p.seats] == list(p.game.turns_played)


def test_each_game_is_stored_from_its_player_seat(filled: tuple[Store, list[GameResult]], played: list[Played]) -> None:
    _, results = filled
    for p, r in zip(played, results, strict=True):
        seat = p.seat
        assert (r.mode, r.rules, r.player, r.opponent) == (p.mode, str(p.game.rules), p.player, p.opponent)
        assert r.player_name == p.game.players[p.player]
        assert r.score == seat.score
        assert r.won == p.won
        assert r.turns == len(seat.farkled)
        assert r.best_bank == max(seat.banks, default=0)
        assert r.hot_dice == seat.hot_dice
        assert r.farkles == sum(seat.farkled)
        counted = {n: (k, seat.farkles[n]) for n, k in seat.rolls.items()}
        assert {c.dice: (c.rolls, c.farkles) for c in r.rolls} == counted


@pytest.mark.slow
def test_statistics_match_an_independent_count(filled: tuple[Store, list[GameResult]], played: list[Played]) -> None:
    store, _ = filled
    stats = statistics(store)
    official = [p for p in played if p is not played[AGAIN]]  # the second attempt of DAY is a later attempt
    seats = [p.seat for p in official]
    won = [p.won for p in official]

    assert stats.games == len(PLAN)
    modes = Counter(p.mode for p in played)
    multi = [p for p in played if len(p.game.players) > 1]
    for mode, n in modes.items():
        wins = [p.won for p in multi if p.mode == mode]
        assert stats.by_mode[mode].played == n
        assert stats.by_mode[mode].won == (sum(wins) if wins else None)
    assert set(stats.by_mode) == set(modes)
    assert stats.by_mode["solo"].won is None  # nobody to beat
    opponents = Counter(p.opponent for p in played if p.opponent)
    assert {k: t.played for k, t in stats.by_opponent.items()} == opponents
    assert stats.by_opponent["easy"].won == sum(p.won for p in played if p.opponent == "easy")
    assert stats.by_opponent["Bob"].won is None  # the challenge was played alone

    assert stats.best_turn == max(b for s in seats for b in s.banks)
    assert stats.best_ten_turns == max(
        s.score
        for p, s in zip(official, seats, strict=True)
        if p.mode in ("solo", "daily", "challenge") and p.game.turn_limit == 10
    )
    assert stats.fewest_turns == min(len(s.farkled) for p, s in zip(official, seats, strict=True) if p.mode == "race")
    assert stats.hot_dice == sum(s.hot_dice for s in seats)

    flags = [w for p, w in zip(official, won, strict=True) if len(p.game.players) > 1]
    assert stats.longest_win_streak == longest_false_run([not w for w in flags])
    trailing = len(flags) - max((i + 1 for i, w in enumerate(flags) if not w), default=0)
    assert stats.current_win_streak == trailing
    assert stats.longest_farkle_free_run == longest_false_run([f for s in seats for f in s.farkled])

    rates = {(f.rules, f.dice): f for f in stats.farkle_rates}
    for rules in (FARKLE, FIVE_THOUSAND):
        for n in range(1, rules.dice + 1):
            f = rates[str(rules), n]
            mine = [s for p, s in zip(official, seats, strict=True) if p.game.rules == rules]
            assert f.rolls == sum(s.rolls[n] for s in mine) > 0
            assert f.farkles == sum(s.farkles[n] for s in mine)
            assert f.expected == reference_farkle_rate(rules, n)
    assert len(rates) == 6 + 5

    day2 = played[NEXT_DAY]
    assert [(d.day, d.score, d.official) for d in stats.dailies] == [
        (DAY, played[DAILY].game.scores[0], True),
        (DAY, played[AGAIN].game.scores[0], False),
        (day2.day, day2.game.scores[0], True),
    ]


def test_expected_farkle_rates_are_those_of_seed_003(filled: tuple[Store, list[GameResult]]) -> None:
    # Seed 003, "Le risque de Farkle": 6 dice 2,3 %, 5: 7,7 %, 4: 15,7 %, 3: 27,8 %, 2: 44,4 %, 1: 66,7 %.
    rates = {f.dice: f.expected for f in statistics(filled[0]).farkle_rates if f.rules == "farkle"}
    table = {6: 2.3, 5: 7.7, 4: 15.7, 3: 27.8, 2: 44.4, 1: 66.7}
    assert {n: round(100 * float(p), 1) for n, p in rates.items()} == table


def test_to_json_is_plain_json(filled: tuple[Store, list[GameResult]]) -> None:
    data = json.loads(json.dumps(statistics(filled[0]).to_json()))
    assert data["games"] == len(PLAN)
    assert {d["day"] for d in data["dailies"]} == {"2025-03-14", "2025-03-15"}
    for f in data["farkle_rates"]:
        assert f["expected_rate"] == float(Fraction(f["expected"]))
        assert f["rate"] == f["farkles"] / f["rolls"]


# -- refusals and the daily rule ----------------------------------------------------------------------


def test_training_never_reaches_statistics(store: Store, played: list[Played]) -> None:
    with pytest.raises(ValueError, match="training"):
        record_game(store, played[SOLO].game, player=0, mode="training", opponent=None)
    assert statistics(store).games == 0


def test_refused_inputs(store: Store, played: list[Played]) -> None:
    unfinished = Game(FARKLE, players=("Ann",))
    with pytest.raises(ValueError, match="not over"):
        record_game(store, unfinished, player=0, mode="solo", opponent=None)
    with pytest.raises(ValueError, match="unknown mode 'sollo'"):
        record_game(store, played[SOLO].game, player=0, mode="sollo", opponent=None)
    with pytest.raises(ValueError, match="player 1"):
        record_game(store, played[SOLO].game, player=1, mode="solo", opponent=None)
    with pytest.raises(ValueError, match="daily games only"):
        record_game(store, played[SOLO].game, player=0, mode="solo", opponent=None, day=DAY)
    with pytest.raises(ValueError, match="opponent is longer than 200"):
        record_game(store, played[SOLO].game, player=0, mode="solo", opponent="x" * 201)
    assert statistics(store).games == 0


def test_a_later_daily_attempt_is_unofficial(store: Store, played: list[Played]) -> None:
    game = played[DAILY].game
    first = record_game(store, game, player=0, mode="daily", opponent=None, day=DAY)
    second = record_game(store, game, player=0, mode="daily", opponent=None, day=DAY)
    other_day = record_game(store, game, player=0, mode="daily", opponent=None, day=date(2025, 3, 13))
    asked_unofficial = record_game(store, game, player=0, mode="daily", opponent=None, day=date(2025, 3, 12),
                                   official=False)
    assert (first.official, second.official, other_day.official, asked_unofficial.official) == (
        True, False, True, False)
    # The unofficial attempt counts as played but in no record.
    with store.session() as session:
        session.delete(session.get(GameResult, first.id))
        session.delete(session.get(GameResult, other_day.id))
        session.commit()
    stats = statistics(store)
    assert stats.by_mode["daily"].played == 2
    assert (stats.best_ten_turns, stats.best_turn, stats.hot_dice, stats.farkle_rates) == (None, None, 0, ())


def test_a_daily_without_a_day_is_today_utc(store: Store, played: list[Played]) -> None:
    from datetime import UTC, datetime

    before = datetime.now(UTC).date()
    result = record_game(store, played[DAILY].game, player=0, mode="daily", opponent=None)
    assert before <= result.day <= datetime.now(UTC).date()  # type: ignore[operator]


def test_two_official_results_for_one_day_are_impossible(store: Store, played: list[Played]) -> None:
    record_game(store, played[DAILY].game, player=0, mode="daily", opponent=None, day=DAY)
    row = {c.name: getattr(only_row(store), c.name) for c in GameResult.__table__.columns if c.name != "id"}
    with store.session() as session:
        session.add(GameResult(**row))  # a second row with official_day = DAY
        with pytest.raises(IntegrityError):
            session.commit()
    with store.session() as session:
        session.add(GameResult(**{**row, "day": date(2025, 3, 15)}))  # official_day must be the day
        with pytest.raises(IntegrityError):
            session.commit()
    assert statistics(store).games == 1


def only_row(store: Store) -> GameResult:
    with store.session() as session:
        row = session.query(GameResult).one()
        session.expunge(row)
        return row


def test_recording_in_a_session_leaves_the_commit_to_the_caller(store: Store, played: list[Played]) -> None:
    with store.session() as session:
        record_game(session, played[SOLO].game, player=0, mode="solo", opponent=None)
        assert statistics(session).games == 1
        session.rollback()
    assert statistics(store).games == 0


# -- wins and streaks over a hand-made sequence -------------------------------------------------------

WIN = [1, 1, 1, 2, 3, 4]  # three 1s: 1000
FARKLE_ROLL = [2, 2, 3, 4, 6, 6]  # nothing scores


def duel(result: str) -> Game:
    """One turn each: 'W' Ann wins, 'L' Bob wins, 'T' both farkle and share the win."""
    first, second = {"W": (WIN, FARKLE_ROLL), "L": (FARKLE_ROLL, WIN), "T": (FARKLE_ROLL, FARKLE_ROLL)}[result]
    dice = FixedDice([first, second])
    game = Game(FARKLE, players=("Ann", "Bob"), turn_limit=1)
    for action in ("roll", "111", "bank", "roll") if result == "W" else ("roll", "roll", "111", "bank"):
        game.play(action, dice)
        if game.is_over:
            break
    if result == "T":
        assert game.outcome is not None and game.outcome.winners == (0, 1)
    return game


def test_wins_and_streaks_over_a_hand_made_sequence(store: Store, played: list[Played]) -> None:
    # Ties share the win; games alone (solo) do not break or extend a streak.
    sequence = "WWLWW-WTLWW"
    for result in sequence:
        if result == "-":
            record_game(store, played[SOLO].game, player=0, mode="solo", opponent=None)
            continue
        game = duel(result)
        assert game.outcome is not None
        assert (0 in game.outcome.winners) == (result in "WT")
        record_game(store, game, player=0, mode="versus", opponent="Bob")
    stats = statistics(store)
    assert stats.by_mode["versus"].played == 10
    assert stats.by_mode["versus"].won == 8
    assert stats.by_opponent == {"Bob": stats.by_mode["versus"]}
    assert (stats.longest_win_streak, stats.current_win_streak) == (4, 2)  # W W - W T, then W W
    record_game(store, duel("L"), player=0, mode="versus", opponent="Bob")
    assert (statistics(store).longest_win_streak, statistics(store).current_win_streak) == (4, 0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), max_size=12), max_size=8))
def test_runs_without_a_farkle_continue_across_games(games: list[list[bool]]) -> None:
    # Each game is its list of turns, True for a turn that ended in a farkle; stored rows carry only the runs.
    from hotdice.store.stats import _farkle_free_runs, _longest_farkle_free_run

    rows = []
    for farkled in games:
        runs = _farkle_free_runs(farkled)
        rows.append(GameResult(turns=len(farkled), farkles=sum(farkled), farkle_free_first=runs[0],
                               farkle_free_best=max(runs), farkle_free_last=runs[-1]))
    assert _longest_farkle_free_run(rows) == longest_false_run([f for g in games for f in g])


# -- the database file and the command ----------------------------------------------------------------


def test_default_database_is_in_the_data_dir_with_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      played: list[Played]) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    with Store() as store:
        record_game(store, played[SOLO].game, player=0, mode="solo", opponent=None)
    path = tmp_path / "data" / DB_FILE
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT mode, score FROM game_results").fetchall() == [("solo", played[SOLO].game.scores[0])]


ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


def hotdice(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**ENV, DATA_DIR_ENV: str(data)}
    return subprocess.run([sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=env,
                          timeout=60, check=False)


@pytest.mark.slow
def test_cli_on_an_empty_database(tmp_path: Path) -> None:
    proc = hotdice(tmp_path, "stats")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert "No games yet" in proc.stdout
    proc = hotdice(tmp_path, "stats", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["games"] == 0


@pytest.mark.slow
def test_cli_on_a_filled_database(tmp_path: Path, played: list[Played]) -> None:
    with Store(f"sqlite:///{tmp_path / DB_FILE}") as store:
        for p in played:
            record_game(store, p.game, player=p.player, mode=p.mode, opponent=p.opponent, day=p.day)
        expected = statistics(store)
    proc = hotdice(tmp_path, "stats", "--json")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert json.loads(proc.stdout) == json.loads(json.dumps(expected.to_json()))
    proc = hotdice(tmp_path, "stats")
    assert (proc.returncode, proc.stderr) == (0, "")
    text = proc.stdout
    for title in ("Games by mode", "Games by opponent", "Records", "Farkles by dice", "Daily games"):
        assert title in text
    assert any("best turn (largest bank)" in line and f" {expected.best_turn} " in line for line in text.splitlines())
    assert any(line.split() == ["│", DAY.isoformat(), "│", str(expected.dailies[1].score), "│", "no", "│"]
               for line in text.splitlines())
    assert "2.3 %" in text  # the expected rate of six dice under farkle


@pytest.mark.slow
def test_cli_reports_an_unusable_data_dir_in_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    proc = hotdice(blocker, "stats")
    assert proc.returncode == 2
    assert proc.stderr.startswith("hotdice: error: cannot read the statistics database")
    assert len(proc.stderr.splitlines()) == 1


def test_statistics_of_one_owner_leave_out_the_others(filled: tuple[Store, list[GameResult]]) -> None:
    store, results = filled
    with store.session() as session:
        web = session.get(GameResult, results[0].id)
        assert web is not None
        web.owner = "device-token"
        session.commit()
    everyone, mine, theirs = statistics(store), statistics(store, owner=""), statistics(store, owner="device-token")
    assert (mine.games, theirs.games) == (everyone.games - 1, 1)
