"""How the game goes under the rules in force, in the page's language (the rules page)."""

from __future__ import annotations

from hotdice.game.rules import BelowEntry, Rules, SetAsideRule
from hotdice.web.i18n import Translator

__all__ = ["how_it_goes"]


def how_it_goes(t: Translator, rules: Rules) -> list[str]:
    """The game in a few sentences, each worded from a rule in force: the turn, entry, the end, hot dice, the
    house rules that change a turn."""
    n = t.number
    lines = [t("howto.turn", dice=rules.dice), t("howto.farkle")]
    if rules.set_aside is SetAsideRule.ALL:
        lines.append(t("howto.set_aside_all"))
    if rules.entry:
        lost = rules.below_entry is BelowEntry.LOST
        lines.append(t("howto.entry.lost" if lost else "howto.entry.roll", entry=n(rules.entry)))
    if rules.min_bank:
        lines.append(t("howto.min_bank", points=n(rules.min_bank)))
    lines.append(t(f"howto.end.{rules.end.value}", target=n(rules.target)))
    if rules.rule_4900:
        lines.append(t("howto.rule_4900", low=n(rules.target - 100), high=n(rules.target - 1)))
    lines.append(t(f"howto.hot_dice.{rules.hot_dice.value}", dice=rules.dice))
    if rules.validate:
        lines.append(t("howto.validate"))
    if rules.three_farkles:
        lines.append(t("howto.three_farkles", points=n(rules.three_farkles)))
    if rules.five_1s_win:
        lines.append(t("howto.five_1s"))
    return lines
