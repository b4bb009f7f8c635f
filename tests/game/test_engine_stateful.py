"""Hypothesis stateful tests of the engine over every preset and house rules: legal actions are exactly
the accepted ones, illegal ones change nothing, scores only fall by the penalty, one player acts at a
time, replaying the history rebuilds the same game, its steps read back as written, and every event carries
the scores and turn total the game had after it."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hotdice.game.engine import (
    BANK,
    CHANCE,
    ROLL,
    TERMINAL,
    EventKind,
    Game,
    IllegalMoveError,
    Phase,
    Roll,
    Step,
    Termination,
)
from hotdice.game.refusals import Refusal
from hotdice.game.rules import End, Rules
from hotdice.game.scoring import SetAside
from hotdice.game.variants import VARIANTS

RULESETS = [v.name for v in VARIANTS] + [
    "farkle,entry=500,three_farkles=1000",
    "farkle,target=1500,three_farkles=500,kinds=doubling,four_kind_pair=1500",
    "farkle,target=2000,hot_dice=must,min_bank=300,end=first",
    "farkle,target=1000,end=exact,low_straight=500,high_straight=750",
    "5000,target=1000,entry=0",
    "5000-fr,target=1000,entry=0,rule_4900=yes,min_bank=300",
    "5000-fr,target=1500,three_farkles=500",
    "5000-fr-6,target=1500,entry=350",
    "5000-fr-6,end=last-round,target=1000,below_entry=lost",
    "farkle,three_farkles=500,target=3000",
    "5000,three_farkles=1000,entry=0",
]


def snapshot(g: Game) -> tuple[Any, ...]:
    return (g.phase, g.current, g.scores, g.entered, g.farkles_in_row, g.turns_played, g.turn, g.turn_total,
            g.dice_in_hand, g.roll, tuple(g.set_asides), g.must_validate, g.hot_dice, g.last_round_by,
            g.outcome, tuple(g.events), tuple(g.history), g.rolls_this_turn)


def replay(g: Game) -> Game:
    again = Game(g.rules, g.players, first=g.first, turn_limit=g.turn_limit)
    for step in g.history:
        if isinstance(step.move, Roll):
            again.apply_roll(step.move.dice)
        else:
            again.apply(step.move)
    return again


class GameMachine(RuleBasedStateMachine):
    game: Game

    @initialize(rules=st.sampled_from(RULESETS), players=st.integers(1, 4), data=st.data())
    def start(self, rules: str, players: int, data: st.DataObject) -> None:
        first = data.draw(st.integers(0, players - 1))
        limit = data.draw(st.sampled_from([None, None, 3]))
        self.game = Game(Rules.parse(rules), [f"P{i}" for i in range(players)], first=first, turn_limit=limit)

    @precondition(lambda self: hasattr(self, "game") and not self.game.is_over)
    @rule(data=st.data(), moves=st.integers(1, 25))
    def play(self, data: st.DataObject, moves: int) -> None:
        for _ in range(moves):
            if self.game.is_over:
                return
            self.step(data)

    def step(self, data: st.DataObject) -> None:
        g = self.game
        before = g.scores
        events_before = len(g.events)
        if g.phase is Phase.CHANCE:
            n = g.dice_in_hand
            # Scoring-rich dice now and then, so that turns last and reach banks, hot dice and targets.
            dice = data.draw(st.one_of(
                st.lists(st.integers(1, 6), min_size=n, max_size=n),
                st.lists(st.sampled_from([1, 5]), min_size=n, max_size=n),
                st.lists(st.sampled_from([2, 3, 4, 6]), min_size=n, max_size=n),
            ))
            g.apply_roll(dice)
        else:
            actions = g.legal_actions()
            assert actions, "a player to act always has a legal action"
            bank = BANK in actions and data.draw(st.booleans())
            g.apply(BANK if bank else data.draw(st.sampled_from(actions)))
        for i, (old, new) in enumerate(zip(before, g.scores, strict=True)):
            penalty = sum(e.points for e in g.events[events_before:]
                          if e.kind is EventKind.PENALTY and e.player == i)
            if new < old:
                assert old - new == penalty, "a score only falls by the three-farkle penalty"
            else:
                assert penalty == 0

    @precondition(lambda self: hasattr(self, "game") and isinstance(self.game.to_act, int))
    @rule(data=st.data())
    def illegal_actions_change_nothing(self, data: st.DataObject) -> None:
        g = self.game
        legal = g.legal_actions()
        candidates: list[Any] = [ROLL, BANK]
        if g.roll is not None:
            candidates += [SetAside(*c) for n in range(1, len(g.roll) + 1)
                           for c in itertools.combinations(g.roll, n)]
        candidates.append(SetAside(*data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=g.rules.dice))))
        candidates.append(SetAside())
        for candidate in candidates:  # the engine's why_not_* is None exactly for its legal actions
            why = None if candidate is ROLL else self.why_not(candidate)
            assert (why is None) == (candidate in legal) or candidate is ROLL, (candidate, why, legal)
        action = data.draw(st.sampled_from(candidates))
        if action in legal:
            return
        before = snapshot(g)
        try:
            g.apply(action)
        except IllegalMoveError as exc:
            if action is not ROLL:
                assert exc.refusal == self.why_not(action), "the error carries the refusal why_not_* gives"
                assert exc.bank == (action is BANK)
        else:
            raise AssertionError(f"{action} was accepted but is not in {legal}")
        assert snapshot(g) == before

    def why_not(self, action: Any) -> Refusal | None:
        return self.game.why_not_bank() if action is BANK else self.game.why_not_set_aside(action)

    @rule()
    def winners_are_right(self) -> None:
        g = self.game
        if g.outcome is None:
            return
        top = max(g.scores)
        if g.outcome.termination in (Termination.TURN_LIMIT,) or (
            g.outcome.termination is Termination.TARGET and g.rules.end is End.LAST_ROUND
        ):
            assert g.outcome.winners == tuple(i for i, s in enumerate(g.scores) if s == top)
        elif g.outcome.termination is Termination.FIVE_ONES:
            assert g.outcome.winners == (g.current,)
        else:  # first to reach, or exact
            assert g.outcome.winners == (g.current,) and g.scores[g.current] >= g.rules.target

    @invariant()
    def one_player_acts_at_a_time(self) -> None:
        if not hasattr(self, "game"):
            return
        g = self.game
        if g.phase in (Phase.DECIDE, Phase.SET_ASIDE):
            assert g.to_act == g.current and g.legal_actions()
        else:
            assert g.to_act is (TERMINAL if g.phase is Phase.OVER else CHANCE) and g.legal_actions() == []
        assert (g.phase is Phase.OVER) == (g.outcome is not None)

    @invariant()
    def values_stay_in_range(self) -> None:
        if not hasattr(self, "game"):
            return
        g = self.game
        r = g.rules
        assert all(s >= 0 and s % 50 == 0 for s in g.scores)
        assert g.turn_total >= 0 and g.turn_total % 50 == 0
        assert 1 <= g.dice_in_hand <= r.dice
        if g.roll is not None:
            assert 1 <= len(g.roll) <= r.dice and all(1 <= d <= 6 for d in g.roll)
        if r.end is End.EXACT:
            assert all(s <= r.target for s in g.scores)
        if r.entry:
            assert all(s == 0 for s, e in zip(g.scores, g.entered, strict=True) if not e)
        if g.outcome is not None:
            assert g.outcome.scores == g.scores and g.outcome.winners

    @invariant()
    def steps_read_back_as_written(self) -> None:
        if hasattr(self, "game"):
            for step in self.game.history:
                line = str(step)
                assert Step.parse(line) == step and str(Step.parse(line)) == line

    @invariant()
    def events_carry_the_scores_after_them(self) -> None:
        """Scores re-added from banks and penalties, turn totals from set-asides: what the events say."""
        if not hasattr(self, "game"):
            return
        g = self.game
        scores, total = [0] * len(g.players), 0
        for e in g.events:
            if e.kind is EventKind.BANK:
                scores[e.player] += e.points
            elif e.kind is EventKind.PENALTY:
                scores[e.player] -= e.points
            if e.kind is EventKind.SET_ASIDE:
                total += e.points
            elif e.kind not in (EventKind.ROLL, EventKind.VALIDATED, EventKind.HOT_DICE):
                total = 0  # the turn is banked, lost or over, or a new one starts
            assert e.scores == tuple(scores) and e.turn_total == total
        assert g.events[-1].scores == g.scores and g.events[-1].turn_total == g.turn_total

    @invariant()
    def replay_equals_live_play(self) -> None:
        if hasattr(self, "game"):
            assert snapshot(replay(self.game)) == snapshot(self.game)


TestGame = GameMachine.TestCase
TestGame.settings = settings(max_examples=200, stateful_step_count=40, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])
