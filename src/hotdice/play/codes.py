"""Short codes people type and read out (friend challenges, shared tables): Crockford's base 32.

Its alphabet is digits and capitals without I, L, O, U; people may type I or L for 1 and O for 0. A check
symbol is chosen so that sum(alpha**i * symbol[i]) = 0 in GF(32). Any one wrong symbol, and any two
neighbours swapped, break that sum, so a typo is always refused.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ALPHABET", "READ", "check_symbol", "weighted_sum"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
READ = {ch: i for i, ch in enumerate(ALPHABET)} | {"I": 1, "L": 1, "O": 0}  # what each typed character reads as
_EXP = [0] * 62
_LOG = [0] * 32
_value = 1
for _i in range(31):  # powers of alpha, a root of the primitive x^5 + x^2 + 1
    _EXP[_i] = _EXP[_i + 31] = _value
    _LOG[_value] = _i
    _value <<= 1
    if _value & 32:
        _value ^= 0b100101


def weighted_sum(symbols: Sequence[int]) -> int:
    """sum(alpha**i * symbol[i]) in GF(32): zero for symbols that end with their check symbol."""
    total = 0
    for i, s in enumerate(symbols):
        if s:
            total ^= _EXP[_LOG[s] + i]
    return total


def check_symbol(symbols: Sequence[int]) -> int:
    """The symbol that, put after ``symbols``, makes their weighted sum zero."""
    check = weighted_sum(symbols)
    return _EXP[(_LOG[check] - len(symbols)) % 31] if check else 0
