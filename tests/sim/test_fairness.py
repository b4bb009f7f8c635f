"""Fair dice, and computer players that cannot see them coming.

Computer players: each kind of :data:`hotdice.play.players.PLAYERS` plays a game; then the same game again, with the
same dice up to some roll and dice of another seed after it (the unrevealed part of the stream). Everything
decided before that roll must be the same. A cheat that holds the dice source fails exactly this check, and
the object graph a player can reach holds no dice source and no seed.

Dice: Pearson's chi-square over a million faces (166,667 rolls of six dice) of SeededDice and SecureDice, the
faces and the pairs of neighbouring dice. Thresholds: SeededDice has a fixed seed, so its p-values are fixed
numbers; they must stay above 1e-6. SecureDice draws new dice at every run, so its test fails by chance with
probability 1e-9 per statistic (two per run): negligible. The same thresholds must catch dice with the modulo
bias of ``byte % 6`` (chi-square about 122 on a million faces, against 50.7 at p = 1e-9) and dice that copy
the die before them 1 % of the time (pairs chi-square about 250, against 110.3 at p = 1e-9).
"""

from __future__ import annotations

import gc
import inspect
import random
import types
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from scipy.stats import chi2

from hotdice.game.dice import DiceSource, FixedDice, SecureDice, SeededDice
from hotdice.game.engine import BANK, ROLL, Action, EventKind, Game, Phase, Roll
from hotdice.game.rules import Rules
from hotdice.game.scoring import scorer
from hotdice.play.players import PLAYERS, Player, make_player, play_game
from hotdice.sim.fairness import chi_square_p, draw, face_fit, pair_fit

RULES = "farkle,target=1000"  # small enough that Hard's solved table takes seconds
SEED, OTHER = b"fairness: the seed played", b"fairness: another seed, never revealed"
SEEDS = (SEED, b"fairness: a second game", b"fairness: a third game")
FACES = 1_000_002  # 166,667 rolls of six dice
ALPHA_SEEDED, ALPHA_SECURE = 1e-6, 1e-9


# -- computer players never see the dice to come ----------------------------------------------------------------


class Spliced:
    """The dice of ``first`` for the rolls before roll ``at`` = (turn, roll) of the game, then those of ``then``."""

    def __init__(self, first: DiceSource, then: DiceSource, at: tuple[int, int]) -> None:
        self.first, self.then, self.at = first, then, at

    def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
        return (self.first if (turn, roll) < self.at else self.then).roll(n, turn, roll)


class Peeker:
    """A cheat, for the control: it holds the dice source and stops when the next roll would farkle."""

    name = "peeker"

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def choose(self, game: Game) -> Action:
        if game.phase is Phase.SET_ASIDE:
            return max(game.options(), key=lambda o: o.points).set_aside
        upcoming = self.dice.roll(game.dice_in_hand, game.turn, game.rolls_this_turn)  # the same roll, ahead
        return BANK if BANK in game.legal_actions() and scorer(game.rules).is_farkle(upcoming) else ROLL


def play(make: Callable[[DiceSource], Player], dice: DiceSource) -> Game:
    """A game between the player made by ``make`` (seat 0) and greedy:600 (seat 1)."""
    game = Game(Rules.parse(RULES), players=("tested", "greedy"))
    play_game(game, [make(dice), make_player("greedy:600", random.Random(0))], dice)
    return game


def differs_before_the_unrevealed_roll(make: Callable[[DiceSource], Player]) -> bool:
    """Whether anything decided before some roll changes when that roll and the next come from another seed."""
    changed, cuts = False, 0
    for seed in SEEDS:
        seen = play(make, SeededDice(seed))
        rolls = [(e.turn, sum(1 for f in seen.events[:i] if f.kind is EventKind.ROLL and f.turn == e.turn))
                 for i, e in enumerate(seen.events) if e.kind is EventKind.ROLL]
        lines = [i for i, step in enumerate(seen.history) if isinstance(step.move, Roll)]
        assert len(rolls) == len(lines)
        for k in sorted({1, len(rolls) // 3, len(rolls) // 2, len(rolls) - 1} - {0}):
            other = play(make, Spliced(SeededDice(seed), SeededDice(OTHER), rolls[k])).history
            shown = lines[k]  # the history line of the first roll from the other seed
            assert other[shown:] != seen.history[shown:]  # the unrevealed dice did change the game
            changed |= other[:shown] != seen.history[:shown]
            cuts += 1
    assert cuts >= 6
    return changed


@pytest.mark.parametrize("spec", list(PLAYERS))
def test_decisions_do_not_change_when_only_unrevealed_dice_change(spec: str) -> None:
    assert not differs_before_the_unrevealed_roll(lambda dice: make_player(spec, random.Random(7)))


def test_the_check_catches_a_player_that_sees_the_dice_to_come() -> None:
    assert differs_before_the_unrevealed_roll(Peeker)


def reachable(*roots: object) -> Iterator[object]:
    """Every object the roots hold, through attributes and containers (not through classes, modules or code)."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        found = stack.pop()
        if id(found) in seen or isinstance(found, (type, types.ModuleType, types.FunctionType,
                                                   types.BuiltinFunctionType, types.CodeType)):
            continue
        seen.add(id(found))
        yield found
        stack.extend(gc.get_referents(found))


@pytest.mark.parametrize("spec", list(PLAYERS))
def test_a_player_has_no_path_to_the_dice_source_or_the_seed(spec: str) -> None:
    assert list(inspect.signature(Player.choose).parameters) == ["self", "game"]
    player = make_player(spec, random.Random(3))
    assert list(inspect.signature(player.choose).parameters) == ["game"]
    dice = SeededDice(SEED)
    game = Game(Rules.parse(RULES), players=("tested", "greedy"))
    for _ in range(6):  # into the game: the player decides on it while the dice source rolls
        action = player.choose(game) if game.to_act == 0 else make_player("greedy", random.Random(0)).choose(game)
        game.play(action, dice)
    held = list(reachable(player, game))
    assert not [x for x in held if isinstance(x, (SeededDice, SecureDice, FixedDice, Spliced))]
    assert not [x for x in held if isinstance(x, (bytes, str)) and (SEED in x if isinstance(x, bytes)
                                                                    else SEED.hex() in x or SEED.decode() in x)]
    # The walk does find a source where one is held: the cheat's.
    assert any(x is dice for x in reachable(Peeker(dice), game))


# -- dice: chi-square over a million faces ----------------------------------------------------------------------


@pytest.mark.parametrize(("statistic", "df"), [(0.5, 1), (3.2, 5), (11.07, 5), (50.7, 5), (4.0, 2), (35.0, 36),
                                               (110.3, 35), (200.0, 35), (3.0, 1), (1e4, 35)])
def test_the_p_value_is_scipys(statistic: float, df: int) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(float(chi2.sf(statistic, df)), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize(("dice", "alpha"), [(SeededDice(b"fairness: chi-square"), ALPHA_SEEDED),
                                             (SecureDice(), ALPHA_SECURE)], ids=["seeded", "secure"])
def test_a_million_faces_fit_one_sixth_each_and_neighbours_are_independent(dice: DiceSource, alpha: float) -> None:
    rolls = draw(dice, FACES)
    assert rolls.shape == (FACES // 6, 6)
    faces, pairs = face_fit(rolls), pair_fit(rolls)
    assert sum(faces.counts) == FACES and sum(pairs.counts) == FACES // 2
    assert faces.df == 5 and pairs.df == 35
    assert faces.p > alpha and pairs.p > alpha, (faces, pairs)


def test_the_same_test_catches_modulo_bias_and_sticky_dice() -> None:
    rng = np.random.default_rng(20261130)
    modulo = (rng.integers(0, 256, size=(FACES // 6, 6)) % 6 + 1).astype(np.int8)  # no rejection of 252..255
    assert face_fit(modulo).p < ALPHA_SECURE
    fair = rng.integers(1, 7, size=(FACES // 6, 6)).astype(np.int8)
    sticky = fair.copy()
    repeat = rng.random(size=(FACES // 6, 3)) < 0.01
    sticky[:, 1::2] = np.where(repeat, sticky[:, 0::2], sticky[:, 1::2])  # the die before, 1 % of the time
    assert face_fit(sticky).p > ALPHA_SEEDED and pair_fit(sticky).p < ALPHA_SECURE
    assert face_fit(fair).p > ALPHA_SEEDED and pair_fit(fair).p > ALPHA_SEEDED


def test_draw_takes_each_roll_from_its_own_turn_and_roll() -> None:
    dice = SeededDice(b"draw")
    rolls = draw(dice, 6 * 20)
    assert [tuple(r) for r in rolls] == [dice.roll(6, i // 8, i % 8) for i in range(20)]
    with pytest.raises(ValueError, match="multiple of 6"):
        draw(dice, 10)
