"""Every public entry point of the core refuses bad arguments with the library's own errors (issue 26 item 2).

Each entry point is called first with arguments it accepts, then with each argument in turn replaced by None,
a value of another type, an out-of-range number or an empty value: it either accepts the value or raises one
of the library's errors (a :class:`Refused` with a code, or a record's :class:`RecordError`), never an
``AttributeError``, ``TypeError``, ``IndexError`` or other error of Python's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from hotdice.analysis import coach
from hotdice.analysis.game_review import game_review
from hotdice.game.dice import FixedDice, SeededDice
from hotdice.game.engine import ROLL, Decision, Game, Step, parse_action
from hotdice.game.position import position
from hotdice.game.record import Record, RecordError, record_of, replay, transcript
from hotdice.game.refusals import Refused
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside, parse_dice, scorer
from hotdice.game.variants import find_variant
from hotdice.game.verify import VerifyError, parse_key, verify, verify_text

BAD: tuple[Any, ...] = (None, "", (), [], {}, 2.5, -1, 0, 10**9, "x", object(), b"1", True, [None], ("1", None))
LIBRARY = (Refused, RecordError, VerifyError)

RULES = Rules.parse("farkle")


def _rolled() -> Game:
    game = Game(RULES, ["a", "b"])
    game.apply("roll")
    game.apply_roll((1, 5, 2, 3, 4, 6))
    return game


def _to_roll() -> Game:
    game = Game(RULES, ["a", "b"])
    game.apply("roll")
    return game


def _deciding() -> Game:
    game = _rolled()
    game.apply("1")
    return game


def _played() -> Record:
    """One turn of a game of two, a farkle: a record the coach weighs from the shipped table at once."""
    game = Game(RULES, ["a", "b"])
    game.apply("roll")
    game.apply_roll((2, 3, 4, 6, 2, 3))
    return record_of(game)


def _verified() -> Record:
    """A finished game of ten turns played with seeded dice: a record ``verify`` checks."""
    seed = b"arguments"
    game = Game(RULES, ["a"], turn_limit=2)
    dice = SeededDice(seed)
    while not game.is_over:
        game.play(game.legal_decisions()[-1], dice)
    return record_of(game, seed=seed, mode="solo")


# name -> (the callable, the arguments it accepts as (positional, keyword))
ENTRY_POINTS: dict[str, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = {
    "Game": (Game, (RULES, ["a", "b"]), {"first": 1, "turn_limit": 3}),
    "Game.from_position": (Game.from_position, (RULES, "0,0 0 0/6 - - - 0.0 -"), {"players": ["a", "b"]}),
    "Game.apply": (lambda *a, **k: Game(RULES, ["a", "b"]).apply(*a, **k), ("roll",), {"player": 0}),
    "Game.apply_decision": (lambda *a, **k: Game(RULES, ["a", "b"]).apply_decision(*a, **k), ("roll",),
                            {"player": 0}),
    "Game.apply_roll": (lambda *a: _to_roll().apply_roll(*a), ((1, 5, 2, 3, 4, 6),), {}),
    "Game.why_not_decision": (lambda *a: _rolled().why_not_decision(*a), (Decision(SetAside(1), ROLL),), {}),
    "Game.why_not_set_aside": (lambda *a: _rolled().why_not_set_aside(*a), (SetAside(1),), {}),
    "Game.why_not_bank_after": (lambda *a: _rolled().why_not_bank_after(*a), (_rolled().options()[0],), {}),
    "Game.play": (lambda *a: Game(RULES, ["a"]).play(*a), ("roll", FixedDice([(1, 5, 2, 3, 4, 6)])), {}),
    "parse_action": (parse_action, ("155",), {}),
    "Step.parse": (Step.parse, ("dice 155",), {"max_dice": 6}),
    "Decision.parse": (Decision.parse, ("set aside 1, then roll",), {}),
    "Rules.parse": (Rules.parse, ("farkle,entry=500",), {}),
    "Rules.from_json": (Rules.from_json, ({"rules": "farkle", "entry": 500},), {}),
    "Rules.replace": (lambda **k: RULES.replace(**k), (), {"entry": 500}),
    "Rules.triple": (RULES.triple, (2,), {}),
    "Rules.n_of_a_kind": (RULES.n_of_a_kind, (2, 4), {}),
    "SetAside.parse": (SetAside.parse, ("155",), {"max_dice": 6}),
    "SetAside": (SetAside, (1, 5, 5), {}),
    "parse_dice": (parse_dice, ("155",), {"max_dice": 6}),
    "scorer": (scorer, (RULES,), {}),
    "Scorer.options": (scorer(RULES).options, ((1, 5, 2),), {}),
    "Scorer.best": (scorer(RULES).best, ((1, 5, 2),), {}),
    "Scorer.is_farkle": (scorer(RULES).is_farkle, ((1, 5, 2),), {}),
    "Scorer.wins_game": (scorer(RULES).wins_game, ((1, 5, 2),), {}),
    "Scorer.score": (scorer(RULES).score, ((1, 5),), {}),
    "Scorer.option_for": (scorer(RULES).option_for, ((1, 5, 2), (1,)), {}),
    "Scorer.partition": (scorer(RULES).partition, ((1, 5),), {}),
    "Record.from_json": (Record.from_json, (_played().to_json(),), {}),
    "replay": (replay, (_played(),), {}),
    "transcript": (transcript, (_played(),), {}),
    "verify": (verify, (_verified(),), {"key": None, "commitment": None}),
    "verify_text": (verify_text, (json.dumps(_verified().to_json()),), {}),
    "parse_key": (parse_key, ("00ff",), {}),
    "find_variant": (find_variant, ("farkle",), {}),
    "position": (position, (RULES, (0, 0)), {"turn_total": 50, "dice_in_hand": 5}),
    "coach.advise": (coach.advise, (_deciding(),), {"measure": "win"}),
    "game_review": (game_review, (_played(),), {"measure": "win"}),
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_each_entry_point_refuses_bad_arguments_with_the_librarys_errors(name: str) -> None:
    call, args, kwargs = ENTRY_POINTS[name]
    call(*args, **kwargs)  # the arguments of the table are accepted
    escaped = []
    slots = [(i, None) for i in range(len(args))] + [(None, k) for k in kwargs]
    for index, key in slots:
        for bad in BAD:
            a, k = list(args), dict(kwargs)
            if index is not None:
                a[index] = bad
            else:
                k[key] = bad
            try:
                call(*a, **k)
            except LIBRARY:
                pass
            except Exception as exc:
                escaped.append(f"{key or index}={bad!r}: {type(exc).__name__}: {exc}")
    assert not escaped, f"{name}: " + "\n".join(escaped)
