"""One typed view of a table, computed from a game, for every front end (issue 14).

What a table shows and what its player may do now, as facts: seats and scores, whose turn, the roll, each
legal set-aside with its points, the dice it leaves, the bank it allows and the farkle risk of the next roll,
why a roll or a bank is refused (:class:`hotdice.game.refusals.Refusal`: a code and values), the log as
events (kind, the catalogue's key of the line and its values: every front end words the same) and the end
with the standing. No words: each front end words these facts in its player's language,
and none of them computes a rule or a view of its own. The web wraps it with what only the web knows (who
controls each seat, the solver's progress) and declares it as its answer's schema.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Self

from hotdice.analysis.odds import roll_odds
from hotdice.game.engine import (
    BANK,
    ROLL,
    Decision,
    Event,
    EventKind,
    Game,
    Outcome,
    Phase,
    after_set_aside,
    bank_records,
    room_to_target,
)
from hotdice.game.refusals import Refusal
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from hotdice.game.told import told_event
from hotdice.play.ranking import Place, standing

__all__ = ["Ended", "Entry", "OptionView", "Risk", "Seat", "TableView"]


@dataclass(frozen=True, slots=True)
class Risk:
    """The chance that the next roll of ``dice`` dice scores nothing: ``p`` as a float, ``exact`` as "n/d"."""

    dice: int
    p: float
    exact: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table."""

    name: str
    score: int
    entered: bool  # on the board (the entry reached, or no entry)
    farkles_in_row: int
    turns: int  # turns played


@dataclass(frozen=True, slots=True)
class OptionView:
    """One legal set-aside of the roll on the table and what follows it."""

    set_aside: str  # the faces, sorted: "155"
    points: int
    dice_left: int  # dice of the roll not set aside
    hot_dice: bool  # every die scored: all of them come back
    risk: Risk  # of the roll that would follow (every die again after hot dice)
    bank_refusal: Refusal | None  # why a bank right after it is refused; None: it may bank
    records: bool  # a bank after it adds to the score (not when stopping below the entry)
    wins: bool  # it reaches an exact target: the game is won at once


@dataclass(frozen=True, slots=True)
class Entry:
    """One event of the log: its kind and the values its line needs (:class:`hotdice.game.engine.Event`)."""

    kind: EventKind
    seat: int
    turn: int  # turns played in the game before it, all seats together
    points: int  # of a set-aside, bank, penalty or lost turn total
    dice: tuple[int, ...]  # rolled or set aside
    scores: tuple[int, ...]  # every seat's score after it
    turn_total: int  # after it (0 once the turn is banked, lost or over)
    key: str  # the catalogue's message of its line: log.<code> (hotdice.game.told.told_event)
    values: dict[str, Any]  # what fills it: the player's name and seat, the round, the points, ...


@dataclass(frozen=True, slots=True)
class Ended:
    """The outcome of a game that ended outside the rules, unfinished: its dice key was revealed (``at``, UTC)
    before it was played out, so nothing more could be played fairly. Nobody won; ``scores`` as they stood."""

    at: str
    scores: tuple[int, ...]
    ended: str = "key-revealed"
    winners: tuple[int, ...] = ()
    termination: None = None


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything a table shows, and what its player may do now; nothing that has not happened yet.

    ``options`` are the roll's legal set-asides, best first (most points, then fewest dice: the engine's
    order); ``best`` is the first one's dice, the set-aside one tap or key sets aside. ``refusals``: why each
    other choice of dice from the roll is refused. ``events`` are the game's events from number
    ``events_from`` on. ``stopped``: play ended outside the rules (a daily's key revealed), nothing is offered.
    """

    rules: str
    dice: int  # of the rules: every die in hand
    target: int | None  # None where the game is played over a number of turns
    turn_limit: int | None
    entry: int
    penalty: int  # the most three farkles in a row cost (never below 0)
    n: int  # the action number: the length of the history
    players: tuple[Seat, ...]
    phase: Phase
    to_act: int | None  # the seat to act; None while dice roll, or once over
    current: int  # the seat whose turn it is (at the end: the last to play)
    turn: int
    round: int  # the turn the current seat is playing, counted from 1 (at most the turn limit)
    rolls_this_turn: int
    turn_total: int
    roll: tuple[int, ...] | None  # the roll on the table, as rolled
    set_asides: tuple[str, ...]  # this turn's
    dice_in_hand: int  # of the next roll
    hot_dice: bool
    must_validate: bool
    last_round_by: int | None
    dead_roll: tuple[int, ...] | None  # the roll that farkled or bust to end the last turn, until the next roll
    options: tuple[OptionView, ...]
    best: str | None
    refusals: dict[str, Refusal]
    can_roll: bool
    roll_refusal: Refusal | None
    can_bank: bool
    bank_refusal: Refusal | None
    bank_records: bool  # banking the turn total now adds it to the score
    risk: Risk  # of the next roll of the dice in hand
    events: tuple[Entry, ...]
    events_from: int
    outcome: Outcome | Ended | None  # Ended: stopped unfinished, outside the rules
    standing: tuple[Place, ...]  # the seats by their scores now, best first (the final one once over)

    @classmethod
    def of(
        cls, game: Game, *, since: int | None = None, tail: int | None = None, stopped: bool = False, **extra: Any
    ) -> Self:
        """The view of ``game``, with its events from number ``since`` on (else its last ``tail``, else all);
        ``extra``: the fields a subclass adds."""
        return cls(**_facts(game, since, tail, stopped), **extra)

    def option(self, set_aside: str) -> OptionView | None:
        """The legal set-aside of these dice (faces sorted), or None."""
        return next((o for o in self.options if o.set_aside == set_aside), None)


def _facts(game: Game, since: int | None, tail: int | None, stopped: bool) -> dict[str, Any]:
    rules = game.rules
    events = game.events
    last = 0 if tail is None else max(0, len(events) - tail)
    events_from = last if since is None else min(since, len(events))
    cur = game.current
    score, entered = game.scores[cur], game.entered[cur]
    room = room_to_target(rules, score, game.turn_total)
    options = (
        ()
        if stopped
        else tuple(
            OptionView(
                set_aside=str(o.set_aside),
                points=o.points,
                dice_left=o.dice_left,
                hot_dice=o.dice_left == 0,
                risk=_risk(rules, after_set_aside(rules, o)[0]),
                bank_refusal=game.why_not_bank_after(o),
                records=bank_records(rules, entered=entered, turn_total=game.turn_total + o.points),
                wins=room is not None and o.points == room,  # reaching an exact target banks at once
            )
            for o in game.options()
        )
    )
    acting = isinstance(game.to_act, int)
    bank = game.why_not_bank() if acting else None
    roll_refusal = game.why_not_decision(Decision(None, ROLL))
    legal = game.legal_actions()
    return {
        "rules": str(rules),
        "dice": rules.dice,
        "target": None if game.turn_limit is not None else rules.target,
        "turn_limit": game.turn_limit,
        "entry": rules.entry,
        "penalty": rules.three_farkles,
        "n": len(game.history),
        "players": tuple(
            Seat(name, s, e, f, t)
            for name, s, e, f, t in zip(
                game.players, game.scores, game.entered, game.farkles_in_row, game.turns_played, strict=True
            )
        ),
        "phase": game.phase,
        "to_act": game.to_act if acting else None,
        "current": cur,
        "turn": game.turn,
        "round": min(game.turns_played[cur] + 1, game.turn_limit or game.turns_played[cur] + 1),
        "rolls_this_turn": game.rolls_this_turn,
        "turn_total": game.turn_total,
        "roll": game.roll,
        "set_asides": tuple(str(s) for s in game.set_asides),
        "dice_in_hand": game.dice_in_hand,
        "hot_dice": game.hot_dice,
        "must_validate": game.must_validate,
        "last_round_by": game.last_round_by,
        "dead_roll": _dead_roll(game),
        "options": options,
        "best": options[0].set_aside if options else None,
        "refusals": {} if stopped else _refusals(game),
        "can_roll": not stopped and game.phase is Phase.DECIDE and ROLL in legal,
        "roll_refusal": roll_refusal,
        "can_bank": not stopped and BANK in legal,
        "bank_refusal": bank,
        "bank_records": bank_records(rules, entered=entered, turn_total=game.turn_total),
        "risk": _risk(rules, game.dice_in_hand),
        "events": tuple(_entry(game, event) for event in events[events_from:]),
        "events_from": events_from,
        "outcome": game.outcome,
        "standing": standing(game),
    }


def _entry(game: Game, event: Event) -> Entry:
    said = told_event(game, event)
    return Entry(*event, key=f"log.{said.code}", values=dict(said.values))


def _refusals(game: Game) -> dict[str, Refusal]:
    """Why each other choice of dice from the roll is refused (at most 63 of them). From the roll sorted, the
    same dice come as the same tuple: each is asked about once."""
    refusals: dict[str, Refusal] = {}
    if game.phase is not Phase.SET_ASIDE or game.roll is None:
        return refusals
    roll, asked = sorted(game.roll), set()
    for size in range(1, len(roll) + 1):
        for chosen in itertools.combinations(roll, size):
            if chosen not in asked:
                asked.add(chosen)
                set_aside = SetAside(*chosen)
                if (reason := game.why_not_set_aside(set_aside)) is not None:
                    refusals[str(set_aside)] = reason
    return refusals


def _dead_roll(game: Game) -> tuple[int, ...] | None:
    """The roll of the last farkle or bust, until the turn after it rolls."""
    if game.phase not in (Phase.DECIDE, Phase.CHANCE) or game.rolls_this_turn:
        return None
    for event in reversed(game.events):
        if event.kind is EventKind.ROLL:
            return None
        if event.kind in (EventKind.FARKLE, EventKind.BUST):
            return next((e.dice for e in reversed(game.events) if e.kind is EventKind.ROLL), None)
    return None


def _risk(rules: Rules, dice: int) -> Risk:
    p: Fraction = roll_odds(rules, dice).farkle
    return Risk(dice, float(p), f"{p.numerator}/{p.denominator}")
