"""How the front ends name the engine's combinations: which catalogue key and values each line of the scoring
table takes. The words themselves are each front end's (the terminal's and the pages' catalogues share these
keys: ``combo.*`` and ``count.3`` to ``count.6``)."""

from __future__ import annotations

from typing import Any, Protocol

from hotdice.game.scoring import STRAIGHTS, CombinationKind, ScoringLine

__all__ = ["Words", "combination_name"]

# The catalogue's key of each kind of combination that has no face or count to tell.
_PLAIN = {
    CombinationKind.THREE_PAIRS: "combo.three_pairs",
    CombinationKind.TWO_TRIPLETS: "combo.two_triples",
    CombinationKind.FOUR_KIND_PAIR: "combo.four_pair",
}


class Words(Protocol):
    """A front end's translator: ``t("key", name=value)``."""

    def __call__(self, key: str, **params: Any) -> str: ...


def combination_name(t: Words, line: ScoringLine) -> str:
    """A line of :func:`hotdice.game.scoring.scoring_table` in the front end's words."""
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
