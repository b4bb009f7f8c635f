"""The terminal's saved unfinished games: one file per kind of game in the data folder, beside the statistics.

A save is the game's record (:func:`hotdice.game.record.record_of`) with what the mode adds (the computer's
level, the daily's day, the challenge's code, the seats' default names); reading it replays the record, so a
saved game can only hold what the engine allows. Here, below the front ends, so that the list of games in
progress (:mod:`hotdice.store.your_games`) is read where the finished ones are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from hotdice.game.dice import DiceSource, SecureDice, SeededDice
from hotdice.game.record import Record, RecordError, record_of, replay
from hotdice.play.modes import Challenge, Mode, Setup
from hotdice.play.names import DefaultName
from hotdice.play.players import LEVELS
from hotdice.store.db import data_dir

__all__ = ["SAVE_FILE", "SaveError", "SavedGame", "read_save", "resumable", "save_path", "saved_games", "write_save"]

SAVE_FILE = "saved-{slot}.json"
SAVE_VERSION = 1


class SaveError(ValueError):
    """A saved game that cannot be read or does not replay."""


def save_path(slot: str) -> Path:
    """The saved game of one kind of game (``slot``: its mode, computer level and challenge code): in the user
    data folder ($HOTDICE_DATA_DIR overrides). One per kind, as at a games table: a saved game against Hard
    stays while a solo game is played and saved."""
    return data_dir() / SAVE_FILE.format(slot=slot)


def saved_games() -> list[Path]:
    """Every saved game, the latest first (the one ``hotdice play --resume`` continues); the single
    ``saved-game.json`` of earlier versions is among them."""
    found = [(path.stat().st_mtime, path) for path in data_dir().glob(SAVE_FILE.format(slot="*"))]
    return [path for _, path in sorted(found, reverse=True)]


def resumable() -> list[SavedGame]:
    """Every saved game that can be resumed, the latest first (one that no longer replays is left out)."""
    found = []
    for path in saved_games():
        try:
            found.append(read_save(path))
        except SaveError:
            continue
    return found


@dataclass(frozen=True)
class SavedGame:
    """One saved game, replayed: its setup ready to play on, and what the terminal adds around it."""

    path: Path
    setup: Setup
    level: str | None  # the computer's level in a game against it
    defaults: tuple[DefaultName | None, ...]  # per seat: its default name, or None (chosen); () in older saves


def write_save(path: Path, setup: Setup, level: str | None, defaults: tuple[DefaultName | None, ...]) -> None:
    """Write the game of ``setup`` to ``path`` at once (a whole file or none: written aside, then moved)."""
    data: dict[str, Any] = {
        "saved_game": SAVE_VERSION,
        "record": record_of(setup.game, seed=setup.seed, mode=setup.mode.value).to_json(),
        "level": level,
        "day": None if setup.day is None else setup.day.isoformat(),
        "challenge": None if setup.challenge is None else setup.challenge.code,
        "names": [None if d is None else d.to_json() for d in defaults],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def read_save(path: Path) -> SavedGame:
    """The saved game at ``path``, replayed by the engine; SaveError if it is missing, unreadable, altered or
    already over."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError("no saved game to resume") from None
    except (OSError, ValueError) as exc:
        raise SaveError(f"the saved game {path} cannot be read: {exc}") from None
    try:
        if not isinstance(data, dict) or data.get("saved_game") != SAVE_VERSION:
            raise SaveError(f"{path} is not a game saved by this hotdice")
        record = Record.from_json(data["record"])
        game = replay(record)
        mode = Mode(record.mode)
        seed = None if record.seed is None else bytes.fromhex(record.seed)
        dice: DiceSource | None = None
        if mode is not Mode.PAD:
            dice = SecureDice() if seed is None else SeededDice(seed)
        level = data.get("level")
        if level is not None and level not in LEVELS:
            raise SaveError(f"unknown computer level '{level}' in {path}")
        setup = Setup(
            mode,
            game,
            dice,
            seed=seed,
            day=None if data.get("day") is None else date.fromisoformat(data["day"]),
            challenge=None if data.get("challenge") is None else Challenge.parse(data["challenge"]),
            computer=1 if mode is Mode.VERSUS else None,
        )
        # A save from before default names were codes has none: its names are read as chosen ones.
        defaults = tuple(DefaultName.from_json(d) for d in data.get("names") or [])
        if defaults and len(defaults) != len(game.players):
            raise SaveError(f"{path} names {len(defaults)} seats, not {len(game.players)}")
    except SaveError:
        raise
    except (RecordError, KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"the saved game {path} cannot be resumed: {exc}") from None
    if game.outcome is not None:
        raise SaveError(f"the saved game {path} is already over")
    return SavedGame(path, setup, level, defaults)
