"""The computer's turns at the terminal's table: one action at a time at the app's pace, in a thread, so that the
table keeps drawing (space skips the waiting). Its move comes from the play layer (:func:`hotdice.play.players.choose`:
a decision its solver cannot make is the plain player's), as on the web."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from textual.app import App
from textual.worker import Worker, get_current_worker

from hotdice.game.engine import Action
from hotdice.game.scoring import SetAside
from hotdice.play.players import choose
from hotdice.play.players.skilled import pending
from hotdice.tui.session import Session

__all__ = ["ComputerDriver", "Table"]


class Table(Protocol):
    """The table the driver plays at (:class:`hotdice.tui.screens.table.TableScreen`): its game, what it shows of
    the computer's step, and whether it is being left."""

    session: Session
    leaving: bool
    moment: tuple[str, str]
    picked: set[int]
    cursor: int

    @property
    def app(self) -> App[object]: ...

    def draw(self) -> None: ...

    def sync(self) -> None: ...


class ComputerDriver:
    """Plays the computer's seat of ``table`` whenever it is to act, at ``pace`` seconds a step, and has the table
    show each step (on the app's thread): the dice it picks, then what it does."""

    def __init__(self, table: Table, pace: float) -> None:
        self.table = table
        self.pace = pace
        self.running = False
        self.thinking = False  # the computer is choosing
        self.skip = threading.Event()

    def begin(self) -> bool:
        """Set out to play the computer's turn: False if it is already being played; else :meth:`play` is to run
        in a thread worker."""
        if self.running:
            return False
        self.running = True
        self.skip.clear()
        return True

    def hurry(self) -> None:
        """Skip the waiting between the steps (and stop waiting once the table is left)."""
        self.skip.set()

    def play(self) -> None:
        """The computer's turn, one action at a time (in a thread worker)."""
        worker = get_current_worker()
        table = self.table
        session, call = table.session, table.app.call_from_thread
        computer = session.computer
        assert computer is not None
        first = True
        while not worker.is_cancelled and not table.leaving and session.computer_to_act():
            self.skip.wait(2 * self.pace if first else self.pace)  # first, time to see how the player's turn ended
            first = False
            if worker.is_cancelled or table.leaving:
                break
            call(self._thinking, True)
            if not self._wait_for_table(worker):
                break
            action = choose(computer, session.game)
            call(self._thinking, False)
            if isinstance(action, SetAside):
                call(self._picks, _dice_of(session.game.roll or (), action))
                self.skip.wait(self.pace / 2)
            call(self._acts, action)
        call(self._done)

    def _wait_for_table(self, worker: Worker[None]) -> bool:
        """Hold the computer's move while its Hard waits for its exact table (the player chose so), solved by the
        background solver; the table's line tells how far it is. False if the game is left meanwhile."""
        session = self.table.session
        if pending(session.computer, session.game) is None:
            return True
        self.table.app.call_from_thread(self._waits)
        while pending(session.computer, session.game) is not None:
            if worker.is_cancelled or self.table.leaving:
                return False
            time.sleep(0.1)
        return True

    def _thinking(self, thinking: bool) -> None:
        self.thinking = thinking
        self.table.draw()

    def _waits(self) -> None:
        """The wait may be long: the moment of the player's turn gives way to "... is thinking"."""
        self.table.moment = ("", "")
        self.table.draw()

    def _picks(self, dice: set[int]) -> None:
        """The dice it sets aside, shown picked before it acts."""
        self.table.picked = dice
        self.table.draw()

    def _acts(self, action: Action) -> None:
        if not self.table.leaving:
            self.table.session.setup.play(action)
            self.table.sync()

    def _done(self) -> None:
        self.running = False
        if not self.table.leaving:
            self.table.cursor = 0
            self.table.sync()


def _dice_of(roll: tuple[int, ...], set_aside: SetAside) -> set[int]:
    """Which dice of ``roll`` (their places) are ``set_aside``'s faces."""
    left, places = list(set_aside), set()
    for i, face in enumerate(roll):
        if face in left:
            left.remove(face)
            places.add(i)
    return places
