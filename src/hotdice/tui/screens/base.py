"""What every screen of the game shares: the running app, with its own type (translations, settings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from hotdice.tui.app import HotDiceApp

__all__ = ["HotDiceModal", "HotDiceScreen"]


class HotDiceScreen(Screen[None]):
    @property
    def hotdice(self) -> HotDiceApp:
        from hotdice.tui.app import HotDiceApp  # the app imports the screens: imported when asked

        assert isinstance(self.app, HotDiceApp)
        return self.app


class HotDiceModal(HotDiceScreen, ModalScreen[None]):
    """A screen shown over another (the scoring table, the end of a game)."""
