"""Settings: language, name, the preset, house rules as toggles, the shareable rules string, and whether Hard
waits for its exact play while its table is solved.

Every change goes through :meth:`hotdice.game.rules.Rules.replace` or :meth:`~hotdice.game.rules.Rules.parse`, so a
combination no table can play is refused with the rules' own reason. Settings are kept for next time.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from hotdice.game.rules import BelowEntry, End, HotDice, Kinds, Rules, RulesError
from hotdice.game.variants import VARIANTS, find_variant
from hotdice.play.names import MAX_NAME_CODE_POINTS
from hotdice.tui.i18n import LANGUAGES
from hotdice.tui.screens.base import HotDiceScreen

__all__ = ["CHOICES", "SettingsScreen", "cycle"]

# The values each house rule offers, in order (a value set by a rules string joins the list).
CHOICES: dict[str, tuple[Any, ...]] = {
    "target": (2000, 3000, 4000, 5000, 10_000),
    "end": tuple(End),
    "entry": (0, 350, 500, 700, 750, 1000),
    "below_entry": tuple(BelowEntry),
    "min_bank": (0, 300, 350, 500),
    "hot_dice": tuple(HotDice),
    "validate": (False, True),
    "rule_4900": (False, True),
    "three_farkles": (0, 500, 1000),
    "five_1s_win": (False, True),
    "three_1s": (1000, 300),
    "kinds": tuple(Kinds),
    "four_kind_pair": (0, 1500),
    "straight": (0, 1500, 2500, 3000),
    "three_pairs": (0, 750, 1500),
    "low_straight": (0, 500, 750, 1500),
    "high_straight": (0, 750),
}
_ZERO_IS = {"entry": "value.none", "min_bank": "value.none"}  # other knobs: 0 is "off"


def cycle(choices: tuple[Any, ...], current: Any, step: int) -> Any:
    """The value ``step`` places after ``current`` among ``choices`` (which wrap around)."""
    values = list(choices)
    if current not in values:
        values.append(current)
        if not isinstance(current, enum.Enum):
            values.sort()
    return values[(values.index(current) + step) % len(values)]


class SettingsScreen(HotDiceScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("left", "change(-1)", show=False),
        Binding("right", "change(1)", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="settings-title")
        yield OptionList(id="settings-list")
        yield Static(id="settings-name-label")
        yield Input(id="settings-name")
        yield Static(id="settings-rules-label")
        yield Input(id="settings-rules")
        yield Static(id="form-error")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.query_one("#settings-name", Input).value = self.hotdice.prefs.name
        self.relabel()
        self.query_one("#settings-list", OptionList).focus()

    def rows(self) -> list[tuple[str, str, str]]:
        """(id, label, value) of every line of the list."""
        app = self.hotdice
        t = app.t
        rules = app.rules
        preset = str(rules).split(",")[0]
        out = [
            ("lang", t("settings.language"), t(f"settings.lang.{t.lang}")),
            ("preset", t("settings.preset"), f"{preset} — {t(f'preset.{preset}')}"),
        ]
        for knob in CHOICES:
            out.append((knob, t(f"knob.{knob}"), self.shown(knob, getattr(rules, knob))))
        out.append(("hard_waits", t("settings.hard_waits"), self.shown("hard_waits", app.prefs.hard_waits)))
        return out

    def shown(self, knob: str, value: Any) -> str:
        t = self.hotdice.t
        if isinstance(value, bool):
            return t("value.yes" if value else "value.no")
        if isinstance(value, enum.Enum):
            return t(f"value.{value.value}")
        if value == 0:
            return t(_ZERO_IS.get(knob, "value.off"))
        return t.number(value)

    def relabel(self) -> None:
        app = self.hotdice
        t = app.t
        self.query_one("#settings-title", Static).update(Text(t("settings.title"), style="bold"))
        options = self.query_one("#settings-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        width = max(len(label) for _, label, _ in self.rows()) + 2
        for key, label, value in self.rows():
            options.add_option(Option(f"{label:<{width}}{value}", id=key))
        options.highlighted = highlighted if highlighted is not None else 0
        self.query_one("#settings-name-label", Static).update(t("settings.name"))
        self.query_one("#settings-name", Input).placeholder = t("player.you")
        self.query_one("#settings-rules-label", Static).update(t("settings.rules_string"))
        self.query_one("#settings-rules", Input).value = str(app.rules)
        self.query_one("#keys", Static).update(t("settings.keys"))

    def say(self, message: str) -> None:
        self.query_one("#form-error", Static).update(Text(message, style="bold"))

    @on(OptionList.OptionSelected, "#settings-list")
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.action_change(1)

    def action_change(self, step: int) -> None:
        options = self.query_one("#settings-list", OptionList)
        if not options.has_focus or options.highlighted_option is None:
            return
        key = options.highlighted_option.id
        app = self.hotdice
        t = app.t
        self.say("")
        if key == "lang":
            app.t = type(t)(cycle(LANGUAGES, t.lang, step))
            app.prefs.lang = app.t.lang
        elif key == "preset":
            preset = cycle(tuple(v.name for v in VARIANTS), str(app.rules).split(",")[0], step)
            self.use(find_variant(preset).rules)
        elif key == "hard_waits":
            app.prefs.hard_waits = not app.prefs.hard_waits
        elif key is not None:
            value = cycle(CHOICES[key], getattr(app.rules, key), step)
            try:
                self.use(app.rules.replace(**{key: value}))
            except RulesError as exc:
                self.say(t("settings.refused", reason=t.error(exc)))
        app.prefs.save()
        self.relabel()

    def use(self, rules: Rules) -> None:
        app = self.hotdice
        app.rules = rules
        app.prefs.rules = str(rules)

    @on(Input.Submitted, "#settings-rules")
    def typed_rules(self, event: Input.Submitted) -> None:
        t = self.hotdice.t
        try:
            rules = Rules.parse(event.value)
        except RulesError as exc:
            self.say(t("settings.refused", reason=t.error(exc)))
            return
        self.use(rules)
        self.hotdice.prefs.save()
        self.relabel()
        self.say(t("settings.applied", rules=str(rules)))

    @on(Input.Changed, "#settings-name")
    def typed_name(self, event: Input.Changed) -> None:
        self.hotdice.prefs.name = event.value.strip()[:MAX_NAME_CODE_POINTS]  # counted at the start of a game

    def action_back(self) -> None:
        self.hotdice.prefs.save()
        self.app.pop_screen()
