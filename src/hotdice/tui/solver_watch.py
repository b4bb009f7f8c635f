"""The solver's watcher at the terminal's table: how far the background solve of Hard's table is, asked every
quarter second until it is ready, and its line in the table's words (the coach's hint says the same of its own)."""

from __future__ import annotations

from hotdice.analysis.coach import measure_now
from hotdice.analysis.solver.background import SOLVER, Status
from hotdice.game.engine import Game
from hotdice.i18n import Translator

__all__ = ["SolverWatch", "solver_line"]


def solver_line(t: Translator, status: Status, key: str, waiting_key: str = "table.hard_waiting") -> str:
    """How far a solve is (``key``), or why its table will not come (``waiting_key``)."""
    if status.state in ("queued", "solving"):
        return t(key, percent=t.percent(status.progress))
    return t(waiting_key, reason=t.unsolved(status))


class SolverWatch:
    """The background solve of the table a Hard computer plays from (``level``), until it is ready."""

    def __init__(self, level: str | None) -> None:
        self.level = level
        self.status: Status | None = None

    @staticmethod
    def warm_up(game: Game) -> None:
        """Ask the background solver for what the coach and the Hard player will need, as the game opens."""
        if isinstance(game.to_act, int):
            measure_now(game)

    def poll(self, game: Game) -> bool:
        """Ask how far the solve is; True if that changed (the table's line is to be drawn again)."""
        if self.level != "hard" or (self.status is not None and self.status.ready):
            return False
        status = SOLVER.status("two", game.rules)
        changed = status != self.status
        self.status = status
        return changed

    def line(self, t: Translator, game: Game, waits: bool) -> str | None:
        """The table's line while the solve is under way (None: nothing to say); ``waits``: the computer holds
        its move for the table (the player chose so), unless the solve failed (then it plays expected points)."""
        status = self.status
        if status is None or status.ready or game.outcome is not None:
            return None
        if waits and status.state != "failed":
            return solver_line(t, status, "table.hard_working_wait", "table.hard_waiting_wait")
        return solver_line(t, status, "table.hard_working")
