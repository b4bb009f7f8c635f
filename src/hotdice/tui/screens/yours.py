"""Your games (issue 25): what waits for the player (today's daily), what is in progress (the saved games) and
the latest finished games, from :func:`hotdice.store.your_games.your_games`. A list with nothing in it is left
out. A letter plays or resumes a game, a digit opens a finished game's review (as on the statistics), and Enter
does what the highlighted row's key does. Laid out for 80×24: three headings, the daily, eight games in progress
(the latest; the menu lists them all) and nine finished."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from hotdice.store.your_games import HISTORY
from hotdice.tui.screens.base import HotDiceScreen

if TYPE_CHECKING:
    from hotdice.store.your_games import FinishedGame, YourGames

__all__ = ["LETTERS", "YourGamesScreen"]

LETTERS = "abcdefghi"  # today's daily, then the games in progress
IN_PROGRESS = len(LETTERS) - 1


class YourGamesScreen(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("q", "back", show=False),
        *(Binding(key, f"do('{key}')", show=False) for key in LETTERS),
        *(Binding(str(n), f"do('{n}')", show=False) for n in range(1, HISTORY + 1)),
    ]

    def __init__(self, games: YourGames) -> None:
        super().__init__()
        self.games = games

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        yield Static(Text(t("yours.title"), style="bold"), id="yours-title")
        yield OptionList(*self._rows(), id="yours-list")
        yield Static(t("yours.keys"), id="keys")

    def _rows(self) -> list[Option]:
        """The rows, each led by its key: a heading per list that has something, then its games."""
        app = self.hotdice
        t = app.t
        rows: list[Option] = []
        letters = iter(LETTERS)

        def heading(key: str) -> None:
            rows.append(Option(Text(t(key), style="bold"), disabled=True))

        if self.games.daily is not None:
            heading("yours.waiting")
            key = next(letters)
            rows.append(Option(f"{key}  {t('yours.daily')}", id=key))
        if self.games.in_progress:
            heading("yours.in_progress")
            for saved in self.games.in_progress[:IN_PROGRESS]:
                key = next(letters)
                rows.append(Option(f"{key}  {app.saved_game_label(saved)}", id=key))
        if self.games.finished:
            heading("yours.finished")
            finished = self.games.finished
            days = [t.date(g.day) for g in finished]
            modes = [self._mode(g) for g in finished]
            scores = [t.number(g.score) for g in finished]
            day_wide, mode_wide, score_wide = (max(map(len, column)) for column in (days, modes, scores))
            for n, (game, day, mode, score) in enumerate(zip(finished, days, modes, scores, strict=True), start=1):
                result = "" if game.won is None else "  " + t("yours.won" if game.won else "yours.lost")
                line = f"{n}  {day:<{day_wide}}  {mode:<{mode_wide}}  {score:>{score_wide}}{result}"
                rows.append(Option(line, id=str(n)))
        return rows

    def _mode(self, game: FinishedGame) -> str:
        """The mode of a finished game as the table's title says it, the computer's level too."""
        t = self.hotdice.t
        if game.level is not None:
            return t("mode.versus", level=t(f"level.{game.level}"))
        return t(f"modename.{game.mode}") if t.has(f"modename.{game.mode}") else game.mode

    def on_mount(self) -> None:
        options = self.query_one("#yours-list", OptionList)
        options.highlighted = next((i for i, o in enumerate(options.options) if not o.disabled), None)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.action_do(event.option.id)

    def action_do(self, key: str) -> None:
        """What ``key`` opens: the daily, a game in progress (resumed) or a finished game's review."""
        app = self.hotdice
        if key.isdigit():
            index = int(key) - 1
            if index < len(self.games.finished):
                app.review(self.games.finished[index].record)
            return
        index = LETTERS.index(key) - (self.games.daily is not None)
        if index < 0:
            app.pop_screen()
            app.choose("daily")
        elif index < min(len(self.games.in_progress), IN_PROGRESS):
            app.pop_screen()
            app.resume(self.games.in_progress[index].path)

    def action_back(self) -> None:
        self.app.pop_screen()
