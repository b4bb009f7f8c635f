"""The Textual app of ``hotdice play``: the language, the rules in force, and how each mode is started.

Screens: the menu (:mod:`.screens.menu`), the table (:mod:`.screens.table`), the forms a mode asks first,
statistics, settings and training. Tests build the app with seeded dice, a fixed clock and no pace, so a
game played through key presses is the same every time.
"""

from __future__ import annotations

import json
import random
from datetime import date, datetime
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from hotdice.game.dice import SeededDice
from hotdice.game.rules import Rules
from hotdice.play.daily import daily_day
from hotdice.play.modes import Challenge, Mode, Setup, challenge, daily, pad, race, solo, together, versus
from hotdice.play.names import DefaultName
from hotdice.store.db import data_dir
from hotdice.store.saves import SavedGame, read_save
from hotdice.tui.i18n import Translator, detect_language
from hotdice.tui.prefs import Prefs
from hotdice.tui.screens.menu import MenuScreen
from hotdice.tui.session import GameKind, SaveError, Session, save_path

__all__ = ["DEFAULT_PACE", "HotDiceApp"]

DEFAULT_PACE = 0.7  # seconds between two of the computer's actions


class HotDiceApp(App[None]):
    CSS_PATH = "hotdice.tcss"
    TITLE = "hotdice"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", show=False, priority=True)]

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        lang: str | None = None,
        resume: Session | None = None,
        dice_seed: bytes | None = None,
        pace: float = DEFAULT_PACE,
        now: datetime | None = None,
        rng: random.Random | None = None,
        warm: bool = True,
    ) -> None:
        """``dice_seed``, ``now`` and ``rng`` make games repeatable (tests); ``pace`` 0 plays the computer at once;
        ``warm`` solves what the coach and the computer need as a game opens (tests leave it off)."""
        super().__init__()
        self.prefs = Prefs.load()
        self.rules = rules if rules is not None else Rules.parse(self.prefs.rules)
        self.t = Translator(lang or self.prefs.lang or detect_language())
        self.resume_session = resume
        self.dice_seed = dice_seed
        self.pace = pace
        self.now = now
        self.rng = rng if rng is not None else random.Random()
        self.warm = warm
        self.last_record_note = ""

    def get_default_screen(self) -> Screen[None]:
        return MenuScreen()

    def on_mount(self) -> None:
        if self.resume_session is not None:
            session, self.resume_session = self.resume_session, None
            self._open(session)

    # -- names ---------------------------------------------------------------------------------

    def player_name(self) -> str:
        """The name the player goes by here: theirs, else "You" in the language shown."""
        return self.prefs.name or self.t("player.you")

    def own_name(self) -> tuple[str, DefaultName | None]:
        """The name a new game records for the player, with its default (None: they chose it)."""
        if self.prefs.name:
            return self.prefs.name, None
        you = DefaultName("you")
        return you.english(), you

    def word(self, default: DefaultName) -> str:
        """A default name in the language shown."""
        if default.code == "you":
            return self.t("player.you")
        if default.code == "computer":
            word = self.t("player.computer")
            return word if default.n is None else f"{word} {default.n}"
        return self.t("names.default_other", n=default.n or 1)

    def names(self, session: Session) -> list[str]:
        """The seats' names as shown: a default name in the language shown, a chosen one as it was typed."""
        return [name if (d := session.default(i)) is None else self.word(d)
                for i, name in enumerate(session.game.players)]

    def typed_names(self, typed: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[DefaultName | None, ...]]:
        """The names typed for a game together, each left as the default offered (the player's own name, "Player
        n") recorded as that default."""
        names, defaults = [], []
        for n, name in enumerate(typed, start=1):
            offered = self.own_name() if n == 1 else ("", DefaultName("player", n))
            default = offered[1] if offered[1] is not None and name == self.word(offered[1]) else None
            names.append(name if default is None else default.english())
            defaults.append(default)
        return tuple(names), tuple(defaults)

    def mode_title(self, setup: Setup, level: str | None, unofficial: bool = False) -> str:
        """The game's mode as its title says it (the computer's level, the daily's day, the challenge's code)."""
        t = self.t
        if setup.mode is Mode.VERSUS:
            return t("mode.versus", level=t(f"level.{level or 'medium'}"))
        if setup.mode is Mode.DAILY:
            key = "mode.daily_unofficial" if unofficial else "mode.daily"
            return t(key, day="" if setup.day is None else t.date(setup.day))
        if setup.mode is Mode.CHALLENGE:
            return t("mode.challenge", code="" if setup.challenge is None else setup.challenge.code)
        return t(f"mode.{setup.mode.value}")

    def saved_game_label(self, saved: SavedGame) -> str:
        """What a saved game is: its mode and the scores so far."""
        scores = " – ".join(self.t.number(s) for s in saved.setup.game.scores)
        return self.t("menu.saved_what", mode=self.mode_title(saved.setup, saved.level), scores=scores)

    # -- starting games ------------------------------------------------------------------------

    def choose(self, item: str) -> None:
        """Do what a menu item says (the official daily asks first)."""
        from hotdice.tui.screens.dialogs import ConfirmScreen
        from hotdice.tui.screens.forms import ChallengeCreatedScreen, ChallengeJoinScreen, NamesScreen
        from hotdice.tui.screens.settings import SettingsScreen
        from hotdice.tui.screens.stats import StatsScreen
        from hotdice.tui.screens.training import TrainingScreen

        if item.startswith("resume:"):
            self.resume(data_dir() / item.removeprefix("resume:"))
        elif item == "daily" and not self.daily_taken(daily_day(self.now)):
            ask = self.t("daily.official_ask")
            self.push_screen(ConfirmScreen(ask, lambda: self._start_or_say(GameKind(Mode.DAILY), confirmed=False)))
        elif item in ("solo", "race", "daily") or item.startswith("versus-"):
            level = item.removeprefix("versus-") if item.startswith("versus-") else None
            self._start_or_say(GameKind(Mode.VERSUS if level else Mode(item), level=level), confirmed=False)
        elif item in ("together", "pad"):
            self.push_screen(NamesScreen(Mode(item)))
        elif item == "challenge-new":
            preset = str(self.rules).split(",")[0]
            self.push_screen(ChallengeCreatedScreen(Challenge.new(preset, rng=self.rng)))
        elif item == "challenge-join":
            self.push_screen(ChallengeJoinScreen())
        elif item == "training":
            self.push_screen(TrainingScreen(self.rules, random.Random(self.rng.getrandbits(64))))
        elif item == "your-games":
            self.your_games()
        elif item == "stats":
            self.push_screen(StatsScreen())
        elif item == "settings":
            self.push_screen(SettingsScreen())
        elif item == "quit":
            self.exit()

    def your_games(self) -> None:
        """Your games: what waits, what is in progress, what is finished (or why the statistics cannot be read)."""
        from sqlalchemy.exc import SQLAlchemyError

        from hotdice.store import Store
        from hotdice.store.your_games import your_games
        from hotdice.tui.screens.yours import YourGamesScreen

        try:
            with Store() as store:
                games = your_games(store, daily_day(self.now))
        except (OSError, SQLAlchemyError) as exc:
            self.notify(self.t("stats.error", error=exc), severity="error")
            return
        self.push_screen(YourGamesScreen(games))

    def resume(self, path: Path) -> None:
        """Play on the saved game at ``path`` (or say why it cannot be)."""
        try:
            self._open(Session.load(path, self.rng, self.prefs.hard_waits))
        except SaveError as exc:
            self.notify(str(exc), severity="error")

    def _start_or_say(self, kind: GameKind, replace: bool = False, confirmed: bool = True) -> None:
        """Start a game (by default one the player has said yes to), or say why it cannot start."""
        error = self.start(kind, replace=replace, confirmed=confirmed)
        if error is not None:
            self.notify(error, severity="error")

    def daily_taken(self, day: date) -> bool:
        """Whether ``day``'s daily already has its official result (False if the statistics cannot be read:
        the attempt is then asked about as an official one)."""
        from sqlalchemy.exc import SQLAlchemyError

        from hotdice.store import Store
        from hotdice.store.stats import daily_taken

        try:
            with Store() as store:
                return daily_taken(store, day)
        except (OSError, SQLAlchemyError):
            return False

    def new_setup(self, kind: GameKind) -> tuple[Setup, tuple[DefaultName | None, ...]]:
        """The mode's setup for ``kind``, with the app's dice, and its seats' default names; ValueError (from
        the modes) if it cannot be."""
        dice = None if self.dice_seed is None else SeededDice(self.dice_seed)
        (name, own), rules = self.own_name(), kind.rules or self.rules
        mode = kind.mode
        defaults: tuple[DefaultName | None, ...] = (own,)
        if mode is Mode.SOLO:
            setup = solo(rules, name, dice=dice)
        elif mode is Mode.RACE:
            setup = race(rules, name, dice=dice)
        elif mode is Mode.VERSUS:
            # A player who chose the computer's name, in either words, leaves it "Computer 2".
            taken = name.casefold() in ("computer", self.t("player.computer").casefold())
            computer = DefaultName("computer", 2 if taken else None)
            setup = versus(rules, name, computer.english(), computer_starts=kind.first == 1, dice=dice)
            defaults = (own, computer)
        elif mode is Mode.TOGETHER:
            setup = together(rules, kind.names, hold_roll_off=kind.roll_off, dice=dice, first=kind.first)
            defaults = kind.defaults
        elif mode is Mode.PAD:
            return pad(rules, kind.names, first=kind.first), kind.defaults
        elif mode is Mode.DAILY:
            return daily(name, now=self.now), defaults
        elif mode is Mode.CHALLENGE:
            assert kind.code is not None
            return challenge(kind.code, name), defaults
        else:
            raise ValueError(f"{mode.value} is not a game")
        if self.dice_seed is not None:
            setup.seed = self.dice_seed  # recorded, so that a resumed game rolls the same dice
        return setup, defaults

    def start(self, kind: GameKind, *, replace: bool = False, confirmed: bool = False) -> str | None:
        """Start a game of ``kind`` at the table; the reason (translated) if it cannot start. A saved game of
        the same kind is never silently lost: the player is asked first (``confirmed``: already asked), and
        the old save goes once they say yes. ``replace``: the form that asked for the game gives way to it."""
        try:
            setup, defaults = self.new_setup(kind)
        except ValueError as exc:
            return self.t.error(exc)
        if kind.level == "hard":
            from hotdice.analysis.solver import refusal

            if (reason := refusal(setup.game.rules)) is not None:
                return self.t("hard.refused", reason=self.t.too_long(reason))
        saved = save_path(kind.slot)
        if not confirmed and saved.exists():
            try:
                what = self.saved_game_label(read_save(saved))
            except SaveError:
                what = None  # a save that cannot be resumed anyway is not worth a question
            if what is not None:
                from hotdice.tui.screens.dialogs import ConfirmScreen

                ask = self.t("saved.replace_ask", what=what)
                self.push_screen(ConfirmScreen(ask, lambda: self._start_or_say(kind, replace)))
                return None
        saved.unlink(missing_ok=True)
        if replace:
            self.pop_screen()
        rng = random.Random(self.rng.getrandbits(64))
        self._open(Session(setup, level=kind.level, rng=rng, waits=self.prefs.hard_waits, defaults=defaults))
        return None

    def _open(self, session: Session) -> None:
        from hotdice.tui.screens.table import TableScreen

        if session.setup.day is not None:
            session.unofficial = self.daily_taken(session.setup.day)
        self.push_screen(TableScreen(session))

    def play_again(self, session: Session) -> None:
        """The result's Enter: the rematch (:attr:`Session.kind`); a daily's next attempt, unofficial; a friend
        challenge's "challenge back", a new code on the same preset."""
        from hotdice.tui.screens.forms import ChallengeCreatedScreen

        self.back_to_menu()
        if session.setup.challenge is not None:
            self.push_screen(ChallengeCreatedScreen(Challenge.new(session.setup.challenge.preset, rng=self.rng)))
        else:
            self._start_or_say(session.kind, confirmed=False)

    def review(self, record: str) -> None:
        """The review of a finished game from its record, replayed (never solved here: :mod:`.screens.review`);
        nothing for a record this version no longer reads."""
        from hotdice.game.record import Record, RecordError, replay
        from hotdice.tui.screens.review import ReviewScreen

        try:
            game = replay(Record.from_json(record))
        except RecordError:
            return
        self.push_screen(ReviewScreen(game))

    def back_to_menu(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    # -- the end of a game ---------------------------------------------------------------------

    def record_finished(self, session: Session) -> None:
        """Record a finished game in the statistics (from the first seat) and clear its save if resumed."""
        from sqlalchemy.exc import SQLAlchemyError

        from hotdice.store import Store
        from hotdice.store.stats import record_game

        if session.saved_at is not None:
            session.saved_at.unlink(missing_ok=True)
        try:
            with Store() as store:
                result = record_game(
                    store,
                    session.game,
                    player=0,
                    mode=session.mode.value,
                    opponent=session.opponent,
                    record_json=json.dumps(session.record().to_json()),
                    day=session.setup.day,
                )
        except (OSError, SQLAlchemyError, ValueError) as exc:
            self.last_record_note = self.t("over.not_recorded", error=exc)
            return
        self.last_record_note = self.t("over.recorded" if result.official else "over.unofficial")
        if result.official and result.day is not None:
            self.last_record_note += "\n\n" + self._daily_share(session, result.day)

    def _daily_share(self, session: Session, day: date) -> str:
        """The share text of the official daily just recorded, as the web gives it but for the rank (the terminal
        has no leaderboard), in its plain form: every terminal shows ASCII."""
        from hotdice.play.daily_share import DailyShare, daily_par, turn_marks
        from hotdice.store import Store
        from hotdice.store.stats import statistics

        with Store() as store:
            streak = statistics(store, owner="", today=daily_day(self.now)).daily_streak
        shared = DailyShare(day.isoformat(), session.game.scores[0], daily_par(day), None, None, streak,
                            turn_marks(session.game))
        return shared.plain(self.t)

    def action_help_quit(self) -> None:
        """Ctrl+C (which Textual does not quit on) says how to quit, in the player's language."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(self.t("quit.how", binding=key), title=self.t("quit.title"))
                return

    async def action_quit(self) -> None:
        """Quit; a game in progress is saved first, to be resumed with ``hotdice play --resume``."""
        from hotdice.tui.screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.save_if_unfinished()
        self.exit()
