"""The scoring table's lines in a front end's language: a line is a kind of combination with its dice and face
(:class:`hotdice.game.scoring.ScoringLine`), worded here from the catalogue (its ``name`` is the English)."""

from __future__ import annotations

from hotdice.game.scoring import STRAIGHTS, CombinationKind, ScoringLine
from hotdice.i18n import Translator

__all__ = ["combination_name"]

# The catalogue's key of each kind of combination that has no face or count to tell.
_PLAIN = {
    CombinationKind.THREE_PAIRS: "combo.three_pairs",
    CombinationKind.TWO_TRIPLETS: "combo.two_triples",
    CombinationKind.FOUR_KIND_PAIR: "combo.four_pair",
}


def combination_name(t: Translator, line: ScoringLine) -> str:
    """A line of :func:`hotdice.game.scoring.scoring_table` in ``t``'s language."""
    kind = line.kind
    if kind is CombinationKind.SINGLE:
        return t("combo.a", face=line.face)
    if kind is CombinationKind.OF_A_KIND:
        count = t(f"count.{line.dice}")
        return t("combo.kind", count=count) if line.face is None else t("combo.n", count=count, face=line.face)
    if kind in STRAIGHTS:
        faces = STRAIGHTS[kind]
        return t("combo.straight", run=f"{faces[0]}-{faces[-1]}")
    return t(_PLAIN[kind])
