"""Computer players and the game loop: legal play under every preset and house rules, greedy's choices
worked out by hand on fixed dice, the registry of specs, and what the loop rolls."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotdice.game.dice import FixedDice, SeededDice
from hotdice.game.engine import BANK, ROLL, Action, EventKind, Game, IllegalMoveError
from hotdice.game.rules import Rules
from hotdice.game.scoring import SetAside
from hotdice.play.players import (
    PLAYERS,
    GreedyPlayer,
    Player,
    PlayerKind,
    RandomPlayer,
    choose,
    make_player,
    play_game,
)
from hotdice.sim.compiled import ENDINGS, GREEDY, CompiledPlayer, play_compiled

RULES = [
    "farkle",
    "5000",
    "5000-fr",
    "5000-fr-6",
    "farkle,entry=500,three_farkles=1000",
    "farkle,hot_dice=must,kinds=doubling,min_bank=300",
    "5000-fr,rule_4900=yes,min_bank=300",
    "5000,below_entry=roll,three_farkles=500",
]
LINEUPS = [("random", "random"), ("greedy", "random"), ("greedy", "greedy:500"), ("random", "greedy:0", "greedy")]


class Checked:
    """Wraps a player: every action it chooses must be legal, and choosing must not touch the game."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.actions: list[Action] = []

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        before = (list(game.history), game.scores, game.turn_total, game.roll)
        action = self.inner.choose(game)
        assert action in legal, f"{self.name} chose {action!r}, legal: {legal}"
        assert (list(game.history), game.scores, game.turn_total, game.roll) == before
        self.actions.append(action)
        return action


def checked_game(rules: str, specs: Sequence[str], seed: int) -> tuple[Game, list[Checked]]:
    players = [Checked(make_player(s, random.Random(f"{seed}/{i}"))) for i, s in enumerate(specs)]
    game = Game(Rules.parse(rules), players=tuple(specs))
    outcome = play_game(game, players, SeededDice(str(seed)))
    assert outcome is game.outcome
    assert outcome.scores == game.scores
    return game, players


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("lineup", LINEUPS, ids=",".join)
def test_players_only_play_legal_actions(rules: str, lineup: tuple[str, ...]) -> None:
    for seed in range(4):
        game, players = checked_game(rules, lineup, seed)
        assert all(p.actions for p in players)
        assert game.is_over


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    specs=st.lists(st.sampled_from(["random", "greedy", "greedy:0", "greedy:1000"]), min_size=1, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_any_lineup_any_seed_plays_legally_to_the_end(rules: str, specs: list[str], seed: int) -> None:
    game, _ = checked_game(rules, specs, seed)
    assert game.outcome is not None and game.outcome.winners


# -- greedy, worked by hand on fixed dice ----------------------------------------------------------


def play_fixed(rules: str, player: Player, rolls: list[str]) -> Game:
    """One turn of a solo game with the given rolls; the turn must use every roll."""
    game = Game(Rules.parse(rules), players=("solo",), turn_limit=1)
    dice = FixedDice([tuple(int(d) for d in roll) for roll in rolls])
    play_game(game, [player], dice)
    assert dice.remaining == 0
    return game


def test_greedy_keeps_the_best_and_banks_once_it_has_the_threshold() -> None:
    # 1 is worth 100 (< 300: roll the five others); then 5-5-5 = 500: 600 in hand, bank.
    game = play_fixed("farkle", GreedyPlayer(), ["234661", "55523"])
    assert list(map(str, game.history)) == ["roll", "dice 234661", "keep 1", "roll", "dice 55523", "keep 555", "bank"]
    assert game.scores == (600,)


def test_greedy_threshold_decides_between_banking_and_rolling_on() -> None:
    # 1 = 100, then 3-3-3 = 300: 400 in hand. greedy (300) banks it; greedy:500 rolls two dice and farkles.
    assert play_fixed("farkle", GreedyPlayer(), ["123466", "33324"]).scores == (400,)
    game = play_fixed("farkle", make_player("greedy:500", random.Random(0)), ["123466", "33324", "26"])
    assert list(map(str, game.history[-3:])) == ["keep 333", "roll", "dice 26"]
    assert game.scores == (0,)


def test_greedy_rolls_on_below_the_entry_and_banks_after_hot_dice() -> None:
    # entry=500: 100 + 300 = 400 cannot be banked; a 5 (450), then the last die is a 1 (550, hot dice):
    # hot dice are optional in farkle, 550 >= 500, so greedy banks.
    game = play_fixed("farkle,entry=500", GreedyPlayer(), ["123466", "33324", "52", "1"])
    assert list(map(str, game.history[-2:])) == ["keep 1", "bank"]
    assert game.scores == (550,)


def test_greedy_validates_a_triple_before_banking_in_5000_fr_6() -> None:
    # Three 1s (1000) must be set aside and validated: the three other dice are rolled, a 5 scores.
    game = play_fixed("5000-fr-6", GreedyPlayer(), ["111234", "235"])
    assert list(map(str, game.history)) == ["roll", "dice 111234", "keep 111", "roll", "dice 235", "keep 5", "bank"]
    assert game.scores == (1050,)


def test_greedy_does_not_throw_points_away_below_the_entry_of_5000() -> None:
    # In 5000 a bank below 350 is allowed but not recorded: greedy (300) rolls on from 300; a 1 makes 400.
    game = play_fixed("5000", GreedyPlayer(), ["33324", "16"])
    assert list(map(str, game.history)) == ["roll", "dice 33324", "keep 333", "roll", "dice 16", "keep 1", "bank"]
    assert game.scores == (400,)
    for seed in range(5):
        game, _ = checked_game("5000", ("greedy", "greedy"), seed)
        assert not [e for e in game.events if e.kind is EventKind.ENTRY_MISSED]


@pytest.mark.parametrize("rules", ["farkle", "5000", "5000-fr-6", "farkle,entry=500,three_farkles=1000"])
def test_greedy_banks_only_at_or_above_its_threshold(rules: str) -> None:
    for seed in range(5):
        game, _ = checked_game(rules, ("greedy:400", "greedy:400"), seed)
        banks = [e.points for e in game.events if e.kind is EventKind.BANK]
        assert banks and min(banks) >= 400


# -- random ------------------------------------------------------------------------------------


def test_random_picks_each_legal_action_about_equally_often() -> None:
    game = Game(Rules.parse("farkle"))
    game.apply(ROLL)
    game.apply_roll((1, 1, 5, 2, 3, 4))
    legal = game.legal_actions()  # 1, 5, 11, 15, 115
    assert sorted(map(str, legal)) == ["1", "11", "115", "15", "5"]
    player = RandomPlayer(random.Random(7))
    counts = Counter(player.choose(game) for _ in range(5000))
    assert set(counts) == set(legal)
    assert all(850 <= c <= 1150 for c in counts.values()), counts  # 1000 expected, sd 28
    game.apply(SetAside(1, 1, 5))
    assert set(game.legal_actions()) == {ROLL, BANK}
    counts = Counter(player.choose(game) for _ in range(2000))
    assert 850 <= counts[BANK] <= 1150


def test_random_draws_only_from_its_own_generator() -> None:
    random.seed(1)
    state = random.getstate()
    first, _ = checked_game("farkle", ("random", "random"), 3)
    again, _ = checked_game("farkle", ("random", "random"), 3)
    assert random.getstate() == state
    assert first.history == again.history
    other = Game(Rules.parse("farkle"), players=("a", "b"))
    play_game(other, [RandomPlayer(random.Random(99)), RandomPlayer(random.Random(98))], SeededDice("3"))
    assert other.history != first.history


# -- the registry ------------------------------------------------------------------------------


def test_specs_make_the_players_they_name() -> None:
    rng = random.Random(0)
    assert isinstance(make_player("random", rng), RandomPlayer)
    greedy = make_player("greedy", rng)
    assert isinstance(greedy, GreedyPlayer) and greedy.threshold == 300 and greedy.name == "greedy"
    greedy = make_player(" Greedy:400 ", rng)
    assert isinstance(greedy, GreedyPlayer) and greedy.threshold == 400 and greedy.name == "greedy:400"
    assert make_player(greedy.name, rng).name == "greedy:400"


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("smart", "unknown player 'smart'; players are: random, greedy"),
        ("", "a player spec is empty; players are: random, greedy"),
        ("random:3", "random takes no argument"),
        ("greedy:lots", "bank threshold must be a whole number"),
        ("greedy:-50", "bank threshold must be a whole number"),
    ],
)
def test_bad_specs_say_what_is_known(spec: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        make_player(spec, random.Random(0))


def test_a_new_kind_of_player_is_one_entry_in_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = PlayerKind("cautious", "banks at 150", lambda rng, arg: GreedyPlayer(150))
    monkeypatch.setitem(PLAYERS, "cautious", kind)
    player = make_player("cautious", random.Random(0))
    assert isinstance(player, GreedyPlayer) and player.threshold == 150
    with pytest.raises(ValueError, match=r"players are: random, greedy, .*cautious"):
        make_player("bold", random.Random(0))


# -- the game loop -----------------------------------------------------------------------------


def test_the_loop_rolls_each_roll_from_its_turn_and_number() -> None:
    game, _ = checked_game("farkle", ("greedy", "random"), 11)
    dice = SeededDice("11")
    number_in_turn: Counter[int] = Counter()
    rolls = [e for e in game.events if e.kind is EventKind.ROLL]
    assert rolls
    for event in rolls:
        k = number_in_turn[event.turn]
        assert event.dice == dice.roll(len(event.dice), event.turn, k)
        number_in_turn[event.turn] += 1


def test_the_loop_finishes_a_roll_asked_for_before_it_started() -> None:
    game = Game(Rules.parse("farkle"), players=("a", "b"))
    game.apply(ROLL)
    play_game(game, [GreedyPlayer(), GreedyPlayer()], SeededDice("x"))
    fresh = Game(Rules.parse("farkle"), players=("a", "b"))
    play_game(fresh, [GreedyPlayer(), GreedyPlayer()], SeededDice("x"))
    assert game.history == fresh.history


def test_the_loop_wants_one_player_per_seat() -> None:
    with pytest.raises(ValueError, match="1 players for a game of 2 seats"):
        play_game(Game(Rules.parse("farkle"), players=("a", "b")), [GreedyPlayer()], SeededDice("x"))


def test_the_engine_refuses_a_player_that_cheats() -> None:
    class BanksAtOnce:
        name = "cheat"

        def choose(self, game: Game) -> Action:
            return BANK

    with pytest.raises(IllegalMoveError, match="cannot bank: nothing to bank yet"):
        play_game(Game(Rules.parse("farkle")), [BanksAtOnce()], SeededDice("x"))


# -- the compiled path ----------------------------------------------------------------------------

THRESHOLDS = [0, 50, 300, 350, 500, 750, 1000, 1500]


@pytest.mark.parametrize("rules", RULES)
def test_compiled_greedy_games_are_the_engine_games_on_the_same_dice(rules: str) -> None:
    r = Rules.parse(rules)
    rng = random.Random(rules)
    games = 24
    thresholds = [[rng.choice(THRESHOLDS) for _ in range(2)] for _ in range(games)]
    seeds = [f"{rules}/2/{g}" for g in range(games)]
    played = play_compiled(r, [[CompiledPlayer(GREEDY, t) for t in row] for row in thresholds], seeds)
    for g, seed in enumerate(seeds):
        game = Game(r, players=("x",) * 2)
        outcome = play_game(game, [GreedyPlayer(t) for t in thresholds[g]], SeededDice(seed))
        assert tuple(played.scores[g]) == outcome.scores, (seed, thresholds[g])
        assert tuple(np.flatnonzero(played.winners[g])) == outcome.winners, seed
        assert ENDINGS[played.endings[g]] is outcome.termination, seed
        assert tuple(played.turns[g]) == game.turns_played, seed


def test_a_computer_whose_solver_refuses_a_decision_plays_the_greedy_players_move() -> None:
    """Every front end asks its computer through :func:`choose`: where the player cannot decide (rules its
    solver does not cover), the greedy player's move stands in; elsewhere, the player's own."""

    class Refusing:
        name = "refusing"

        def choose(self, game: Game) -> Action:
            raise ValueError("these rules are not solved")

    game = Game(Rules.parse("farkle"), ("A", "B"))
    game.apply(ROLL)
    game.apply_roll((1, 5, 2, 3, 4, 6))
    assert choose(Refusing(), game) == GreedyPlayer().choose(game)
    assert choose(RandomPlayer(random.Random(3)), game) == RandomPlayer(random.Random(3)).choose(game)
