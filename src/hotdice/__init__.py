"""hotdice: the Farkle family of dice games (Farkle / 10 000, 5000), with exact rules and odds."""

from importlib.metadata import PackageNotFoundError, version

from hotdice.game.rules import BelowEntry, End, HotDice, Kinds, Rules, RulesError, SetAsideRule
from hotdice.game.scoring import DiceError, Option, Scorer, SetAside, scorer
from hotdice.game.variants import VARIANTS, Variant, find_variant

try:
    __version__ = version("hotdice")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "VARIANTS",
    "BelowEntry",
    "DiceError",
    "End",
    "HotDice",
    "Kinds",
    "Option",
    "Rules",
    "RulesError",
    "Scorer",
    "SetAside",
    "SetAsideRule",
    "Variant",
    "__version__",
    "find_variant",
    "scorer",
]
