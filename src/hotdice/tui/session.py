"""A game played in the terminal: the mode's :class:`~hotdice.play.modes.Setup`, the computer at its seat,
saving and resuming (the save files: :mod:`hotdice.store.saves`).

The game itself lives in the engine (``session.game``); screens read it and send actions to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from hotdice.game.engine import Game
from hotdice.game.record import Record, record_of
from hotdice.game.rules import Rules
from hotdice.play.modes import Mode, Setup, shown_rules
from hotdice.play.names import DefaultName
from hotdice.play.players import LEVELS, Player, computer_spec, make_player
from hotdice.store.saves import SavedGame, SaveError, read_save, save_path, saved_games, write_save

__all__ = [
    "LEVELS",
    "GameKind",
    "SaveError",
    "Session",
    "computer_spec",
    "save_path",
    "saved_games",
]


@dataclass(frozen=True)
class GameKind:
    """What the player chose in the menu, enough to start the same kind of game again."""

    mode: Mode
    level: str | None = None  # against the computer
    names: tuple[str, ...] = ()  # play together, score pad
    roll_off: bool = False  # play together: roll a die for who starts
    code: str | None = None  # friend challenge
    defaults: tuple[DefaultName | None, ...] = ()  # per name: the default it is (worded when shown), or None
    first: int = 0  # who starts, without a roll-off: a rematch passes the first seat on
    rules: Rules | None = None  # the rules string of a rematch (None: the rules in force)

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
        write_save(path, self.setup, self.level, self.defaults)
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
        return cls.resume(read_save(path), rng, waits)

    @classmethod
    def resume(cls, saved: SavedGame, rng: random.Random | None = None, waits: bool = False) -> Session:
        """The session that plays on ``saved``."""
        rng = rng if rng is not None else random.Random()
        return cls(saved.setup, level=saved.level, resumed=True, rng=rng, waits=waits, saved_at=saved.path,
                   defaults=saved.defaults)

    # -- the result ------------------------------------------------------------------------------

    @property
    def kind(self) -> GameKind:
        """The kind of this game, which is also its rematch (the web's rule, ``POST /api/games/{id}/rematch``): the
        same players and rules string, the seat after the one that started starts (no roll-off)."""
        names = self.game.players if self.mode in (Mode.TOGETHER, Mode.PAD) else ()
        code = None if self.setup.challenge is None else self.setup.challenge.code
        defaults = self.defaults if names else ()
        first = (self.game.first + 1) % len(self.game.players)
        rules = Rules.parse(shown_rules(self.game.rules))
        return GameKind(self.mode, self.level, tuple(names), False, code, defaults, first, rules)

    def default(self, seat: int) -> DefaultName | None:
        """The default name of ``seat``, or None: its name was chosen."""
        return self.defaults[seat] if seat < len(self.defaults) else None

    @property
    def opponent(self) -> str | None:
        """Who the player faced, for statistics: the computer's player spec."""
        return None if self.computer is None else self.computer.name
