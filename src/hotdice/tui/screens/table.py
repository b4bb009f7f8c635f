"""The table: a screen composed of the parts that each show one part of the game's view, and the player's keys.

What it shows comes from the table's view (:class:`hotdice.play.view.TableView`, the web's too), shown by its
parts (:mod:`hotdice.tui.panels`, the log :mod:`hotdice.tui.log`); the computer's turns are played by its driver
(:mod:`hotdice.tui.computer`) and the solve of Hard's table is followed by its watcher
(:mod:`hotdice.tui.solver_watch`). The screen only keeps what it shows: which dice are picked, the cursor, the
moment, the coach's words, and how far it has told the game's events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from hotdice.game.engine import (
    BANK,
    ROLL,
    BankAction,
    Decision,
    EventKind,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    RollAction,
)
from hotdice.game.scoring import DiceError, SetAside, parse_dice
from hotdice.play.modes import Mode, shown_rules
from hotdice.play.view import Entry, TableView
from hotdice.tui import panels
from hotdice.tui.computer import ComputerDriver
from hotdice.tui.log import GameLog, event_line
from hotdice.tui.screens.base import HotDiceScreen
from hotdice.tui.session import Session
from hotdice.tui.solver_watch import SolverWatch

__all__ = ["TableScreen"]

_FULL_SIZE = (80, 24)  # the table is laid out for this terminal size and up
_LEAST_SIZE = (40, 15)  # and in compact form (dice as [5]) down to this one


class TableScreen(HotDiceScreen):
    """One game at the table, until it ends (then the results) or the player leaves (then it is saved)."""

    AUTO_FOCUS = None  # keys go to the table; only the score pad's dice input takes focus, when shown
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 7)),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "space", show=False),
        Binding("r", "roll", show=False),
        Binding("b", "bank", show=False),
        Binding("a", "best", show=False),
        Binding("h", "hint", show=False),
        Binding("pageup", "coach_scroll(-1)", show=False),
        Binding("pagedown", "coach_scroll(1)", show=False),
        Binding("ctrl+z", "undo", show=False),  # the score pad; ctrl+z reaches the table while typing dice
        Binding("question_mark", "scoring", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "leave", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.picked: set[int] = set()
        self.cursor = 0
        self.told = 0  # events already written to the log
        self.moment: tuple[str, str] = ("", "")  # (text, class)
        self.message = ""
        self.driver: ComputerDriver | None = None  # made once mounted: it plays at the app's pace
        self.solver = SolverWatch(session.level)
        self.finished = False
        self.leaving = False
        self.compact = False  # the terminal is smaller than the table's full layout

    def compose(self) -> ComposeResult:
        yield panels.TitleBar(id="table-title")
        with Horizontal(id="table-body"):
            yield panels.ScoresPanel(id="scores")
            with Vertical(id="play"):
                yield panels.MomentLine(id="moment")
                yield panels.DicePanel(id="dice")
                yield panels.StatusPanel(id="status")
                yield Static(id="solver")
                yield Static(id="message")
                yield panels.PadInput(id="pad-input", disabled=True)
                with panels.CoachList(id="advice"):
                    yield Static(id="advice-text")
        yield GameLog(id="log", wrap=True, markup=False, max_lines=500)
        yield Static(id="too-small")
        yield panels.KeysLine(id="keys")

    def on_mount(self) -> None:
        self.driver = ComputerDriver(self, self.hotdice.pace)
        self.query_one("#pad-input", Input).display = False
        self.query_one("#advice", panels.CoachList).display = False
        self.query_one("#solver", Static).display = False
        off = self.session.setup.roll_off
        if off is not None:
            self.query_one(GameLog).roll_off(self.hotdice.t, self.hotdice.names(self.session), off)
        if self.session.resumed:
            # The saved game's past goes to the log; its last moment is old news, so the headline starts fresh.
            self.tell(self.view(since=0).events)
            self.told = len(self.session.game.events)
            self.moment = ("", "")
        if self.hotdice.warm:
            self.solver.warm_up(self.session.game)
            self.watch_solver()
        self.set_interval(0.25, self.watch_solver)
        self.sync()

    # -- reading the engine --------------------------------------------------------------------

    @property
    def computer_running(self) -> bool:
        return self.driver is not None and self.driver.running

    def human_to_act(self) -> bool:
        game = self.session.game
        return isinstance(game.to_act, int) and not self.session.computer_to_act() and not self.computer_running

    def view(self, since: int | None = None) -> TableView:
        """The table's view of the game now, with its events from number ``since`` on (default: none)."""
        game = self.session.game
        return TableView.of(game, since=len(game.events) if since is None else since)

    def selection(self) -> SetAside | None:
        roll = self.session.game.roll
        if roll is None or not self.picked:
            return None
        return SetAside(*(roll[i] for i in sorted(self.picked) if i < len(roll)))

    # -- drawing -------------------------------------------------------------------------------

    def sync(self) -> None:
        """Show the engine's state: new events to the log and the moment, then every part."""
        game = self.session.game
        self.tell(self.view(since=self.told).events)
        self.told = len(game.events)
        if game.phase is not Phase.SET_ASIDE:
            self.picked.clear()
        self.draw()
        if game.outcome is not None and not self.finished:
            self.finish()
        elif self.session.computer_to_act() and not self.leaving and self.driver is not None and self.driver.begin():
            self.run_worker(self.driver.play, thread=True, exclusive=True, group="computer")

    def tell(self, events: Sequence[Entry]) -> None:
        """The events to the log (each line its catalogue key and values, the view's: the web words the same), and
        the batch's weightiest moment above the dice."""
        names = self.hotdice.names(self.session)
        passing = self.session.mode in (Mode.TOGETHER, Mode.PAD) and len(names) > 1
        moment = self.query_one(GameLog).tell(self.hotdice.t, names, events, passing)
        if any(event.kind is EventKind.ROLL for event in events):
            self.picked.clear()
            self.query_one(panels.CoachList).advice = None
        if moment is not None:
            self.moment = moment
        elif events:
            self.moment = ("", "")

    def on_resize(self) -> None:
        self.draw()

    def fit(self) -> None:
        """Below the size the table is laid out for, the compact table (dice as ``[5]``, a narrower scoreboard,
        a shorter log); below the compact one's least size, say so plainly instead of showing a garbled table."""
        (width, height), (least_width, least_height) = self.app.size, _LEAST_SIZE
        small = width < least_width or height < least_height
        self.compact = not small and (width < _FULL_SIZE[0] or height < _FULL_SIZE[1])
        self.set_class(self.compact, "-compact")
        self.query_one(panels.DicePanel).compact = self.compact
        for part in self.query("#table-title, #table-body"):
            part.display = not small
        coaching = self.query_one(panels.CoachList).advice is not None
        self.query_one(GameLog).display = not small and not (self.compact and coaching)  # room
        notice = self.query_one("#too-small", Static)
        notice.display = small
        if small:
            notice.update(self.hotdice.t("table.too_small", width=least_width, height=least_height,
                                         now_width=width, now_height=height))

    def draw(self) -> None:
        """Every part, from the view of the game now."""
        t = self.hotdice.t
        game = self.session.game
        view = self.view()
        names = self.hotdice.names(self.session)
        self.fit()
        title = self.hotdice.mode_title(self.session.setup, self.session.level, self.session.unofficial)
        self.query_one(panels.TitleBar).show(t, title, shown_rules(game.rules), view, self.size.width)
        self.query_one(panels.ScoresPanel).show(t, view, names)
        self.query_one(panels.MomentLine).show(*(self.moment if self.moment[0] else self._whose_turn()))
        human = self.human_to_act() and game.phase is Phase.SET_ASIDE
        self.query_one(panels.DicePanel).show(view, self.picked, self.cursor if human else -1)
        playing = not (self.session.computer_to_act() or self.computer_running)
        self.query_one(panels.StatusPanel).show(t, view, self.selection(), playing, self.session.mode is Mode.PAD)
        solver = self.query_one("#solver", Static)
        line = self.solver.line(t, game, self.session.waits)
        solver.display = line is not None
        if line is not None:
            solver.update(line)
        self.say(self.message)
        waiting_for_dice = game.phase is Phase.CHANCE and self.session.mode is Mode.PAD
        self.query_one(panels.PadInput).show(t, game.dice_in_hand if waiting_for_dice else None)
        self.query_one(panels.CoachList).show()
        self.query_one(panels.KeysLine).show(t, self._keys(), game.rules.dice)

    def _keys(self) -> str:
        """Which keys the player has now (:class:`hotdice.tui.panels.KeysLine`)."""
        if self.session.game.outcome is not None:
            return panels.KeysLine.over(self.session.mode)
        if self.session.computer_to_act() or self.computer_running:
            return "computer"
        if self.session.mode is Mode.PAD:
            return "pad"
        return "compact" if self.app.size.width < _FULL_SIZE[0] else "table"

    def _whose_turn(self) -> tuple[str, str]:
        t = self.hotdice.t
        game = self.session.game
        if game.outcome is not None:
            over = self.view(since=len(game.events) - 1).events[-1]  # the game-over event
            return event_line(t, self.hotdice.names(self.session), over), "winner"
        name = self.hotdice.names(self.session)[game.current]
        if self.driver is not None and self.driver.thinking:
            return t("table.computer_thinking", name=name), "computer"
        if self.session.computer_to_act() or self.computer_running:
            return t("table.computer_turn", name=name), "computer"
        if self.session.mode in (Mode.TOGETHER, Mode.PAD):
            return t("table.turn_of", name=name), "turn"
        return t("table.your_turn"), "turn"

    def say(self, message: str) -> None:
        """Show a message under the status (a refusal, a typing mistake); the layout moves only if it changes."""
        shown = self.query_one("#message", Static)
        if message != self.message or str(shown.content) != message:
            shown.update(message)
        self.message = message

    # -- the player's keys ----------------------------------------------------------------------

    def action_pick(self, index: int) -> None:
        game = self.session.game
        if not self.human_to_act() or game.phase is not Phase.SET_ASIDE or game.roll is None:
            return
        if index >= len(game.roll):
            return
        self.picked ^= {index}
        self.cursor = index
        self.message = ""
        self.draw()

    def action_cursor(self, step: int) -> None:
        game = self.session.game
        if not self.human_to_act() or game.roll is None:
            return
        self.cursor = (self.cursor + step) % len(game.roll)
        self.draw()

    def action_space(self) -> None:
        if self.computer_running and self.driver is not None:
            self.driver.hurry()
            return
        self.action_pick(self.cursor)

    def action_roll(self) -> None:
        self.act(ROLL)

    def action_bank(self) -> None:
        self.act(BANK)

    def action_best(self) -> None:
        """Set aside the roll's best-points set-aside (the view's ``best``); the roll or the bank follows."""
        best = self.view().best
        if not self.human_to_act() or best is None:
            return
        self.message = ""
        self.session.game.apply(SetAside.parse(best))
        self.picked.clear()
        self.sync()

    def act(self, then: RollAction | BankAction) -> None:
        """Set the picked dice aside if a roll is on the table, then roll or bank: one decision, which the
        engine applies whole or refuses."""
        game = self.session.game
        if not self.human_to_act():
            return
        self.message = ""
        set_aside = None
        if game.phase is Phase.SET_ASIDE:
            set_aside = self.selection()
            if set_aside is None:
                self.say(self.hotdice.t("table.pick_first", n=len(game.roll or ())))
                return
        try:
            if self.session.setup.dice is None:  # the score pad: the table rolls, the player types the dice
                game.apply_decision(Decision(set_aside, then))
            else:
                self.session.setup.play(Decision(set_aside, then))
        except IllegalMoveError as exc:
            self.say(self.why(exc))
        else:
            self.picked.clear()
        self.sync()

    @on(Input.Submitted, "#pad-input")
    def typed_roll(self, event: Input.Submitted) -> None:
        game = self.session.game
        try:
            game.apply_roll(parse_dice(event.value, game.rules.dice))
        except (DiceError, InvalidMoveError, IllegalMoveError) as exc:
            self.say(self.why(exc))
            return
        self.message = ""
        self.sync()

    def action_undo(self) -> None:
        """The score pad: take back the last typed roll or decision (the engine replays the game without it)."""
        game = self.session.game
        if self.session.mode is not Mode.PAD or not game.history:
            return
        self.session.setup.game = game.undone()
        self.told = len(self.session.game.events)
        self.picked.clear()
        self.moment = ("", "")
        self.query_one(GameLog).write(self.hotdice.t("log.undone"))
        self.say("")
        self.sync()

    def action_hint(self) -> None:
        if not self.human_to_act():
            return
        self.query_one(panels.CoachList).ask(self.hotdice.t, self.session.game.clone())
        self.draw()

    def action_coach_scroll(self, pages: int) -> None:
        coach = self.query_one(panels.CoachList)
        (coach.scroll_page_down if pages > 0 else coach.scroll_page_up)(animate=False)

    def on_coach_list_answered(self, answered: panels.CoachList.Answered) -> None:
        """The coach's hint, shown unless the game moved on meanwhile."""
        if answered.hint.n != len(self.session.game.history) or self.leaving:
            return
        self.query_one(panels.CoachList).advice = panels.hint_text(self.hotdice.t, answered.hint)
        self.draw()

    def watch_solver(self) -> None:
        """Every quarter second: how far the solve of Hard's table is, shown until it is ready."""
        if self.solver.poll(self.session.game):
            self.draw()

    def why(self, exc: Exception) -> str:
        """An error worded at this table: a seat it names (:class:`hotdice.game.refusals.Refusal`) by the name
        the table shows."""
        names = self.hotdice.names(self.session)
        return self.hotdice.t.error(exc, lambda seat, name: names[seat] if 0 <= seat < len(names) else name)

    def action_scoring(self) -> None:
        from hotdice.tui.screens.dialogs import ScoringScreen

        self.app.push_screen(ScoringScreen(self.session.game.rules, self.session.game.turn_limit))

    def action_leave(self) -> None:
        """Back to the menu; an unfinished game is saved first."""
        if self.save_if_unfinished():
            self.app.notify(self.hotdice.t("table.saved"))
        self.leaving = True
        if self.driver is not None:
            self.driver.hurry()
        self.app.pop_screen()

    def save_if_unfinished(self) -> bool:
        if self.session.game.outcome is not None or self.leaving:
            return False
        self.session.save()
        return True

    # -- the end ----------------------------------------------------------------------------------

    def finish(self) -> None:
        from hotdice.tui.screens.dialogs import GameOverScreen

        self.finished = True
        self.hotdice.record_finished(self.session)
        self.app.push_screen(GameOverScreen(self.session, self.hotdice.last_record_note))
