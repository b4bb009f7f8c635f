"""A game played in the terminal: the mode's :class:`~hotdice.play.modes.Setup`, the computer at its seat,
saving and resuming.

The game itself lives in the engine (``session.game``); screens read it and send actions to it. Saving
writes the game's record (:func:`hotdice.game.record.record_of`) with what the mode adds (the computer's level,
the daily's day, the challenge's code); resuming replays it, so a saved game can only hold what the
engine allows.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from hotdice.game.dice import DiceSource, SecureDice, SeededDice
from hotdice.game.engine import Game
from hotdice.game.record import Record, RecordError, record_of, replay
from hotdice.play.modes import Challenge, Mode, Setup
from hotdice.play.names import DefaultName
from hotdice.play.players import LEVELS, Player, computer_spec, make_player
from hotdice.store.db import data_dir

__all__ = [
    "LEVELS",
    "SAVE_FILE",
    "GameKind",
    "SaveError",
    "Session",
    "computer_spec",
    "save_path",
    "saved_games",
]

SAVE_FILE = "saved-{slot}.json"
SAVE_VERSION = 1


class SaveError(ValueError):
    """A saved game that cannot be read or does not replay."""


def save_path(slot: str) -> Path:
    """The saved game of one kind of game (its :attr:`GameKind.slot`): in the user data folder, beside the
    statistics ($HOTDICE_DATA_DIR overrides). One per kind, as at a games table: a saved game against Hard
    stays while a solo game is played and saved."""
    return data_dir() / SAVE_FILE.format(slot=slot)


def saved_games() -> list[Path]:
    """Every saved game, the latest first (the one ``hotdice play --resume`` continues); the single
    ``saved-game.json`` of earlier versions is among them."""
    found = [(path.stat().st_mtime, path) for path in data_dir().glob(SAVE_FILE.format(slot="*"))]
    return [path for _, path in sorted(found, reverse=True)]


@dataclass(frozen=True)
class GameKind:
    """What the player chose in the menu, enough to start the same kind of game again."""

    mode: Mode
    level: str | None = None  # against the computer
    names: tuple[str, ...] = ()  # play together, score pad
    roll_off: bool = False  # play together: roll a die for who starts
    code: str | None = None  # friend challenge
    defaults: tuple[DefaultName | None, ...] = ()  # per name: the default it is (worded when shown), or None
    first: int = 0  # who starts, without a roll-off: another like a finished game passes the first seat on

    @property
    def slot(self) -> str:
        """Which saved game this kind of game has: one per mode, computer level and challenge code."""
        return "-".join(part for part in (self.mode.value, self.level, self.code) if part)


@dataclass
class Session:
    """One game in progress and what the terminal keeps around it."""

    setup: Setup
    level: str | None = None  # the computer's level in a game against it
    resumed: bool = False  # continued from the saved game: finishing it clears the save
    waits: bool = False  # Hard waits for its exact play while its table is solved (the player's setting)
    unofficial: bool = False  # a daily whose day already has its official result: said from the first screen
    rng: random.Random = field(default_factory=random.Random)
    saved_at: Path | None = None  # the file it was resumed from
    # Per seat, the default name it has (the record holds its English words), or None: a name someone chose.
    defaults: tuple[DefaultName | None, ...] = ()
    computer: Player | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.setup.computer is not None:
            from hotdice.play.players.skilled import at_once

            self.computer = make_player(computer_spec(self.level or "medium"), self.rng)
            # Hard plays expected points while its table is solved in the background, or waits if so chosen.
            at_once(self.computer, patient=self.waits)

    @property
    def game(self) -> Game:
        return self.setup.game

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    def computer_to_act(self) -> bool:
        return self.game.to_act == self.setup.computer

    def record(self) -> Record:
        return record_of(self.game, seed=self.setup.seed, mode=self.mode.value)

    # -- saving ----------------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> Path:
        """Write the game to its kind's save file (replacing the save it was resumed from, if elsewhere)."""
        path = save_path(self.kind.slot) if path is None else path
        data: dict[str, Any] = {
            "saved_game": SAVE_VERSION,
            "record": self.record().to_json(),
            "level": self.level,
            "day": None if self.setup.day is None else self.setup.day.isoformat(),
            "challenge": None if self.setup.challenge is None else self.setup.challenge.code,
            "names": [None if d is None else d.to_json() for d in self.defaults],
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
        if self.saved_at is not None and self.saved_at != path:
            self.saved_at.unlink(missing_ok=True)
        self.saved_at = path
        return path

    @classmethod
    def load(cls, path: Path | None = None, rng: random.Random | None = None, waits: bool = False) -> Session:
        """A saved game (the latest if no ``path``), replayed by the engine; SaveError if it is missing,
        unreadable or altered."""
        if path is None:
            latest = saved_games()
            if not latest:
                raise SaveError("no saved game to resume")
            path = latest[0]
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
        rng = rng if rng is not None else random.Random()
        return cls(setup, level=level, resumed=True, rng=rng, waits=waits, saved_at=path, defaults=defaults)

    # -- the result ------------------------------------------------------------------------------

    @property
    def kind(self) -> GameKind:
        """The kind of this game, to play another like it."""
        names = self.game.players if self.mode in (Mode.TOGETHER, Mode.PAD) else ()
        code = None if self.setup.challenge is None else self.setup.challenge.code
        defaults = self.defaults if names else ()
        roll_off = self.setup.roll_off is not None
        first = 0 if roll_off else (self.game.first + 1) % len(self.game.players)  # the rematch: the next starts
        return GameKind(self.mode, self.level, tuple(names), roll_off, code, defaults, first)

    def default(self, seat: int) -> DefaultName | None:
        """The default name of ``seat``, or None: its name was chosen."""
        return self.defaults[seat] if seat < len(self.defaults) else None

    @property
    def opponent(self) -> str | None:
        """Who the player faced, for statistics: the computer's player spec."""
        return None if self.computer is None else self.computer.name
