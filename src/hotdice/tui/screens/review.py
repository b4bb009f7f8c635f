"""The review of the game just played (R on the result screen): the same object as ``hotdice review`` and the web's
review page (:func:`hotdice.analysis.game_review.game_review`), worded by :func:`hotdice.i18n.review.review_lines`:
the chart in the cells, the labelled decisions and the summary. It scrolls; Esc or q goes back to the result."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from hotdice.analysis.coach import measure_now
from hotdice.analysis.game_review import game_review
from hotdice.i18n.review import review_lines
from hotdice.tui.screens.base import HotDiceModal
from hotdice.tui.session import Session

__all__ = ["ReviewScreen"]


class ReviewScreen(HotDiceModal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        t = self.hotdice.t
        game = self.session.game
        # Never solved here: without the table at hand, the review is in expected points (as Hard plays meanwhile).
        review = game_review(game, measure_now(game.root())[0])
        width = max(self.app.size.width - 4, 20)
        with VerticalScroll(id="review-box"):
            yield Static("\n".join(review_lines(t, review, width=width)), id="review-text", markup=False)
            yield Static(t("review.keys"), classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss()
