"""What a mode asks before it starts: the players' names (play together, score pad) and challenge codes."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Checkbox, Input, Static

from hotdice.play.modes import Challenge, Mode
from hotdice.tui.screens.base import HotDiceScreen
from hotdice.tui.session import GameKind

__all__ = ["ChallengeCreatedScreen", "ChallengeJoinScreen", "NamesScreen", "TickBox"]


class _Form(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", show=False)]

    def action_back(self) -> None:
        self.app.pop_screen()

    def error(self, message: str) -> None:
        """Show why the form is refused (already in the player's language)."""
        self.query_one("#form-error", Static).update(Text(message, style="bold"))


class TickBox(Checkbox):
    """A checkbox that reads as off or on by its text alone, ``[ ]`` or ``[x]`` (not by colour: NO_COLOR)."""

    BUTTON_LEFT = "["
    BUTTON_INNER = " "
    BUTTON_RIGHT = "]"

    def watch_value(self) -> None:
        self.BUTTON_INNER = "x" if self.value else " "
        super().watch_value()


class NamesScreen(_Form):
    """Names of the players, in the order of play; for play together, whether to roll for who starts (F2
    ticks it while the names keep the focus, and the key line says so)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("f2", "roll_off", show=False),
    ]

    def __init__(self, mode: Mode) -> None:
        super().__init__()
        self.mode = mode

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        title = "names.title_together" if self.mode is Mode.TOGETHER else "names.title_pad"
        with Vertical(classes="form"):
            yield Static(Text(t(title), style="bold"))
            yield Static(t("names.prompt"))
            yield Input(f"{self.hotdice.player_name()}, {t('names.default_other', n=2)}", id="names")
            if self.mode is Mode.TOGETHER:
                yield TickBox(t("names.roll_off"), id="roll-off")
            yield Static(id="form-error")
            yield Static(t("names.keys_roll_off" if self.mode is Mode.TOGETHER else "names.keys"),
                         classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#names", Input).focus()

    def action_roll_off(self) -> None:
        if self.mode is Mode.TOGETHER:
            self.query_one("#roll-off", Checkbox).toggle()

    @on(Input.Submitted, "#names")
    def start(self, event: Input.Submitted) -> None:
        names, defaults = self.hotdice.typed_names(tuple(n.strip() for n in event.value.split(",")))
        roll_off = self.mode is Mode.TOGETHER and self.query_one("#roll-off", Checkbox).value
        kind = GameKind(self.mode, names=names, roll_off=roll_off, defaults=defaults)
        error = self.hotdice.start(kind, replace=True)
        if error is not None:
            self.error(error)


class ChallengeCreatedScreen(_Form):
    """A new friend challenge: its code to send, then Enter to play it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("enter", "play", show=False),
    ]

    def __init__(self, found: Challenge) -> None:
        super().__init__()
        self.challenge = found

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        with Vertical(classes="form"):
            yield Static(Text(t("challenge.created_title"), style="bold"))
            yield Static(Text(self.challenge.code, style="bold reverse"), id="challenge-code")
            yield Static(t("challenge.created_body", preset=self.challenge.preset))
            yield Static(id="form-error")
            yield Static(t("challenge.keys"), classes="dialog-keys")

    def action_play(self) -> None:
        error = self.hotdice.start(GameKind(Mode.CHALLENGE, code=self.challenge.code), replace=True)
        if error is not None:
            self.error(error)


class ChallengeJoinScreen(_Form):
    """Type the code a friend sent; a typo is refused with the reason."""

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        with Vertical(classes="form"):
            yield Static(Text(t("challenge.join_title"), style="bold"))
            yield Static(t("challenge.join_prompt"))
            yield Input(id="code", placeholder="XXXXX-XXXXX")
            yield Static(id="form-error")
            yield Static(t("challenge.keys"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#code", Input).focus()

    @on(Input.Submitted, "#code")
    def join(self, event: Input.Submitted) -> None:
        try:
            code = Challenge.parse(event.value).code
        except ValueError as exc:
            self.error(self.hotdice.t.error(exc))
            return
        error = self.hotdice.start(GameKind(Mode.CHALLENGE, code=code), replace=True)
        if error is not None:
            self.error(error)
