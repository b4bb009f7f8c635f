"""The review of a finished game (R on the result screen, or a number key on the statistics' list of games): the
same object as ``hotdice review`` and the web's review page (:func:`hotdice.analysis.game_review.game_review`),
worded by :func:`hotdice.i18n.review.review_lines`: the chart in the cells, the labelled decisions and the summary.
It scrolls; Esc or q goes back.

Nothing is solved here: where the game's measure needs a table the background solver is still working out (rules
without a shipped table), the screen says the review is being prepared and how far the solve is, asks again every
half second, and fills in once the table is ready (the web's review page does the same on its 409)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from hotdice.analysis.coach import measure_now
from hotdice.analysis.game_review import game_review
from hotdice.game.engine import Game
from hotdice.i18n.review import review_lines
from hotdice.tui.screens.base import HotDiceModal
from hotdice.tui.solver_watch import solver_line

__all__ = ["ReviewScreen"]

POLL = 0.5  # seconds between two looks at the background solve while the review is being prepared


class ReviewScreen(HotDiceModal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.ready = False
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-box"):
            yield Static(id="review-text", markup=False)
            yield Static(self.hotdice.t("review.keys"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.fill()
        if not self.ready:
            self.timer = self.set_interval(POLL, self.fill)

    def fill(self) -> None:
        """The review if the table its measure needs is at hand (or will not come: then in expected points, as
        Hard plays meanwhile), else how far its background solve is."""
        t = self.hotdice.t
        game = self.game
        measure, status = measure_now(game.root())
        text = self.query_one("#review-text", Static)
        if status is not None and status.state in ("queued", "solving"):
            text.update(solver_line(t, status, "review.preparing"))
            return
        review = game_review(game, measure)
        width = max(self.app.size.width - 4, 20)
        text.update("\n".join(review_lines(t, review, width=width)))
        self.ready = True
        if self.timer is not None:
            self.timer.stop()

    def action_close(self) -> None:
        self.dismiss()
