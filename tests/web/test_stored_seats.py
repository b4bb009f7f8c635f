"""A game's seats are typed (StoredSeat) and kept in its row as they always were: every shape a row holds reads
and writes back byte for byte, and an old row's seat named in text reads as a chosen name."""

from __future__ import annotations

import json

import pytest

from hotdice.play.names import DefaultName
from hotdice.web.services.games import StoredSeat, default_name, human_seat, stored_seats

ROWS = [
    {"kind": "human", "player": None},
    {"kind": "human", "player": "p1", "name": {"code": "player", "n": 2}},
    {"kind": "human", "player": "p2", "bot": True},
    {"kind": "computer", "spec": "hard", "level": "hard"},
    {"kind": "computer", "spec": "medium", "level": "medium", "wait": True},
]


@pytest.mark.parametrize("row", ROWS)
def test_each_seat_a_row_holds_reads_and_writes_back_as_it_was(row: dict[str, object]) -> None:
    text = json.dumps([row])
    assert json.dumps([seat.to_json() for seat in stored_seats(text)]) == text


def test_a_seat_named_in_text_by_an_old_row_reads_as_a_chosen_name() -> None:
    seat = StoredSeat.from_json({"kind": "human", "player": None, "name": "Ann"})
    assert seat.name is None and default_name(seat) is None
    assert seat.to_json() == {"kind": "human", "player": None}


def test_the_seats_kinds_and_defaults() -> None:
    made = human_seat("p1", DefaultName("player", 1), bot=True)
    assert made.human and made.bot and default_name(made) == DefaultName("player", 1).to_json()
    computer = StoredSeat("computer", spec="hard", level="hard")
    assert not computer.human and default_name(computer) == DefaultName("computer", level="hard").to_json()
