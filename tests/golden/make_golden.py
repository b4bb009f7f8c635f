"""Write the golden seeded playthroughs: one two-player game per preset, as a record and a transcript.

Run ``python tests/golden/make_golden.py`` after a deliberate change of the engine's behaviour, then read
the diff of ``tests/golden/*.txt`` before committing it: tests/game/test_record.py compares the replayed
records with these transcripts, so any change in how a game plays out shows up there.

The policy is deliberately simple and written here, not taken from hotdice.play.players, so that a change in
the computer players never changes the golden files: set aside the best option the engine offers, bank
at a turn total of 350 or more when the engine allows it, otherwise roll.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hotdice.game.dice import SeededDice
from hotdice.game.engine import BANK, ROLL, Action, Game, Phase
from hotdice.game.record import Record, record_of, transcript
from hotdice.game.variants import VARIANTS, find_variant

HERE = Path(__file__).resolve().parent
PLAYERS = ("Ann", "Bob")
BANK_AT = 350
MAX_ACTIONS = 10_000  # a game of these presets ends long before; a bug must not loop for ever


def seed_of(preset: str) -> bytes:
    return f"golden/{preset}".encode()


def choose(game: Game) -> Action:
    """The golden policy: best set-aside; bank at BANK_AT or more when allowed; otherwise roll."""
    if game.phase is Phase.SET_ASIDE:
        return game.options()[0].set_aside
    if game.turn_total >= BANK_AT and BANK in game.legal_actions():
        return BANK
    return ROLL


def play(preset: str) -> Record:
    """The golden game of ``preset``: two players, seeded dice, played to the end."""
    game = Game(find_variant(preset).rules, players=PLAYERS)
    dice = SeededDice(seed_of(preset))
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return record_of(game, seed=dice.seed, mode="together")
        game.play(choose(game), dice)
    raise RuntimeError(f"the golden game of {preset} did not end in {MAX_ACTIONS} actions")


def files(preset: str) -> dict[str, str]:
    """The golden files of ``preset``: name -> text."""
    record = play(preset)
    return {
        f"{preset}.json": json.dumps(record.to_json(), indent=1, ensure_ascii=False) + "\n",
        f"{preset}.txt": "\n".join(transcript(record)) + "\n",
    }


def main(out: Path = HERE) -> None:
    for v in VARIANTS:
        for name, text in files(v.name).items():
            (out / name).write_text(text, encoding="utf-8")
            print(f"wrote {out / name} ({len(text.encode())} bytes)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
