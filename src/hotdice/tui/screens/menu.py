"""The menu: every mode, the saved games to resume, your games, training, statistics and settings."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from hotdice.store.saves import resumable
from hotdice.tui.screens.base import HotDiceScreen
from hotdice.tui.session import LEVELS

__all__ = ["MENU_ITEMS", "MenuScreen"]

# The items in order; "resume" stands for one item per saved game that can be resumed (none if none can).
MENU_ITEMS = (
    "resume",
    "solo",
    "race",
    *(f"versus-{level}" for level in LEVELS),
    "together",
    "daily",
    "challenge-new",
    "challenge-join",
    "pad",
    "your-games",
    "training",
    "stats",
    "settings",
    "quit",
)


class MenuScreen(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", show=False),
        Binding("escape", "app.quit", show=False),
        Binding("question_mark,f1", "how_to_play", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="menu-title")
        yield OptionList(id="menu-options")
        yield Static(id="menu-rules")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.relabel()

    def on_screen_resume(self) -> None:
        self.relabel()

    def relabel(self) -> None:
        """Write the menu in the current language, with the rules in force and the saved game, if any."""
        app = self.hotdice
        t = app.t
        title = Text(t("app.title"), style="bold")
        title.append("  " + t("app.subtitle"), style="italic")
        self.query_one("#menu-title", Static).update(title)
        self.query_one("#menu-rules", Static).update(t("menu.rules", rules=str(app.rules)))
        self.query_one("#keys", Static).update(t("menu.keys"))
        saved = resumable()
        options = self.query_one("#menu-options", OptionList)
        highlighted = options.highlighted_option.id if options.highlighted_option is not None else None
        options.clear_options()
        for item in MENU_ITEMS:
            if item == "resume":
                for game in saved:
                    what = app.saved_game_label(game)
                    options.add_option(Option(t("menu.resume", what=what), id=f"resume:{game.path.name}"))
                continue
            if item.startswith("versus-"):
                label = t("menu.versus", level=t(f"level.{item.removeprefix('versus-')}"))
            elif item == "race":
                label = t("menu.race", target=t.number(app.rules.target))
            else:
                label = t(f"menu.{item.replace('-', '_')}")
            options.add_option(Option(label, id=item))
        ids = [o.id for o in options.options]
        options.highlighted = ids.index(highlighted) if highlighted in ids else 0
        options.focus()

    def action_how_to_play(self) -> None:
        from hotdice.tui.screens.dialogs import HowToPlayScreen

        self.app.push_screen(HowToPlayScreen(self.hotdice.rules))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.hotdice.choose(event.option.id)
