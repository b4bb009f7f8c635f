"""The background solver: one solve per table however often it is asked for, one at a time, a bounded queue
that says when it is full, progress rising to 100 %, rules Hard cannot solve refused with the reason; and the
Hard player of a front end, which plays expected points until its table is ready.

Small targets only (a second or two of solving each), each test its own rules: the cache folder is the test
run's (tests/conftest.py), shared by the tests of one process.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable

import pytest

from hotdice.analysis import coach
from hotdice.analysis.coach import advise, measure_now
from hotdice.analysis.solver import MAX_TARGET, TooLong, affordable, refusal, solved
from hotdice.analysis.solver import background as bg
from hotdice.analysis.solver.race import solve_race
from hotdice.analysis.solver.two_player import solve_two_players
from hotdice.game.engine import Game
from hotdice.game.rules import Rules
from hotdice.play.players.skilled import HardPlayer, MediumPlayer, at_once, pending

_fresh = itertools.count()


def fresh_rules(base: str = "farkle,target=1000") -> Rules:
    """Rules no other test of the run has solved: a minimum bank of its own (250, 300, ... points, below the
    target), then the same with hot dice that must be rolled."""
    while True:
        k = next(_fresh)
        target = Rules.parse(base).target
        banks = (target - 250) // 50
        if k >= 2 * banks:
            raise AssertionError(f"no unsolved rules left under {base}: use another base")
        rules = Rules.parse(f"{base},min_bank={250 + 50 * (k % banks)}{',hot_dice=must' if k >= banks else ''}")
        if not solved(rules):
            return rules


def until_ready(solver: bg.Solver, kind: bg.Kind, rules: Rules, timeout: float = 120) -> list[bg.Status]:
    """The statuses seen, every 20 ms, until the table is ready."""
    seen: list[bg.Status] = []
    deadline = time.monotonic() + timeout
    while not (status := solver.status(kind, rules) or bg.READY).ready:
        assert time.monotonic() < deadline, f"the solve of {rules} never finished: {status}"
        seen.append(status)
        time.sleep(0.02)
    return seen


def until_state(solver: bg.Solver, rules: Rules, state: str) -> bg.Status:
    """The status of the two-player table once it is in ``state``."""
    deadline = time.monotonic() + 30
    while (status := solver.status("two", rules) or bg.READY).state != state:
        assert time.monotonic() < deadline, f"{rules} never got to {state}: {status}"
        time.sleep(0.02)
    return status


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rules of every two-player solve the background solver starts."""
    started: list[str] = []
    real: Callable[[Rules], object] = bg.two_player_solution

    def solve(rules: Rules) -> object:
        started.append(str(rules))
        return real(rules)

    monkeypatch.setattr(bg, "two_player_solution", solve)
    return started


def test_asking_twice_for_one_table_solves_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    started = counting(monkeypatch)
    solver = bg.Solver()
    rules = fresh_rules()
    first = solver.request("two", rules)
    asked = [solver.request("two", rules) for _ in range(20)]
    assert first.state == "queued" and all(s.state in ("queued", "solving") for s in asked)
    seen = until_ready(solver, "two", rules)
    assert started == [str(rules)] and solved(rules)
    assert solver.request("two", rules) == bg.READY and started == [str(rules)]  # and never again
    shares = [s.progress for s in seen]
    assert shares == sorted(shares)  # progress only rises


@pytest.mark.slow
def test_the_solves_run_one_at_a_time_in_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    running: list[int] = []
    at_once_max = [0]
    lock = threading.Lock()
    real: Callable[[Rules], object] = bg.two_player_solution

    def solve(rules: Rules) -> object:
        with lock:
            running.append(threading.get_ident())
            at_once_max[0] = max(at_once_max[0], len(running))
        try:
            return real(rules)
        finally:
            with lock:
                running.pop()

    monkeypatch.setattr(bg, "two_player_solution", solve)
    solver = bg.Solver()
    tables = [fresh_rules() for _ in range(3)]
    for rules in tables:
        solver.request("two", rules)
    for rules in tables:
        until_ready(solver, "two", rules)
    assert at_once_max == [1]


@pytest.mark.slow
def test_the_queue_is_bounded_and_says_so() -> None:
    solver = bg.Solver(capacity=2)
    first, second, third = fresh_rules(), fresh_rules(), fresh_rules()
    assert solver.request("two", first).state == "queued"
    assert solver.request("two", second).state == "queued"
    full = solver.request("two", third)
    assert full.state == "full" and full.reason is not None and "2 rule sets" in full.reason
    assert full.json()["why"] == {"code": "full", "values": {"capacity": 2}}
    assert solver.status("two", third) is None  # not queued: asked again later, it may be
    until_ready(solver, "two", second)
    assert solver.request("two", third).state in ("queued", "solving")
    until_ready(solver, "two", third)


@pytest.mark.slow
def test_progress_rises_to_one() -> None:
    for text in ("farkle,target=1000", "farkle,target=300,three_farkles=500"):
        shares: list[float] = []
        solve_two_players(Rules.parse(text), progress=shares.append)
        assert shares == sorted(shares) and shares[-1] == 1.0 and any(0 < s < 1 for s in shares), text
    shares = []
    solve_race(fresh_rules(), progress=shares.append)
    assert shares == sorted(shares) and shares[-1] == 1.0 and any(0 < s < 1 for s in shares)


def test_rules_beyond_what_hard_solves_are_refused_with_the_reason() -> None:
    solver = bg.Solver()
    for text in (f"farkle,target={MAX_TARGET + 50}", f"farkle,three_farkles=1000,target={MAX_TARGET + 50}"):
        rules = Rules.parse(text)
        status = solver.request("two", rules)
        assert status.state == "refused" and status.reason == str(refusal(rules)) and status.too_long == refusal(rules)
        assert status.json()["too_long"] == {"max_target": MAX_TARGET, "target": rules.target}
        assert refusal(rules) == TooLong(MAX_TARGET, rules.target)  # as data
        assert f"up to a target of {MAX_TARGET}" in (status.reason or "") and not affordable(rules)
    # Every rule set the settings offer is solved, the three-farkle penalty at 10 000 included.
    for text in (f"farkle,target={MAX_TARGET}", f"farkle,three_farkles=500,target={MAX_TARGET}",
                 f"5000,three_farkles=1000,target={MAX_TARGET}"):
        assert refusal(Rules.parse(text)) is None and affordable(Rules.parse(text)), text


def test_a_front_end_hard_plays_expected_points_until_its_table_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    own = bg.Solver()  # no other test's solves queued before this one
    monkeypatch.setattr(coach, "SOLVER", own)
    rules = fresh_rules("farkle,target=1500")
    game = Game(rules, ["you", "hard"])
    hard = HardPlayer(random.Random(1))
    at_once(hard)
    measure, status = measure_now(game)  # asks the solver, as a request would
    assert measure == "points" and status is not None and status.state in ("queued", "solving")
    assert hard.choose(game) == advise(game, "points").best.action
    until_ready(own, "two", rules)
    assert measure_now(game) == ("win", bg.READY)


def test_a_patient_hard_waits_for_its_table_and_only_it(monkeypatch: pytest.MonkeyPatch) -> None:
    own = bg.Solver()
    monkeypatch.setattr(coach, "SOLVER", own)
    rules = fresh_rules("farkle,target=1500")
    game = Game(rules, ["you", "hard"])
    rng = random.Random(1)
    patient, impatient, medium = HardPlayer(rng), HardPlayer(rng), MediumPlayer(rng)
    at_once(patient, patient=True)
    at_once(impatient)
    at_once(medium, patient=True)  # only Hard has a table to wait for
    status = pending(patient, game)  # asks the solver, never solves here
    assert status is not None and status.state in ("queued", "solving")
    assert pending(impatient, game) is None and pending(medium, game) is None
    until_ready(own, "two", rules)
    assert pending(patient, game) is None and patient.choose(game) == advise(game, "win").best.action
    failed = fresh_rules("farkle,target=1500")
    monkeypatch.setattr(bg, "two_player_solution", lambda rules: 1 / 0)  # the solve fails
    until_failed = Game(failed, ["you", "hard"])
    pending(patient, until_failed)
    until_state(own, failed, "failed")
    assert pending(patient, until_failed) is None  # a failed solve: it plays expected points, as today


def test_a_full_queue_and_a_failed_solve_are_facts_worded_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The English ``reason`` of the JSON is what it always was; the facts beside it word it in French (the
    terminal, and the browser's script from the same catalogue) without English."""
    from hotdice.i18n import Translator
    from tests.french_support import english_left
    from tests.test_i18n import typography_faults

    solver = bg.Solver()
    monkeypatch.setattr(bg, "two_player_solution", lambda rules: 1 / 0)
    rules = fresh_rules()
    solver.request("two", rules)
    failed = until_state(solver, rules, "failed")
    full = bg.Solver(capacity=0).request("two", fresh_rules())
    assert full.json() == {"state": "full", "progress": 0.0, "why": {"code": "full", "values": {"capacity": 0}},
                           "reason": "the solver has 0 rule sets to work out already: ask again in a few minutes"}
    assert failed.json() == {"state": "failed", "progress": 0.0, "why": {"code": "failed", "values": {
        "error": "division by zero"}}, "reason": "the solve failed: division by zero"}
    for status in (full, failed):
        assert Translator("en").unsolved(status) == status.reason
        french = Translator("fr").unsolved(status)
        assert english_left(french) == [] and typography_faults(french) == [], french
    assert Translator("fr").unsolved(failed) == "la résolution a échoué\u00a0: division by zero"
