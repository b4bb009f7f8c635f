"""The human output of ``simulate``, ``solve``, ``advise``, ``stats``, ``replay``, ``verify`` and the knobs of ``rules``
through the catalogue: in English byte for byte what it was before (pinned in tests/cli_english/ and tests/golden/,
written by the code before the catalogue worded it), in French with none of the English catalogue's words, the JSON
the same in both."""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hotdice.game.record import Record, Result
from hotdice.game.rules import KNOBS, Rules
from tests.french_support import english_left
from tests.test_cli import ENV, ok

PINNED = Path(__file__).parent / "cli_english"
CASES: dict[str, tuple[str, ...]] = {
    "rules": ("rules", "5000"),
    "simulate": ("simulate", "-p", "greedy,random", "-n", "50", "--seed", "1"),
    "solve-two": ("solve", "--rules", "farkle,target=3000"),
    "solve-solo": ("solve", "-p", "1", "--rules", "farkle,entry=500,target=3000"),
    "advise-roll": ("advise", "--scores", "0,0", "--turn", "300", "155234", "--rules", "farkle,target=3000"),
    "advise-bank": ("advise", "--scores", "0,0", "--turn", "300", "-d", "2", "--rules", "farkle,target=3000"),
    "advise-turns": ("advise", "--scores", "0", "--turn", "300", "-d", "2", "--rules", "farkle,target=3000"),
    "advise-win": ("advise", "--scores", "0,0", "11111", "--rules", "5000-fr"),
    "advise-farkle": ("advise", "--scores", "0,0", "--turn", "300", "-d", "2", "22", "--rules", "farkle,target=3000"),
}


def stats_env(folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A statistics database in ``folder`` holding one finished ten-turn game (ten farkles)."""
    from hotdice.game.dice import FixedDice
    from hotdice.play.modes import solo
    from hotdice.store import Store
    from hotdice.store.stats import record_game

    dice = FixedDice([(2, 2, 3, 4, 6, 6)] * 10)
    setup = solo(Rules.parse("farkle,entry=500"), "Ann", dice=dice)
    while setup.game.outcome is None:
        setup.game.play("roll", dice)
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(folder))
    with Store() as store:
        record_game(store, setup.game, player=0, mode="solo", opponent=None)
    return {**ENV, "HOTDICE_DATA_DIR": str(folder)}


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "hotdice.cli", *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_english_output_is_what_it_was(name: str) -> None:
    assert ok(*CASES[name]) == (PINNED / f"{name}.txt").read_text(encoding="utf-8")
    assert ok("--lang", "en", *CASES[name]) == ok(*CASES[name])


@pytest.mark.slow
def test_the_english_statistics_are_what_they_were(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = stats_env(tmp_path, monkeypatch)
    assert run(env, "stats") == (PINNED / "stats.txt").read_text(encoding="utf-8")
    assert run({**env, "HOTDICE_DATA_DIR": str(tmp_path / "empty")}, "stats") == (PINNED / "stats-empty.txt").read_text(
        encoding="utf-8"
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_in_french_no_english_words_are_left(name: str) -> None:
    text = ok("--lang", "fr", *CASES[name])
    assert english_left(text) == [], text
    assert text != ok(*CASES[name])


@pytest.mark.slow
def test_french_figures_have_the_french_decimal_sign() -> None:
    assert "55,4\u00a0% (0,554468)" in ok("--lang", "fr", *CASES["solve-two"])
    assert "5,942" in ok("--lang", "fr", *CASES["solve-solo"])  # expected turns, the French decimal sign
    assert "92,9\u00a0% – 100,0\u00a0%" in ok("--lang", "fr", *CASES["simulate"])
    roll = ok("--lang", "fr", *CASES["advise-roll"])
    assert "mettre 5 de côté, puis relancer" in roll and "55,7\u00a0% de chances de gagner" in roll
    assert "-0,80\u00a0%" in roll
    assert "1 dé\u00a0: relancer ou" in ok(
        "--lang", "fr", "advise", "--scores", "0", "--turn", "300", "-d", "1", "--rules", "farkle,target=3000"
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", ["simulate", "solve-two", "solve-solo", "advise-roll", "advise-farkle"])
def test_the_json_is_the_same_in_french(name: str) -> None:
    assert ok("--lang", "fr", *CASES[name], "--json") == ok(*CASES[name], "--json")


@pytest.mark.slow
def test_the_statistics_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = stats_env(tmp_path, monkeypatch)
    text = run(env, "--lang", "fr", "stats")
    assert english_left(text) == [] and "Parties par mode" in text and "100,0\u00a0%" in text, text
    assert run(env, "--lang", "fr", "stats", "--json") == run(env, "stats", "--json")
    empty = run({**env, "HOTDICE_DATA_DIR": str(tmp_path / "empty")}, "--lang", "fr", "stats")
    assert empty.startswith("Pas encore de partie\u00a0:") and english_left(empty) == []


# Bad input of several commands and the English line it has always been (scripts read it), byte for byte.
ERRORS: dict[tuple[str, ...], str] = {
    ("solve", "--players", "3"): "--players 3: solve 1 (solo) or 2 (two players)",
    ("advise", "--turn", "300"): "give the banked scores (--scores 3000,4500), or a whole --position",
    ("advise", "--scores", "0,x"): "--scores 0,x: write the banked scores as numbers, yours first: 3000,4500",
    ("advise", "--scores", "0,0", "-d", "2", "155"): "3 dice given, but --dice-left is 2",
    ("advise", "--scores", "0,0", "--position", "0,0 0 0/6 - - - 1.1 -"): (
        "--position holds the scores, the turn total and the dice in hand: give no --scores, --turn nor "
        "--dice-left with it"),
    ("score", "1", "7"): "'7' is not a die: faces are 1 to 6",
    ("score", "1", "--rules", "farkle,entry=7"): "bad rules: entry=7 is not allowed: points are multiples of 50",
    ("odds", "--rules", "farkle,spin=1"): "bad rules: unknown knob 'spin'; knobs are: " + ", ".join(
        k.name for k in KNOBS),
    ("replay", "/no/such/record.json"): "cannot read /no/such/record.json: No such file or directory",
    ("plot", "--chart", "pie"): "--chart pie: the charts are bank, win and all",
}


@pytest.mark.slow
@pytest.mark.parametrize("args", sorted(ERRORS))
def test_the_english_error_lines_are_what_they_were(args: tuple[str, ...]) -> None:
    from tests.test_cli import hotdice

    for lang in ((), ("--lang", "en")):
        done = hotdice(*lang, *args)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"hotdice: error: {ERRORS[args]}\n")


def test_the_english_catalogue_words_the_errors_as_the_code_did() -> None:
    from hotdice import i18n
    from hotdice.i18n import Translator

    t = Translator("en")
    assert t("cli.error.not_text", file="x.json") == "x.json is not a text file"
    assert t("cli.error.listen", host="::1", port=80, reason="Permission denied") == (
        "cannot listen on ::1:80: Permission denied")
    assert t("cli.error.terminal") == "hotdice play needs a terminal: run it in a terminal window"
    assert t("cli.error.play_lang", lang="de") == "--lang de: the languages are fr and en"
    assert t("cli.error.aborted") == "aborted" and t("cli.error.usage") == "bad usage"
    for name, words in i18n.catalog("en").items():  # a system error: the system's own English
        if name.startswith("os."):
            assert os.strerror(getattr(errno, name.removeprefix("os."))) == words


@pytest.mark.parametrize("args", sorted(ERRORS))
def test_bad_input_in_french_is_one_french_line(args: tuple[str, ...]) -> None:
    from tests.test_cli import hotdice

    french = hotdice("--lang", "fr", *args)
    assert french.returncode == 2 and french.stdout == "" and french.stderr.count("\n") == 1
    assert french.stderr.startswith("hotdice: error: ") and french.stderr != hotdice(*args).stderr
    assert english_left(french.stderr) == [], french.stderr
    if args[0] == "replay":
        assert french.stderr.endswith("\u00a0: Fichier ou dossier introuvable\n"), french.stderr


def test_usage_errors_and_an_unknown_language_stay_english() -> None:
    """Click words what it reads before any command runs, and an unknown --lang names no language to word in."""
    from tests.test_cli import hotdice

    for lang in ((), ("--lang", "fr")):
        done = hotdice(*lang, "score", "--bogus")
        assert (done.returncode, done.stderr) == (2, "hotdice: error: No such option: --bogus\n")
    assert hotdice("--lang", "de", "odds").stderr == "hotdice: error: unknown language 'de': choose one of en, fr\n"


def test_the_language_of_the_help_and_the_errors() -> None:
    from hotdice.cli.help import language

    assert language(["--lang", "fr", "score", "1"]) == language(["--lang=fr"]) == "fr"
    assert language(["play", "--rules", "5000", "--lang", "fr"]) == language(["play", "--lang=fr", "--help"]) == "fr"
    assert language(["score", "--lang", "fr"]) == language(["--lang", "de"]) == language([]) == "en"


@pytest.mark.slow
def test_play_help_in_french_after_the_command() -> None:
    french = ok("play", "--lang", "fr", "--help")
    assert french == ok("--lang", "fr", "play", "--help") == ok("play", "--lang=fr", "--help")
    assert french.startswith("Utilisation\u00a0: hotdice play") and english_left(french) == [], french
    assert ok("play", "--lang", "en", "--help") == ok("play", "--help") != french


def test_the_english_knob_meanings_are_the_librarys() -> None:
    """The catalogue's English of a knob is the library's help of it (``rules --help`` prints the latter)."""
    from hotdice import i18n
    from hotdice.game.rules import KNOBS

    assert {k.name: i18n.catalog("en")[f"cli.knob.{k.name}"] for k in KNOBS} == {k.name: k.help for k in KNOBS}


# -- replay and verify: facts (hotdice.game.told) worded by the catalogue --------------------------------------

GOLDEN = Path(__file__).parent / "golden"
NO_BREAK = "\u00a0"


def golden(name: str) -> Record:
    return Record.from_json((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def written(folder: Path, record: Record | dict[str, object], name: str = "game") -> str:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(record if isinstance(record, dict) else record.to_json()), encoding="utf-8")
    return str(path)


def french_faults(text: str) -> list[str]:
    """English left in a French text, and French typography broken in it (no-break space before : ; ! ? %)."""
    from tests.test_i18n import typography_faults

    return english_left(text) + typography_faults(re.sub(r"\d:\d", "0", text.replace("{", "(").replace("}", ")")))


@pytest.mark.parametrize("name", ["farkle", "5000", "5000-fr", "5000-fr-6"])
def test_the_english_replay_is_the_golden_transcript(name: str) -> None:
    path = str(GOLDEN / f"{name}.json")
    assert ok("replay", path) == ok("--lang", "en", "replay", path) == (GOLDEN / f"{name}.txt").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("name", ["farkle", "5000", "5000-fr", "5000-fr-6"])
def test_the_french_replay_has_no_english_and_french_figures(name: str) -> None:
    text = ok("--lang", "fr", "replay", str(GOLDEN / f"{name}.json"))
    assert french_faults(text) == [], text
    english = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(english.splitlines())
    assert text.startswith("Règles\u00a0: ") and "\nTour 1\u00a0: Ann (score 0)\n" in text
    assert "\nPartie terminée (" in text and "Jouer ensemble" in text


def test_the_french_replay_writes_numbers_the_french_way() -> None:
    text = ok("--lang", "fr", "replay", str(GOLDEN / "5000.json"))
    assert text.endswith("Partie terminée (objectif de 5\u202f000 atteint)\u00a0: Ann gagne\u00a0; Ann 6\u202f500, "
                         "Bob 2\u202f850\n"), text
    assert "  lance 6 4\u00a0: farkle, perd 200\n" in text


def test_an_unfinished_game_and_a_shared_win_in_french(tmp_path: Path) -> None:
    from hotdice.game.record import told
    from hotdice.game.told import Told
    from hotdice.i18n import Translator
    from hotdice.i18n.told import tell

    record = golden("farkle")
    cut = dataclasses.replace(record, history=record.history[:5], result=Result(scores=(0, 0)))
    text = ok("--lang", "fr", "replay", written(tmp_path, cut))
    assert french_faults(text) == [] and "Partie inachevée (" in text, text
    shared = Told("game_over_shared", {"why": Told("why.turn-limit"), "winners": ("Ann", "Bob"),
                                       "final": (("Ann", 10_000), ("Bob", 10_000))})
    assert tell(Translator("fr"), [shared]) == [
        "Partie terminée (chaque joueur a joué ses tours)\u00a0: Ann et Bob se partagent la victoire\u00a0; "
        "Ann 10\u202f000, Bob 10\u202f000"
    ]
    assert str(shared) == (
        "Game over (every player has played the turns): Ann and Bob share the win; Ann 10000, Bob 10000"
    )
    assert [str(fact) for fact in told(cut)] == ok("replay", written(tmp_path, cut, "again")).splitlines()


def commitment(record: Record) -> str:
    return hashlib.sha256(bytes.fromhex(record.seed or "")).hexdigest()


def verify_cases(folder: Path) -> dict[str, tuple[str, ...]]:
    """``verify`` arguments that verify, and one for every way a record fails to."""
    record = golden("farkle")
    history = list(record.history)
    first_roll = next(i for i, line in enumerate(history) if line.startswith("dice "))
    history[first_roll] = "dice 111111" if history[first_roll] != "dice 111111" else "dice 222222"
    unsigned = {**record.to_json(), "mode": "solo"}  # changed without a new digest
    changed = dataclasses.replace(record.result, scores=(0, 0))
    late = dataclasses.replace(record, played_at=("2026-12-02T00:00:01Z",) * len(record.history),
                               revealed_at="2026-12-02T00:00:00Z")
    return {
        "valid": (written(folder, record, "valid"), "--commitment", commitment(record)),
        "unchecked": (written(folder, dataclasses.replace(late, played_at=("2026-12-01T00:00:00Z",) * len(history)),
                              "unchecked"),),
        "commitment": (written(folder, record, "valid"), "--commitment", "0" * 64),
        "key": (written(folder, record, "valid"), "--key", "abcd"),
        "digest": (written(folder, unsigned, "digest"),),
        "die": (written(folder, dataclasses.replace(record, history=tuple(history)), "die"),),
        "result": (written(folder, dataclasses.replace(record, result=changed), "result"),),
        "bank": (written(folder, dataclasses.replace(record, history=("bank", *record.history[1:])), "bank"),),
        "unreadable": (written(folder, dataclasses.replace(record, history=("jump", *record.history[1:])), "jump"),),
        "late": (written(folder, late, "late"),),
    }


@pytest.mark.slow
def test_every_verdict_in_french_has_no_english(tmp_path: Path) -> None:
    from tests.test_cli import hotdice

    for name, args in verify_cases(tmp_path).items():
        english, french = hotdice("verify", *args), hotdice("--lang", "fr", "verify", *args)
        if name in ("bank", "unreadable"):  # no game under its rules has that history: exit 2, told on stderr
            assert english.returncode == french.returncode == 2 and english.stdout == french.stdout == ""
            assert french.stderr.count("\n") == 1 and english_left(french.stderr) == [], french.stderr
            continue
        assert english.returncode == french.returncode == (0 if name in ("valid", "unchecked") else 1), english
        assert french.stderr == english.stderr == "", french.stderr
        assert len(french.stdout.splitlines()) == len(english.stdout.splitlines()), french.stdout
        assert french_faults(french.stdout) == [], (name, french.stdout)
        assert english.stdout.startswith("dice key: " if english.returncode == 0 else "does not verify: ")
        assert french.stdout.startswith("clé des dés\u00a0: " if french.returncode == 0 else "non vérifié\u00a0: ")
    valid = ok("--lang", "fr", "verify", *verify_cases(tmp_path)["valid"])
    assert "résultat\u00a0: Ann 10\u202f100, Bob 10\u202f550, gagnée par Bob (objectif), comme enregistré" in valid


def test_every_fact_has_its_english_and_french_words_in_the_catalogue() -> None:
    """The catalogue's English of a fact is the library's (the CLI prints the latter); French words each one."""
    from hotdice import i18n
    from hotdice.game.told import ENGLISH
    from hotdice.i18n.told import key

    english, french = i18n.catalog("en"), i18n.catalog("fr")
    assert {code: english[key(code)] for code in ENGLISH} == dict(ENGLISH)
    same = {code for code in ENGLISH if french[key(code)] == english[key(code)]}
    assert same == {"farkle", "end.exact", "plain"}


# -- --help: the catalogue's help.* in French, the code's own in English ---------------------------------------


def help_texts(lang: str | None) -> list[tuple[str, str]]:
    """Every help text of the command tree with its catalogue key, as the code writes it or in ``lang``."""
    import typer.main

    from hotdice.cli import app
    from hotdice.cli.help import help_items, translate_help

    command = typer.main.get_command(app)
    if lang is not None:
        translate_help(command, lang)
    return [(keys[0], part.help) for keys, part in help_items(command)]


def test_the_english_help_is_the_codes_and_the_catalogues() -> None:
    english = help_texts(None)
    assert len(english) > 60 and help_texts("en") == english


def test_every_help_text_is_in_french() -> None:
    english, french = help_texts(None), help_texts("fr")
    assert [key for key, _ in french] == [key for key, _ in english]
    assert [key for (key, text), (_, theirs) in zip(french, english, strict=True) if text == theirs] == []
    assert {key: english_left(text) for key, text in french if english_left(text)} == {}


@pytest.mark.slow
def test_help_in_french_from_the_command_line() -> None:
    assert ok("--help") == ok("--lang", "en", "--help") and "Show this message and exit." in ok("--help")
    root = ok("--lang", "fr", "--help")
    assert "Affiche ce message et quitte." in root and "Rejoue l’enregistrement d’une partie" in root
    assert root.startswith("Utilisation\u00a0: hotdice ") and "\nCommandes\u00a0:\n" in root
    assert "[par défaut\u00a0: en]" in root and "Usage" not in root and "default" not in root
    assert "[obligatoire]" in ok("--lang", "fr", "replay", "--help")
    for command in ("replay", "verify", "score", "rules", "odds", "simulate", "solve", "advise", "stats"):
        english, french = ok(command, "--help"), ok("--lang=fr", command, "--help")
        assert english_left(french) == [] and french != english, french
        assert ok("--lang", "en", command, "--help") == english
    assert "La clé des dés révélée" in ok("--lang", "fr", "verify", "--help")


@pytest.mark.slow
def test_the_solvers_refusal_is_worded_in_the_users_language() -> None:
    """Why Hard cannot solve some rules is worded from its bounds: the English the library's, the French all French."""
    from hotdice.analysis.solver import MAX_TARGET, refusal
    from tests.test_cli import hotdice

    for rules in ("farkle,target=20000", "farkle,target=20000,three_farkles=500"):
        reason = refusal(Rules.parse(rules))
        assert reason is not None
        english, french = hotdice("solve", "--rules", rules), hotdice("--lang", "fr", "solve", "--rules", rules)
        assert english.returncode == french.returncode == 2 and english.stdout == french.stdout == ""
        assert english.stderr == f"hotdice: error: rules {rules}: {reason}\n"
        assert french.stderr.startswith(f"hotdice: error: règles {rules}\u00a0: ")
        assert f"objectif de {MAX_TARGET}" in french.stderr
        assert english_left(french.stderr) == [] and french.stderr.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "english"),
    [
        (("simulate", "-p", "nobody", "-n", "1"),
         "unknown player 'nobody'; players are: random, greedy, easy, medium, hard"),
        (("simulate", "-p", "greedy:x", "-n", "1"), "player 'greedy:x': the bank threshold must be a whole number of "
         "points, 0 or more"),
        (("simulate", "-p", "easy:3", "-n", "1"), "player 'easy:3': easy takes no argument"),
        (("simulate", "-p", "easy", "-n", "0"), "--games must be at least 1, not 0"),
        (("simulate", "-p", ",".join(["easy"] * 9), "-n", "1"), "a game has 1 to 8 players, not 9"),
        (("verify", str(GOLDEN / "farkle.json"), "--key", "xyz"), f"{GOLDEN / 'farkle.json'}: the key 'xyz' is not "
         "hexadecimal bytes"),
        (("verify", str(GOLDEN / "farkle.json"), "--commitment", "12"),
         f"{GOLDEN / 'farkle.json'}: the commitment '12' is not a SHA-256 in hex (64 hexadecimal digits)"),
    ],
)
def test_simulation_and_verification_refusals_are_facts_worded_in_french(args: tuple[str, ...], english: str) -> None:
    """A simulation or a verification that cannot run says why as facts (hotdice.game.told): the English exactly as
    before, the French with no English left, one line each, exit 2."""
    from tests.test_cli import hotdice

    en, fr = hotdice(*args), hotdice("--lang", "fr", *args)
    assert en.returncode == fr.returncode == 2 and en.stdout == fr.stdout == ""
    assert en.stderr == f"hotdice: error: {english}\n", en.stderr
    said = re.sub("«\u00a0[^»]*\u00a0»", "«\u00a0x\u00a0»", fr.stderr.removeprefix("hotdice: error: "))
    said = said.replace(str(GOLDEN / "farkle.json"), "x")  # what was typed stays as it is
    assert fr.stderr.count("\n") == 1 and french_faults(said) == [], fr.stderr
