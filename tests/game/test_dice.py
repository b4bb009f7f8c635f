"""Dice sources and the roll-off.

The seeded stream is recomputed here from its definition (DESIGN.md, "Choices already made"): block ``i``
of (seed, turn, roll) is HMAC-SHA256(key=seed, message="hotdice/{turn}/{roll}/{i}"), bytes >= 252 are
skipped, a kept byte ``b`` is the face ``b % 6 + 1``. The literal vectors below were computed with
``openssl dgst -sha256 -hmac hotdice`` on those messages, not with hotdice, so that a change of the stream
(which would change every daily game and challenge already played) cannot go unnoticed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotdice.game.dice import FixedDice, OutOfDice, SecureDice, SeededDice
from hotdice.game.engine import roll_off


def reference_faces(seed: bytes, turn: int, roll: int, n: int) -> tuple[int, ...]:
    """The first ``n`` faces of the (seed, turn, roll) stream, straight from its definition."""
    faces: list[int] = []
    block = 0
    while len(faces) < n:
        message = f"hotdice/{turn}/{roll}/{block}".encode()
        faces += [b % 6 + 1 for b in hmac.new(seed, message, hashlib.sha256).digest() if b < 252]
        block += 1
    return tuple(faces[:n])


# Seed "hotdice", six dice: (turn, roll) -> faces. Turn 1, roll 0 starts with the byte 253, which is skipped.
VECTORS = {
    (0, 0): (6, 4, 4, 1, 6, 2),
    (0, 1): (4, 5, 6, 5, 3, 3),
    (1, 0): (5, 2, 2, 4, 1, 6),
    (1, 1): (4, 4, 3, 2, 6, 2),
    (2, 0): (6, 6, 3, 3, 2, 5),
    (2, 1): (6, 4, 6, 4, 5, 5),
}

seeds = st.binary(min_size=0, max_size=40)
turns = st.integers(min_value=-1, max_value=10_000)
rolls = st.integers(min_value=0, max_value=50)


@pytest.mark.parametrize(("turn_roll", "faces"), VECTORS.items())
def test_known_answer_vectors(turn_roll: tuple[int, int], faces: tuple[int, ...]) -> None:
    turn, roll = turn_roll
    assert SeededDice("hotdice").roll(6, turn, roll) == faces
    assert SeededDice(b"hotdice").roll(6, turn, roll) == faces
    assert reference_faces(b"hotdice", turn, roll, 6) == faces


def test_a_skipped_byte_is_really_skipped() -> None:
    # The first byte of turn 1, roll 0 is 253: taking it would give 253 % 6 + 1 = 2 as the first face.
    first = hmac.new(b"hotdice", b"hotdice/1/0/0", hashlib.sha256).digest()[0]
    assert first == 253
    assert SeededDice("hotdice").roll(1, 1, 0) == (5,)


@given(seeds, turns, rolls)
def test_stream_matches_its_definition(seed: bytes, turn: int, roll: int) -> None:
    assert SeededDice(seed).roll(6, turn, roll) == reference_faces(seed, turn, roll, 6)


def test_long_rolls_continue_into_the_next_blocks() -> None:
    # 100 faces need at least four 32-byte blocks.
    assert SeededDice(b"k").roll(100, 3, 2) == reference_faces(b"k", 3, 2, 100)


@given(seeds, turns, rolls, st.integers(min_value=1, max_value=6))
def test_n_dice_are_the_first_n_faces_of_six(seed: bytes, turn: int, roll: int, n: int) -> None:
    dice = SeededDice(seed)
    assert dice.roll(n, turn, roll) == dice.roll(6, turn, roll)[:n]


def test_streams_differ_by_seed_turn_and_roll() -> None:
    base = SeededDice(b"a").roll(30, 0, 0)
    assert SeededDice(b"b").roll(30, 0, 0) != base
    assert SeededDice(b"a").roll(30, 1, 0) != base
    assert SeededDice(b"a").roll(30, 0, 1) != base


def test_seeded_faces_are_even() -> None:
    """60 000 faces: each count within 5.5 standard deviations (91) of 10 000."""
    dice = SeededDice(b"fairness")
    counts = Counter(face for turn in range(1000) for roll in range(10) for face in dice.roll(6, turn, roll))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_500 <= c <= 10_500 for c in counts.values()), counts


def test_secure_dice_are_dice() -> None:
    dice = SecureDice()
    seen: Counter[int] = Counter()
    for n in range(1, 7):
        for _ in range(200):
            roll = dice.roll(n, 0, 0)
            assert len(roll) == n
            seen.update(roll)
    # 4200 faces: a face missing has probability below 6 * (5/6) ** 4200, i.e. never.
    assert set(seen) == {1, 2, 3, 4, 5, 6}


def test_fixed_dice_hand_out_rolls_in_order() -> None:
    dice = FixedDice([(1, 2, 3), [5, 5]])
    assert dice.remaining == 2
    assert dice.roll(3, 0, 0) == (1, 2, 3)
    assert dice.roll(2, 0, 1) == (5, 5)
    assert dice.remaining == 0
    with pytest.raises(OutOfDice, match="no roll left"):
        dice.roll(6, 1, 0)


def test_fixed_dice_refuse_a_wrong_count() -> None:
    dice = FixedDice([(1, 2, 3)])
    with pytest.raises(OutOfDice, match="has 3 dice, but 4 are rolled"):
        dice.roll(4, 0, 0)
    assert dice.remaining == 1  # the refused roll is still there
    assert dice.roll(3, 0, 0) == (1, 2, 3)


# -- roll-off -----------------------------------------------------------------------------------


def test_roll_off_highest_starts() -> None:
    result = roll_off(3, FixedDice([(2, 5, 3)]))
    assert result.first == 1
    assert result.rounds == (((0, 2), (1, 5), (2, 3)),)


def test_roll_off_ties_roll_again() -> None:
    # Players 0 and 2 tie on 6 and roll again; then 0 and 2 tie on 4; then 2 wins. Player 1 is out at once.
    result = roll_off(3, FixedDice([(6, 1, 6), (4, 4), (3, 5)]))
    assert result.first == 2
    assert result.rounds == (((0, 6), (1, 1), (2, 6)), ((0, 4), (2, 4)), ((0, 3), (2, 5)))


def test_roll_off_uses_turn_minus_one() -> None:
    asked: list[tuple[int, int, int]] = []

    class Spy:
        def roll(self, n: int, turn: int, roll: int) -> tuple[int, ...]:
            asked.append((n, turn, roll))
            return (4,) * n if roll == 0 else tuple(range(1, n + 1))

    assert roll_off(4, Spy()).first == 3
    assert asked == [(4, -1, 0), (4, -1, 1)]


def test_roll_off_alone() -> None:
    assert roll_off(1, FixedDice([(2,)])).first == 0


@pytest.mark.parametrize("players", [0, 9])
def test_roll_off_player_count(players: int) -> None:
    with pytest.raises(ValueError, match="1 to 8 players"):
        roll_off(players, SecureDice())


@given(st.binary(max_size=8), st.integers(min_value=2, max_value=8))
def test_seeded_roll_off_follows_the_rule(seed: bytes, players: int) -> None:
    """Each round: exactly the tied highest of the round before roll; the last round has one highest."""
    result = roll_off(players, SeededDice(seed))
    rolling = list(range(players))
    for number, rnd in enumerate(result.rounds):
        assert [p for p, _ in rnd] == rolling
        assert tuple(f for _, f in rnd) == SeededDice(seed).roll(len(rolling), -1, number)
        top = max(f for _, f in rnd)
        rolling = [p for p, f in rnd if f == top]
    assert rolling == [result.first]
