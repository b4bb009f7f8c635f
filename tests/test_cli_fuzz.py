"""Every ``hotdice`` verb fuzzed (:mod:`tests.cli_fuzz`): argument strings, positions mutated from played games,
rules strings, record files mutated from played games, stdin lines; exit 0 or 2, never a traceback, a refusal
in one line on stderr. In this process, 20 examples a verb (HOTDICE_FUZZ_EXAMPLES); ``bench/bench_cli_fuzz.py``
runs many more. A few refusals also go through a real ``hotdice`` process, whose stderr is the user's."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tests.cli_fuzz import VERBS, Line, command_lines, real_record, run

EXAMPLES = int(os.environ.get("HOTDICE_FUZZ_EXAMPLES", "20"))  # a verb; half for those that compute much
HEAVY = ("odds", "simulate", "solve", "advise", "play", "serve")

# A command line a verb that runs to its end, tried first: the few examples of the suite then always reach the work
# behind the parsing (the coach, a simulation, a replay), which most generated lines are refused before.
RUNS = {
    "score": Line(("score", "-", "-r", "5000-fr"), stdin="11111\n2 2 3 6 5\n\n"),
    "simulate": Line(("simulate", "-p", "greedy,random", "-r", "5000,target=500", "-n", "2", "--seed", "x")),
    "advise": Line(("advise", "-r", "farkle,target=500", "-p", "300,150 1 200/3 - - - 3.2 -", "1", "5", "2")),
    "replay": Line(("replay", "game.json"), files=(("game.json", real_record()),)),
    "verify": Line(("--lang", "fr", "verify", "game.json"), files=(("game.json", real_record()),)),
}


@pytest.mark.slow
@pytest.mark.parametrize("verb", VERBS)
def test_a_verb_exits_0_or_2_never_with_a_traceback(verb: str) -> None:
    @given(line=command_lines(verb))
    @settings(max_examples=EXAMPLES // 2 if verb in HEAVY else EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(line: Line) -> None:
        with tempfile.TemporaryDirectory() as folder:
            wrong = run(line, Path(folder)).wrong(verb)
        assert wrong is None, wrong

    (example(line=RUNS[verb])(fuzz) if verb in RUNS else fuzz)()


@pytest.mark.parametrize("verb", RUNS)
def test_the_command_line_tried_first_runs_to_its_end(verb: str, tmp_path: Path) -> None:
    ran = run(RUNS[verb], tmp_path)
    assert (ran.code, ran.err) == (0, ""), ran


# Refusals that echoed a line break the user typed, and so took two lines (before bench_cli_fuzz's first run).
@example(line=Line(("advise", "-r", "farkle,target=500,entry=0\r0")))
@example(line=Line(("--lang", "fr", "simulate", "-p", "\x06\n0,", "-r", "5000,target=500", "-n", "1")))
@example(line=Line(("play", "--lang", "'\x85\x04M")))
@example(line=Line(("rules", "5000-fr,hot_dice=m\u2028ust")))
@given(line=st.just(Line(("rules",))))
@settings(phases=[Phase.explicit], deadline=None)
def test_the_command_lines_the_fuzzing_broke_stay_fixed(line: Line) -> None:
    with tempfile.TemporaryDirectory() as folder:
        wrong = run(line, Path(folder)).wrong(line.args[0])
    assert wrong is None, wrong


@pytest.mark.parametrize(("args", "stdin"), [
    (("score", "7"), b""),
    (("score", "-"), b"115\n11\xff5\n"),  # stdin that is not UTF-8
    (("--lang", "fr", "rules", "farkle,dice=7"), b""),
    (("rules", "farkle,entry=0\r0"), b""),
    (("advise", "-r", "farkle,target=500", "-p", "0,0 0 0/6 - - - 0.0"), b""),
    (("serve", "--port", "0"), b""),
    (("replay", "missing.json"), b""),
])
def test_a_refusal_in_a_real_process_is_one_line_exit_2(args: tuple[str, ...], stdin: bytes, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "hotdice.cli", *args], input=stdin, capture_output=True,
                          cwd=tmp_path, timeout=120, check=False)
    err = done.stderr.decode()
    assert done.returncode == 2, done
    assert len(err.splitlines()) == 1 and err.startswith("hotdice: error: "), err
