"""The named presets, each with its source (``shared/RULES.md`` decides what the sources leave open)."""

from __future__ import annotations

from dataclasses import dataclass

from hotdice.refusals import Code, Refusal
from hotdice.rules import BelowEntry, End, HotDice, Kinds, Rules, RulesError

__all__ = ["VARIANTS", "Variant", "find_variant"]


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    source: str
    rules: Rules


# What the three 5000 presets share: 5000 points, all dice rolled again after a full hand, triples only.
_5000 = Rules(dice=5, target=5000, hot_dice=HotDice.MUST, kinds=Kinds.NONE, straight=0, three_pairs=0, two_triplets=0)

VARIANTS: tuple[Variant, ...] = (
    # Seed 003 (Farkle / 10 000, the "Farkle Challenge" table): no entry, optional hot dice, last round.
    Variant("farkle", "Farkle / 10 000, six dice", "seed 003", Rules()),
    # Seed 001 (5000, English): 350 to get on the board, points below it not recorded; 1-2-3-4-5 = 1500.
    Variant(
        "5000",
        "5000, five dice (English rules)",
        "seed 001",
        _5000.replace(entry=350, below_entry=BelowEntry.LOST, low_straight=1500),
    ),
    # Seed 000 (5000, French encyclopedia), five dice: exactly 5000, open with 750, both straights 750,
    # five 1s in one roll win at once. Variants: entry=1000, min_bank=300, rule_4900=yes.
    Variant(
        "5000-fr",
        "5000, five dice (French rules)",
        "seed 000",
        _5000.replace(end=End.EXACT, entry=750, low_straight=750, high_straight=750, five_1s_win=True),
    ),
    # Seed 000, six-dice variant: open with 700, then at least 300 a bank, triples kept and validated,
    # reaching 5000 wins at once.
    Variant(
        "5000-fr-6",
        "5000, six dice (French rules)",
        "seed 000",
        _5000.replace(dice=6, end=End.FIRST, entry=700, min_bank=300, validate=True),
    ),
)
_BY_NAME = {v.name: v for v in VARIANTS}


def find_variant(name: str) -> Variant:
    """The preset called ``name`` (case-insensitive), or a RulesError listing the presets."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        presets = tuple(v.name for v in VARIANTS)
        raise RulesError(Refusal(Code.UNKNOWN_PRESET, {"name": name, "presets": presets})) from None
