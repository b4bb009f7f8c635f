"""A position described by a few numbers (``hotdice advise --scores``): the banked scores, the turn total and
the dice in hand, made into the engine's position line and read back by :meth:`Game.from_position`, which
refuses what no game reaches."""

from __future__ import annotations

from collections.abc import Sequence

from hotdice.game.engine import (
    MAX_PLAYERS,
    Game,
    PositionError,
    bank_records,
    bank_refusal,
    needs_validation,
    room_to_target,
)
from hotdice.game.refusals import Code, Refusal, expect, expect_whole
from hotdice.game.rules import MAX_TARGET, UNIT, Rules
from hotdice.game.scoring import FACES, Option, SetAside

__all__ = ["position"]


def position(rules: Rules, scores: Sequence[int], *, turn_total: int = 0, dice_in_hand: int | None = None) -> Game:
    """A game where player 0 is to act, set up by the engine from a position (:meth:`Game.from_position`).

    ``scores``: the banked scores, player 0 first, then the others in the order they play after. If any
    player has points, each has played one turn: a player with points banked them in it, a player with none
    farkled (so under the three-farkle penalty they have one farkle in a row). Player 0 has set aside
    ``turn_total`` so far, single 1s and 5s (and a triple where singles cannot make it), and holds
    ``dice_in_hand`` dice to roll (all of them after hot dice; under validate=yes a triple or full hand set
    aside last still awaits its validating roll, as it would at the table). A position no game can reach
    raises :class:`PositionError` saying which rule forbids it. Turn totals go up to the highest target any
    rules have (:data:`MAX_TARGET`): past it, banking has won under every rule set.
    """
    expect(rules, Rules, "rules", PositionError)
    expect(scores, (list, tuple), "scores", PositionError)
    if not 1 <= len(scores) <= MAX_PLAYERS:
        raise PositionError(Refusal(Code.PLAYER_COUNT, {"max": MAX_PLAYERS, "players": len(scores)}))
    for score in scores:
        expect(score, int, "a score", PositionError)
    expect_whole(turn_total, "turn_total", 0, MAX_TARGET, PositionError)
    if dice_in_hand is not None:
        expect(dice_in_hand, int, "dice_in_hand", PositionError)
    n_all = rules.dice
    dice_in_hand = n_all if dice_in_hand is None else dice_in_hand
    if not 1 <= dice_in_hand <= n_all:
        raise PositionError(Refusal(Code.POSITION_HAND, {"hand": dice_in_hand, "dice": n_all}))
    for field, points in [("SEATS", s) for s in scores] + [("TOTAL/HAND", turn_total)]:
        if points < 0 or points % UNIT:
            raise PositionError(Refusal(Code.POSITION_UNIT, {"field": field, "value": points, "unit": UNIT}))
    for seat, score in enumerate(scores):
        if score >= rules.target:
            raise PositionError(Refusal(Code.POSITION_PAST_TARGET, {"seat": seat, "score": score,
                                                                    "target": rules.target}))
    if turn_total == 0 and dice_in_hand != n_all:
        raise PositionError(Refusal(Code.POSITION_TURN_START))
    for seat, score in enumerate(scores):
        if not score:
            continue
        refusal = bank_refusal(rules, score=0, turn_total=score, entered=False, hot_dice=False, must_validate=False)
        if refusal is not None:
            raise PositionError(refusal)
        if not bank_records(rules, entered=False, turn_total=score):
            raise PositionError(Refusal(Code.POSITION_BELOW_ENTRY, {"seat": seat, "score": score,
                                                                    "entry": rules.entry}))
    room = room_to_target(rules, scores[0], turn_total)
    if room is not None and room <= 0:  # reaching an exact target wins at once: the turn is over
        raise PositionError(Refusal(Code.POSITION_TURN_TOTAL, {"target": rules.target}))
    plan = _plan(rules, turn_total, dice_in_hand) if turn_total else []
    # Under validate=yes the last set-aside, a triple or a full hand, awaits its validating roll.
    pending = bool(plan) and needs_validation(rules, Option(SetAside(*plan[-1]), 0, dice_in_hand % n_all))
    played = any(scores)
    seats = ",".join(f"{s}{'' if s or rules.entry == 0 else '~'}{'x1' if played and not s else ''}" for s in scores)
    names = ("you", *(f"opponent {k}" if len(scores) > 2 else "opponent" for k in range(1, len(scores))))
    text = f"{seats} 0 {turn_total}/{dice_in_hand} - {'v' if pending else '-'} - {len(scores) * played}.{len(plan)} -"
    return Game.from_position(rules, text, names)


def _plan(rules: Rules, points: int, dice_in_hand: int) -> list[tuple[int, ...]]:
    """Set-asides making ``points``, one per roll, that leave ``dice_in_hand`` in hand: single 1s and 5s, and
    where singles cannot make it, a triple at the start of a hand. Fewest dice first."""
    n_all = rules.dice
    steps = points // UNIT
    triples = sorted({(rules.triple(f) // UNIT, f) for f in FACES})
    for used in range(1, steps + 1):
        if (n_all - used) % n_all != dice_in_hand % n_all:
            continue
        hands = (used - 1) // n_all + 1
        for k in range(min(hands, used // 3) + 1):
            for value, face in [(0, 0)] if k == 0 else triples:
                singles = used - 3 * k
                rest = steps - k * value
                if not singles <= rest <= 2 * singles:  # each single is a 5 (one step) or a 1 (two)
                    continue
                if k == hands and used - (hands - 1) * n_all < 3:
                    continue  # the last hand is too small for its triple
                ones = rest - singles
                faces = [1] * ones + [5] * (singles - ones)
                plan: list[tuple[int, ...]] = []
                for hand in range(hands):
                    size = min(n_all, used - hand * n_all)
                    if hand < k:
                        plan.append((face,) * 3)
                        size -= 3
                    plan += [(faces.pop(),) for _ in range(size)]
                return plan
    raise PositionError(Refusal(Code.POSITION_SET_ASIDE, {"total": points, "hand": dice_in_hand}))
