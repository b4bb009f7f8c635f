"""The named presets with their titles and sources (the rules themselves, and why, are ``rules.PRESETS``;
``shared/RULES.md`` decides what the sources leave open)."""

from __future__ import annotations

from dataclasses import dataclass

from hotdice.game.rules import PRESETS, Rules, preset

__all__ = ["VARIANTS", "Variant", "find_variant"]


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    source: str
    rules: Rules


_TITLES = {
    "farkle": ("Farkle / 10 000, six dice", "seed 003"),
    "5000": ("5000, five dice (English rules)", "seed 001"),
    "5000-fr": ("5000, five dice (French rules)", "seed 000"),
    "5000-fr-6": ("5000, six dice (French rules)", "seed 000"),
}
VARIANTS: tuple[Variant, ...] = tuple(Variant(name, *_TITLES[name], rules) for name, rules in PRESETS.items())
_BY_NAME = {v.name: v for v in VARIANTS}


def find_variant(name: str) -> Variant:
    """The preset called ``name`` (case-insensitive), or a RulesError listing the presets."""
    preset(name)  # refuses an unknown name, listing the presets
    return _BY_NAME[name.strip().lower()]
