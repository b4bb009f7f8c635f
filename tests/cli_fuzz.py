"""The fuzzing of every ``hotdice`` verb, shared by ``tests/test_cli_fuzz.py`` (bounded, in the suite) and
``bench/bench_cli_fuzz.py`` (a longer run that counts): Hypothesis strategies of command lines, and :func:`run`,
which runs one in this process and says what it did wrong, if anything.

The contract checked (CONTRIBUTING, issue 26): exit 0 or 2 (``verify`` also 1: a record that does not verify),
never a traceback, and a refusal is one line on stderr, ``hotdice: error: ...``.

What is never run, and why: ``serve`` always gets a port out of range last (it would start a server), ``play``
runs without a terminal (it refuses to start the TUI), ``plot`` always gets a chart or folder it refuses (it
would write PNG files after a two-player solve), and the verbs that solve (``solve``, ``advise``) get rules
with a 500-point target only (a preset's table takes minutes).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
import sys
import traceback
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from hotdice.cli import main
from hotdice.game.dice import SeededDice
from hotdice.game.engine import ROLL, Game
from hotdice.game.record import record_of
from hotdice.game.rules import KNOBS, Rules, RulesError
from hotdice.game.variants import VARIANTS

__all__ = ["VERBS", "Line", "Ran", "command_lines", "real_record", "run"]

VERBS = ("rules", "score", "odds", "simulate", "replay", "verify", "stats", "play", "serve", "solve", "advise",
         "plot")
PRESETS = tuple(v.name for v in VARIANTS)
CHEAP = ("farkle,target=500", "5000,target=500", "5000-fr,target=1000,entry=0",
         "5000-fr-6,target=500,entry=0,min_bank=0")
BAD_NUMBERS = ("", "x", "-1", "0", "1.5", "1e3", "99999999999999999999999", "-0", " 7", "٣", "50\x00", "NaN")
FLAGS = ("--json", "--list", "--help", "-r", "--rules", "-p", "--players", "-n", "--games", "--seed", "-s", "--scores",
         "-t", "--turn", "-d", "--dice-left", "--position", "--key", "--commitment", "--check", "-c", "--chart", "-o",
         "--output", "--resume", "--host", "--port", "--workers", "--lang", "--no-proxy-headers", "-x", "--nope", "-")

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
numbers = st.one_of(st.integers(-10**4, 10**4).map(str), st.integers().map(str), st.sampled_from(BAD_NUMBERS))


def _knob_value(name: str) -> st.SearchStrategy[str]:
    knob = next((k for k in KNOBS if k.name == name), None)
    words = [] if knob is None else [w for w in knob.accepted().split(" or ") if " " not in w]
    return st.one_of(st.sampled_from(words or ["50"]), numbers, texts)


knob_pairs = st.sampled_from([k.name for k in KNOBS] + ["nope", ""]).flatmap(
    lambda name: st.one_of(_knob_value(name).map(lambda v: f"{name}={v}"), st.just(name)))


@st.composite
def rules_strings(draw: st.DrawFn, cheap: bool = False) -> str:
    """A preset and knob=value pairs, valid and not; ``cheap``: a 500-point target comes last but for the knobs
    that cannot change it (a table solved in a second)."""
    head = draw(st.sampled_from(CHEAP if cheap else (*PRESETS, *CHEAP, "nope", "", "FARKLE", "farkle,,")))
    pairs = draw(st.lists(knob_pairs, max_size=3)) if draw(st.booleans()) else []
    if cheap:
        pairs = [p for p in pairs if not p.startswith(("target", "dice", "end"))]
    return ",".join([head, *pairs]) if pairs else head


@st.composite
def positions(draw: st.DrawFn, rules: str) -> str:
    """A position of a game played at random under ``rules``, as the engine writes it, then perhaps mutated:
    a character changed, dropped or added, a field dropped, doubled or swapped, a number made huge."""
    game = Game(Rules.parse(rules), players=[f"P{i}" for i in range(draw(st.integers(1, 3)))])
    dice, chooser = SeededDice(draw(st.binary(min_size=4, max_size=4))), random.Random(draw(st.integers(0, 99)))
    for _ in range(draw(st.integers(0, 60))):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.play(ROLL if ROLL in legal and chooser.random() < 0.7 else chooser.choice(legal), dice)
    text = game.position()
    for _ in range(draw(st.integers(0, 2))):
        fields = text.split(" ")
        k = draw(st.integers(0, len(fields) - 1))
        mutation = draw(st.sampled_from(("char", "drop_char", "add_char", "drop", "double", "swap", "huge")))
        i = draw(st.integers(0, max(0, len(text) - 1)))
        char = draw(st.sampled_from("0123456789,~x/.?v- ;é\t") | st.characters(codec="utf-8",
                                                                                 exclude_categories=("Cs",)))
        if mutation == "char":
            text = text[:i] + char + text[i + 1:]
        elif mutation == "drop_char":
            text = text[:i] + text[i + 1:]
        elif mutation == "add_char":
            text = text[:i] + char + text[i:]
        elif mutation == "drop":
            text = " ".join(fields[:k] + fields[k + 1:])
        elif mutation == "double":
            text = " ".join(fields[:k + 1] + fields[k:])
        elif mutation == "swap":
            j = draw(st.integers(0, len(fields) - 1))
            fields[k], fields[j] = fields[j], fields[k]
            text = " ".join(fields)
        else:
            text = text.replace("0", draw(st.sampled_from(("0" * 30, "9" * 30, "-0", "00"))), 1)
    return text


def _parses(rules: str) -> bool:
    try:
        Rules.parse(rules)
    except RulesError:
        return False
    return True


def _record(rules: str, key: bytes, seed: int, players: int) -> dict[str, Any]:
    """The record of a game played to its end (or 400 steps) with seeded dice, as ``hotdice`` writes it."""
    game = Game(Rules.parse(rules), players=[f"P{i}" for i in range(players)])
    dice, chooser = SeededDice(key), random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.play(ROLL if ROLL in legal and chooser.random() < 0.6 else chooser.choice(legal), dice)
    return record_of(game, seed=key, mode="versus").to_json()


def real_record() -> bytes:
    """The record of a whole game of 5000 between two seats, as ``hotdice`` writes it."""
    return json.dumps(_record("5000", bytes(32), 0, 2)).encode()


json_values = st.one_of(st.none(), st.booleans(), st.integers(), st.just(10**400), st.floats(), texts,
                        st.lists(st.integers(0, 9), max_size=3), st.dictionaries(texts, st.integers(), max_size=2))


@st.composite
def record_bytes(draw: st.DrawFn) -> bytes:
    """A real record of a game played at random, then perhaps mutated: a field removed or of the wrong type, a
    history line changed, huge numbers, the text truncated, bytes that are not UTF-8."""
    data = _record(draw(st.sampled_from((*PRESETS, *CHEAP))), draw(st.binary(min_size=32, max_size=32)),
                   draw(st.integers(0, 99)), draw(st.integers(1, 3)))
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from([*data, "extra"]))
        mutation = draw(st.sampled_from(("remove", "value", "line", "huge")))
        if mutation == "remove":
            data.pop(name, None)
        elif mutation == "value":
            data[name] = draw(json_values)
        elif mutation == "line" and isinstance(data.get("history"), list) and data["history"]:
            k = draw(st.integers(0, len(data["history"]) - 1))
            data["history"][k] = draw(st.one_of(texts, json_values))
        elif mutation == "huge":
            data[name] = draw(st.sampled_from((10**30, -(10**30), 2**63, 1e308, float("inf"))))
    text = json.dumps(data).encode()
    how = draw(st.sampled_from(("as is", "as is", "truncated", "not utf-8", "empty", "nul")))
    if how == "truncated":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "not utf-8":
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from((b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x80\x80"))) + text[i:]
    elif how == "empty":
        text = b""
    elif how == "nul":
        text = text.replace(b'"', b'\x00"', 1)
    return text


dice_strings = st.one_of(st.lists(st.integers(0, 9), max_size=8).map(lambda ds: "".join(map(str, ds))),
                         st.lists(st.integers(1, 6), min_size=1, max_size=6).map(lambda ds: " ".join(map(str, ds))),
                         texts)
tokens = st.one_of(st.sampled_from(FLAGS), st.sampled_from(PRESETS), numbers, texts, dice_strings)
# Verbs that solve: no token that names rules other than cheap ones, and no "--" that would make "-r" a die.
solver_tokens = st.one_of(st.sampled_from([f for f in FLAGS if f not in ("-r", "--rules")]), numbers,
                          dice_strings.filter(lambda s: not s.startswith("--") or s == "--help"))


@dataclasses.dataclass(frozen=True)
class Line:
    """A command line: its arguments, the files it names (written first) and its stdin."""

    args: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    stdin: str = ""



def _opt(flag: str, value: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), value.map(lambda v: [flag, v]))


def _flags(*names: str) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(names), max_size=2)


@st.composite
def command_lines(draw: st.DrawFn, verb: str) -> Line:
    """A command line of ``verb``: near-valid (its own options, values valid or not) or random tokens."""
    lang = draw(st.sampled_from(([], [], [], [], [], ["--lang", "fr"], ["--lang", "en"], ["--lang", "xx"])))
    files: list[tuple[str, bytes]] = []
    stdin = ""
    near = draw(st.booleans())
    if verb == "rules":
        rest = ([draw(rules_strings()), *draw(_flags("--json", "--list"))] if near
                else draw(st.lists(tokens, max_size=4)))
    elif verb == "score":
        if near and draw(st.booleans()):
            rest = ["-", *draw(_opt("-r", rules_strings())), *draw(_flags("--json"))]
            stdin = "\n".join(draw(st.lists(st.one_of(dice_strings, texts), max_size=5)))
        elif near:
            rest = [*draw(st.lists(dice_strings, min_size=1, max_size=3)), *draw(_opt("-r", rules_strings())),
                    *draw(_flags("--json"))]
        else:
            rest = draw(st.lists(tokens, max_size=5))
            stdin = draw(texts)
    elif verb == "odds":
        rest = [*draw(_opt("-r", rules_strings())), *draw(_flags("--json"))] if near else draw(st.lists(tokens,
                                                                                                         max_size=4))
    elif verb == "simulate":
        specs = st.lists(st.one_of(st.sampled_from(("greedy", "random", "greedy:300", "greedy:x", "nobody", "")),
                                   texts), max_size=4).map(",".join)
        games = st.one_of(st.integers(1, 3).map(str), st.sampled_from(BAD_NUMBERS[:6]))
        rest = (["-p", draw(specs), *draw(_opt("-r", rules_strings().map(lambda r: r + ",target=500"))),
                 *draw(_opt("--seed", texts)), *draw(_flags("--json"))] if near
                else draw(st.lists(st.sampled_from(("-p", "greedy,random", "--seed", "--json", "--help", "-r",
                                                    "5000,target=300")) | numbers | texts, max_size=5)))
        rest += ["-n", draw(games)]  # last: the number of games stays small
    elif verb in ("replay", "verify"):
        files.append(("game.json", draw(record_bytes())))
        path = draw(st.sampled_from(("game.json", "game.json", "missing.json", ".")))
        options = (draw(_opt("--key", st.one_of(texts, st.binary(min_size=32, max_size=32).map(bytes.hex))))
                   + draw(_opt("--commitment", texts))) if verb == "verify" else draw(_flags("--json"))
        rest = [path, *options] if near else [*draw(st.lists(tokens, max_size=3)), path]
    elif verb == "stats":
        rest = draw(_flags("--json")) if near else draw(st.lists(tokens, max_size=3))
    elif verb == "play":
        rest = ([*draw(_opt("-r", rules_strings())), *draw(_opt("--lang", texts)), *draw(_flags("--resume"))]
                if near else draw(st.lists(tokens, max_size=4)))
    elif verb == "serve":
        rest = [*draw(st.lists(st.sampled_from(("--host", "--workers", "--no-proxy-headers", "--forwarded-allow-ips"))
                               | numbers | texts, max_size=4)),
                "--port", draw(st.sampled_from(("0", "65536", "-1", "x", "", "99999999999999999999")))]
    elif verb == "solve":
        players = st.one_of(st.sampled_from(("1", "2")), numbers)
        rest = ([*draw(_opt("-p", players)), *draw(_flags("--json"))] if near
                else draw(st.lists(solver_tokens.filter(lambda s: s != "--check"), max_size=4)))
        rest = ["-r", draw(rules_strings(cheap=True)), *rest]
    elif verb == "advise":
        rules = draw(rules_strings(cheap=True))
        if near and draw(st.booleans()):
            rest = ["-p", draw(positions(rules if _parses(rules) else next(c for c in CHEAP if rules.startswith(c))))]
            rest += [*draw(st.lists(dice_strings, max_size=1) | st.just([])), *draw(_flags("--json"))]
        elif near:
            scores = st.lists(st.integers(-100, 600).map(lambda n: str(n - n % 50)) | numbers, min_size=1,
                              max_size=3).map(",".join)
            rest = [*draw(_opt("-s", scores)), *draw(_opt("-t", numbers)), *draw(_opt("-d", numbers)),
                    *draw(st.lists(dice_strings, max_size=2)), *draw(_flags("--json"))]
        else:
            rest = draw(st.lists(solver_tokens, max_size=5))
        rest = ["-r", rules, *rest]
    elif verb == "plot":
        rest = ["-r", draw(rules_strings(cheap=True)), *draw(st.lists(solver_tokens, max_size=3))]
        rest += draw(st.sampled_from((["-c", "nope"], ["-c", ""], ["-o", "missing"], ["-o", "game.json"])))
        files.append(("game.json", b"{}"))
    else:
        raise ValueError(verb)
    return Line((*lang, verb, *rest), tuple(files), stdin)


@dataclasses.dataclass(frozen=True)
class Ran:
    """What one command line did: its exit code, stdout, stderr, and the traceback of an exception that left
    :func:`hotdice.cli.main` (None: it exited)."""

    code: int | None
    out: str
    err: str
    crash: str | None

    def wrong(self, verb: str) -> str | None:
        """What breaks the contract, or None."""
        if self.crash is not None or "Traceback" in self.err:
            return f"traceback:\n{self.crash or self.err}"
        if self.code not in ((0, 1, 2) if verb == "verify" else (0, 2)):
            return f"exit {self.code}"
        if self.code == 2 and (len(self.err.splitlines()) != 1 or not self.err.startswith("hotdice: error: ")):
            return f"a refusal that is not one line: {self.err!r}"
        return None


def run(line: Line, folder: Path) -> Ran:
    """``hotdice ARGS`` in this process, in ``folder`` (its files written there first), stdin given."""
    for name, data in line.files:
        (folder / name).write_bytes(data)
    args = [str(folder / a) if any(a == name for name, _ in line.files) or a in ("missing.json", "missing") else a
            for a in line.args]
    out, err = io.StringIO(), io.StringIO()
    code: int | None = None
    crash = None
    stdin = sys.stdin
    sys.stdin = io.StringIO(line.stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException:  # what the fuzzing looks for
        crash = traceback.format_exc()
    finally:
        sys.stdin = stdin
    return Ran(code, out.getvalue(), err.getvalue(), crash)
