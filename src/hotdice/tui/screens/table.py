"""The table: the dice, the scores, what the current selection is worth, and the game's moments.

What it shows comes from the table's view (:class:`hotdice.play.view.TableView`, the web's too): the set-asides
on offer with their points, risk and bank, why other dice are refused, whether a bank is allowed, the roll that
farkled, the log's events. The screen only keeps what it shows: which dice are picked, the cursor, and how far
it has told the game's events.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, RichLog, Static
from textual.worker import Worker, get_current_worker

from hotdice.analysis.coach import measure_now
from hotdice.analysis.solver.background import SOLVER, Status
from hotdice.game.engine import (
    BANK,
    ROLL,
    Action,
    BankAction,
    Decision,
    EventKind,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Phase,
    RollAction,
)
from hotdice.game.refusals import Code, Refusal
from hotdice.game.scoring import DiceError, SetAside, parse_dice
from hotdice.play.hint import Hint, hint_of
from hotdice.play.modes import Mode, shown_rules
from hotdice.play.players import choose
from hotdice.play.players.skilled import pending
from hotdice.play.view import Entry, TableView
from hotdice.tui.log import GameLog, event_line
from hotdice.tui.screens.base import HotDiceScreen
from hotdice.tui.session import Session
from hotdice.tui.widgets import DiceRow, Scoreboard, ScoreLine

__all__ = ["TableScreen"]

# Which of a batch of events is the moment shown above the dice (highest first).
_STATUS_WIDTH = 50  # the status lines' room at 80 columns
_FULL_SIZE = (80, 24)  # the table is laid out for this terminal size and up
_LEAST_SIZE = (40, 15)  # and in compact form (dice as [5]) down to this one
_MOMENT_RANK = {
    EventKind.GAME_OVER: 9,
    EventKind.PENALTY: 8,
    EventKind.BUST: 7,
    EventKind.FARKLE: 6,
    EventKind.LAST_ROUND: 5,
    EventKind.ENTRY_MISSED: 4,
    EventKind.HOT_DICE: 4,
    EventKind.BANK: 3,
}
_MOMENT_CLASS = {
    EventKind.GAME_OVER: "winner",
    EventKind.PENALTY: "farkle",
    EventKind.BUST: "farkle",
    EventKind.FARKLE: "farkle",
    EventKind.LAST_ROUND: "last-round",
    EventKind.ENTRY_MISSED: "farkle",
    EventKind.HOT_DICE: "hot-dice",
    EventKind.BANK: "bank",
}


class CoachList(VerticalScroll, can_focus=False):
    """The coach's choices, best first: every one of them, scrolled with PgUp/PgDn when they do not fit."""


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
        self.advice: Text | None = None
        self.computer_running = False
        self.thinking = False  # the computer is choosing
        self.skip = threading.Event()
        self.hard_status: Status | None = None  # the background solve of Hard's table, until it is ready
        self.finished = False
        self.leaving = False
        self.compact = False  # the terminal is smaller than the table's full layout

    def compose(self) -> ComposeResult:
        yield Static(id="table-title")
        with Horizontal(id="table-body"):
            yield Scoreboard(id="scores")
            with Vertical(id="play"):
                yield Static(id="moment")
                yield DiceRow(id="dice")
                yield Static(id="status")
                yield Static(id="solver")
                yield Static(id="message")
                yield Input(id="pad-input", disabled=True)
                with CoachList(id="advice"):
                    yield Static(id="advice-text")
        yield GameLog(id="log", wrap=True, markup=False, max_lines=500)
        yield Static(id="too-small")
        yield Static(id="keys")

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        self.query_one("#pad-input", Input).display = False
        self.query_one("#advice", CoachList).display = False
        self.query_one("#solver", Static).display = False
        t = self.hotdice.t
        off = self.session.setup.roll_off
        if off is not None:
            players = self.hotdice.names(self.session)
            for number, rolled in enumerate(off.rounds):
                rolls = ", ".join(f"{players[p]} {d}" for p, d in rolled)
                log.write(t("roll_off.line", rolls=rolls) if number == 0 else f"  {rolls}")
            log.write(t("roll_off.starts", name=players[off.first]))
        if self.session.resumed:
            # The saved game's past goes to the log; its last moment is old news, so the headline starts fresh.
            self.tell(self.view(since=0).events)
            self.told = len(self.session.game.events)
            self.moment = ("", "")
        if self.hotdice.warm:
            self.warm_up()
        self.set_interval(0.25, self.watch_solver)
        self.sync()

    # -- reading the engine --------------------------------------------------------------------

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
        """Show the engine's state: new events to the log and the moment, then every panel."""
        game = self.session.game
        self.tell(self.view(since=self.told).events)
        self.told = len(game.events)
        if game.phase is not Phase.SET_ASIDE:
            self.picked.clear()
        self.draw()
        if game.outcome is not None and not self.finished:
            self.finish()
        elif self.session.computer_to_act() and not self.computer_running and not self.leaving:
            self.computer_running = True
            self.skip.clear()
            self.play_computer()

    def tell(self, events: Sequence[Entry]) -> None:
        """Write each event's line (its catalogue key and values, the view's: the web words the same) to the log,
        and show the batch's weightiest moment above the dice."""
        t = self.hotdice.t
        log = self.query_one("#log", RichLog)
        best: tuple[int, str, str] | None = None
        names = self.hotdice.names(self.session)
        for event in events:
            line = event_line(t, names, event)
            log.write(line)
            kind = event.kind
            if kind is EventKind.TURN and self.session.mode in (Mode.TOGETHER, Mode.PAD) and len(names) > 1:
                best = best or (1, t("table.pass_to", name=names[event.seat]), "turn")
            elif kind is EventKind.ROLL:
                self.picked.clear()
                self.advice = None
            rank = _MOMENT_RANK.get(kind)
            if rank is not None and (best is None or rank >= best[0]):
                best = (rank, line, _MOMENT_CLASS[kind])
        if best is not None:
            self.moment = (best[1], best[2])
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
        self.query_one("#dice", DiceRow).compact = self.compact
        for part in self.query("#table-title, #table-body"):
            part.display = not small
        self.query_one("#log").display = not small and not (self.compact and self.advice is not None)  # room
        notice = self.query_one("#too-small", Static)
        notice.display = small
        if small:
            notice.update(self.hotdice.t("table.too_small", width=least_width, height=least_height,
                                         now_width=width, now_height=height))

    def draw(self) -> None:
        t = self.hotdice.t
        game = self.session.game
        rules = game.rules
        view = self.view()
        self.fit()
        # title
        title = self.hotdice.mode_title(self.session)
        right = ""
        if view.turn_limit is not None:
            right = t("table.turn_limit", n=view.round, limit=view.turn_limit)
        else:
            right = t("table.turn_number", n=view.round)
        if view.last_round_by is not None and view.outcome is None:
            right = f"{t('table.last_round')} · {right}"
        head = f" {title} · {shown_rules(rules)}"
        width = max(self.size.width, 40)
        room = width - len(right) - 2
        head = head if len(head) <= room else head[: room - 1] + "…"
        self.query_one("#table-title", Static).update(
            f"{head}{' ' * (width - len(head) - len(right) - 1)}{right}", layout=False
        )
        # scores
        board = self.query_one("#scores", Scoreboard)
        board.lang = t.lang
        board.show_entry = view.entry > 0
        board.lines = tuple(
            ScoreLine(name, p.score, p.entered, p.farkles_in_row, view.outcome is None and i == view.current)
            for i, (name, p) in enumerate(zip(self.hotdice.names(self.session), view.players, strict=True))
        )
        legend = []
        if view.entry > 0:
            legend += [t("table.on_board"), t("table.not_on_board", entry=t.number(view.entry))]
        if any(p.farkles_in_row for p in view.players):
            legend.append(t("table.farkles_row"))
        board.legend = tuple(legend)
        board.border_title = t("table.scores")
        # moment
        moment = self.query_one("#moment", Static)
        text, kind = self.moment
        if not text:
            text, kind = self._whose_turn()
        moment.update(text, layout=False)
        moment.set_classes(f"moment-{kind}" if kind else "")
        # dice
        dice = self.query_one("#dice", DiceRow)
        if view.phase is Phase.SET_ASIDE and view.roll is not None:
            dice.faces, dice.tone = view.roll, "live"
        elif view.dead_roll is not None:
            dice.faces, dice.tone = view.dead_roll, "farkle"
        elif view.phase is Phase.OVER:
            dice.faces, dice.tone = (), "waiting"
        else:
            dice.faces, dice.tone = (None,) * view.dice_in_hand, "waiting"
        dice.picked = frozenset(self.picked)
        human = self.human_to_act() and game.phase is Phase.SET_ASIDE
        dice.cursor = self.cursor if human else -1
        # status
        self.query_one("#status", Static).update(self.status_text(view), layout=False)
        solver = self.query_one("#solver", Static)
        solver.display = self.hard_status is not None and not self.hard_status.ready and game.outcome is None
        if solver.display and self.hard_status is not None:
            if self.session.waits and self.hard_status.state != "failed":  # failed: it plays expected points
                solver.update(self._solver_line(self.hard_status, "table.hard_working_wait", "table.hard_waiting_wait"))
            else:
                solver.update(self._solver_line(self.hard_status, "table.hard_working"))
        self.say(self.message)
        pad = self.query_one("#pad-input", Input)
        waiting_for_dice = game.phase is Phase.CHANCE and self.session.mode is Mode.PAD
        if waiting_for_dice and not pad.display:
            pad.value = ""
            pad.placeholder = t("table.pad_prompt", dice=t.dice(game.dice_in_hand),
                                example="".join(str(i % 6 + 1) for i in range(game.dice_in_hand)))
            pad.display = True
            pad.disabled = False
            pad.focus()
        elif not waiting_for_dice and pad.display:
            pad.display = False
            pad.disabled = True
        self.query_one("#advice", CoachList).display = self.advice is not None
        if self.advice is not None:
            self.query_one("#advice-text", Static).update(self.advice)
        # keys
        n = rules.dice
        if game.outcome is not None:
            keys = t("over.keys")
        elif self.session.computer_to_act() or self.computer_running:
            keys = t("table.keys_computer")
        elif self.session.mode is Mode.PAD:
            keys = t("table.keys_pad", n=n)
        elif self.app.size.width < _FULL_SIZE[0]:
            keys = t("table.keys_compact", n=n)
        else:
            keys = t("table.keys", n=n)
        self.query_one("#keys", Static).update(keys, layout=False)

    def _whose_turn(self) -> tuple[str, str]:
        t = self.hotdice.t
        game = self.session.game
        if game.outcome is not None:
            over = self.view(since=len(game.events) - 1).events[-1]  # the game-over event
            return event_line(t, self.hotdice.names(self.session), over), "winner"
        name = self.hotdice.names(self.session)[game.current]
        if self.thinking:
            return t("table.computer_thinking", name=name), "computer"
        if self.session.computer_to_act() or self.computer_running:
            return t("table.computer_turn", name=name), "computer"
        if self.session.mode in (Mode.TOGETHER, Mode.PAD):
            return t("table.turn_of", name=name), "turn"
        return t("table.your_turn"), "turn"

    def status_text(self, view: TableView) -> Text:
        t = self.hotdice.t
        lines: list[Text] = []
        if view.outcome is not None:
            return Text("")
        total = view.turn_total
        if view.phase is Phase.SET_ASIDE:
            set_aside = self.selection()
            option = None if set_aside is None else view.option(str(set_aside))
            if set_aside is None:
                human = not (self.session.computer_to_act() or self.computer_running)
                lines.append(Text(t("table.selection_none", n=len(view.roll or ())) if human else ""))
            elif option is not None:
                lines.append(Text(t("table.selection_ok", dice=" ".join(map(str, set_aside)),
                                    points=t.number(option.points)), style="bold"))
            elif (refused := view.refusals.get(str(set_aside))) is None or refused.code is Code.NOT_SCORING:
                lines.append(Text(t("table.selection_no_score", dice=" ".join(map(str, set_aside))), style="italic"))
            else:
                lines.append(Text(t("table.selection_refused", dice=" ".join(map(str, set_aside)),
                                    reason=t.refusal(refused)), style="italic"))
            if option is not None:
                after = total + option.points
                lines.append(Text(t("table.turn_total_after", total=t.number(total), after=t.number(after))))
                risk = t("table.risk", dice=t.dice(option.risk.dice), risk=t.percent(option.risk.p))
                if option.hot_dice:
                    risk += " · " + t("table.hot_dice_hand", n=view.dice)
                lines.append(Text(risk))
                lines.append(Text(self._bank_line(view, after, option.bank_refusal, option.records)))
            else:
                lines.append(Text(t("table.turn_total", total=t.number(total))))
                lines.append(Text(t("table.risk_unknown")))
        else:
            lines.append(Text(self._set_aside_line(view.set_asides)))
            hand = t("table.in_hand", dice=t.dice(view.dice_in_hand))
            if view.hot_dice:
                hand = t("table.hot_dice_hand", n=view.dice)
            lines.append(Text(f"{t('table.turn_total', total=t.number(total))} · {hand}"))
            if view.phase is Phase.CHANCE and self.session.mode is Mode.PAD:
                lines.append(Text(t("table.pad_roll")))
            else:
                lines.append(Text(t("table.risk", dice=t.dice(view.risk.dice), risk=t.percent(view.risk.p))))
            if view.phase is Phase.DECIDE:
                lines.append(Text(self._bank_line(view, total, view.bank_refusal, view.bank_records)))
        return Text("\n").join(lines)

    def _bank_line(self, view: TableView, total: int, refusal: Refusal | None, records: bool) -> str:
        t = self.hotdice.t
        if refusal is not None:
            return t("table.bank_no", reason=t.refusal(refusal))
        if not records:
            return t("table.bank_not_recorded", points=t.number(total), entry=t.number(view.entry))
        return t("table.bank_ok", points=t.number(total), score=t.number(view.players[view.current].score + total))

    def _set_aside_line(self, set_asides: Sequence[str]) -> str:
        t = self.hotdice.t
        if not set_asides:
            return t("table.set_aside_none")
        groups = [" ".join(k) for k in set_asides]
        line = t("table.set_aside", dice=" │ ".join(groups))
        while len(line) > _STATUS_WIDTH and len(groups) > 1:  # a long turn: its latest set-asides
            groups.pop(0)
            line = t("table.set_aside", dice="… │ " + " │ ".join(groups))
        return line

    # -- the player's keys ----------------------------------------------------------------------

    def say(self, message: str) -> None:
        """Show a message under the status (a refusal, a typing mistake); the layout moves only if it changes."""
        shown = self.query_one("#message", Static)
        if message != self.message or str(shown.content) != message:
            shown.update(message)
        self.message = message

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
        if self.computer_running:
            self.skip.set()
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
        t = self.hotdice.t
        if not self.human_to_act():
            return
        self.message = ""
        set_aside = None
        if game.phase is Phase.SET_ASIDE:
            set_aside = self.selection()
            if set_aside is None:
                self.say(t("table.pick_first", n=len(game.roll or ())))
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
        self.dead_roll = None
        self.moment = ("", "")
        self.query_one("#log", RichLog).write(self.hotdice.t("log.undone"))
        self.say("")
        self.sync()

    def action_hint(self) -> None:
        if not self.human_to_act():
            return
        self.advice = Text(self.hotdice.t("table.hint_thinking"), style="italic")
        self.draw()
        self.think(self.session.game.clone())

    def action_coach_scroll(self, pages: int) -> None:
        coach = self.query_one("#advice", CoachList)
        (coach.scroll_page_down if pages > 0 else coach.scroll_page_up)(animate=False)

    @work(thread=True, exclusive=True, group="hint")
    def think(self, game: Game) -> None:
        """Ask the coach on a copy, so that play may go on (a table not at hand is solved in the background:
        expected points meanwhile)."""
        self.app.call_from_thread(self.show_hint, hint_of(game))

    def show_hint(self, hint: Hint) -> None:
        """Word the hint's facts, the web's very answer (:class:`hotdice.play.hint.Hint`)."""
        if hint.n != len(self.session.game.history) or self.leaving:
            return  # the game moved on meanwhile
        t = self.hotdice.t
        text = Text(t("table.hint_title", measure=t(f"measure.{hint.measure}")), style="bold")
        if hint.solver is not None and not hint.solver.ready:
            text.append("\n" + self._solver_line(hint.solver, "table.coach_working"), style="italic")
        if len(hint.choices) > 2:  # more than the list's least height shows
            text.append(" · " + t("table.hint_scroll"), style="")
        for number, choice in enumerate(hint.choices):
            if choice.set_aside is None:
                what = t(f"hint.{choice.then}")
            else:
                what = t(f"hint.keep_{choice.then}", keep=" ".join(choice.set_aside))
            value = self._measure(hint.measure, choice.value)
            cost = t("hint.best") if number == 0 else t("hint.cost", cost=self._measure(hint.measure, choice.cost))
            text.append("\n" + t("hint.line", mark="▸" if number == 0 else " ", what=what, value=value, cost=cost))
        self.advice = text
        self.draw()

    def warm_up(self) -> None:
        """Ask the background solver for what the coach and the Hard player will need, as the game opens."""
        game = self.session.game
        if isinstance(game.to_act, int):
            measure_now(game)
        self.watch_solver()

    def watch_solver(self) -> None:
        """Every quarter second: how far the solve of Hard's table is, shown until it is ready."""
        if self.session.level != "hard" or (self.hard_status is not None and self.hard_status.ready):
            return
        status = SOLVER.status("two", self.session.game.rules)
        if status != self.hard_status:
            self.hard_status = status
            self.draw()

    def why(self, exc: Exception) -> str:
        """An error worded at this table: a seat it names (:class:`hotdice.game.refusals.Refusal`) by the name
        the table shows."""
        names = self.hotdice.names(self.session)
        return self.hotdice.t.error(exc, lambda seat, name: names[seat] if 0 <= seat < len(names) else name)

    def _solver_line(self, status: Status, key: str, waiting_key: str = "table.hard_waiting") -> str:
        t = self.hotdice.t
        if status.state in ("queued", "solving"):
            return t(key, percent=t.percent(status.progress))
        return t(waiting_key, reason=t.unsolved(status))

    def _measure(self, measure: str, value: float) -> str:
        t = self.hotdice.t
        if measure == "win":
            return t.percent(value)
        return t.decimal(value, 2 if measure == "turns" else 1)

    def action_scoring(self) -> None:
        from hotdice.tui.screens.dialogs import ScoringScreen

        self.app.push_screen(ScoringScreen(self.session.game.rules, self.session.game.turn_limit))

    def action_leave(self) -> None:
        """Back to the menu; an unfinished game is saved first."""
        if self.save_if_unfinished():
            self.app.notify(self.hotdice.t("table.saved"))
        self.leaving = True
        self.skip.set()
        self.app.pop_screen()

    def save_if_unfinished(self) -> bool:
        if self.session.game.outcome is not None or self.leaving:
            return False
        self.session.save()
        return True

    # -- the computer -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="computer")
    def play_computer(self) -> None:
        """The computer's turn, one action at a time at the app's pace (space skips the waiting)."""
        worker = get_current_worker()
        computer = self.session.computer
        assert computer is not None
        pace = self.hotdice.pace
        first = True
        while not worker.is_cancelled and not self.leaving and self.session.computer_to_act():
            self.skip.wait(2 * pace if first else pace)  # first, time to see how the player's turn ended
            first = False
            if worker.is_cancelled or self.leaving:
                break
            self.app.call_from_thread(self.set_thinking, True)
            if not self.wait_for_table(worker):
                break
            action = choose(computer, self.session.game)
            self.app.call_from_thread(self.set_thinking, False)
            if isinstance(action, SetAside):
                self.app.call_from_thread(self.show_computer_pick, action)
                self.skip.wait(pace / 2)
            self.app.call_from_thread(self.apply_computer, action)
        self.app.call_from_thread(self.computer_done)

    def wait_for_table(self, worker: Worker[None]) -> bool:
        """Hold the computer's move while its Hard waits for its exact table (the player chose so), solved by
        the background solver; its line tells how far it is. False if the game is left meanwhile."""
        if pending(self.session.computer, self.session.game) is None:
            return True
        self.app.call_from_thread(self.show_waiting)
        while pending(self.session.computer, self.session.game) is not None:
            if worker.is_cancelled or self.leaving:
                return False
            time.sleep(0.1)
        return True

    def show_waiting(self) -> None:
        """The wait may be long: the moment of the player's turn gives way to "... is thinking"."""
        self.moment = ("", "")
        self.draw()

    def set_thinking(self, thinking: bool) -> None:
        self.thinking = thinking
        self.draw()

    def show_computer_pick(self, set_aside: SetAside) -> None:
        roll = self.session.game.roll or ()
        left = list(set_aside)
        self.picked = set()
        for i, face in enumerate(roll):
            if face in left:
                left.remove(face)
                self.picked.add(i)
        self.draw()

    def apply_computer(self, action: Action) -> None:
        if self.leaving:
            return
        self.session.setup.play(action)
        self.sync()

    def computer_done(self) -> None:
        self.computer_running = False
        if not self.leaving:
            self.cursor = 0
            self.sync()

    # -- the end ----------------------------------------------------------------------------------

    def finish(self) -> None:
        from hotdice.tui.screens.dialogs import GameOverScreen

        self.finished = True
        self.hotdice.record_finished(self.session)
        self.app.push_screen(GameOverScreen(self.session, self.hotdice.last_record_note))
