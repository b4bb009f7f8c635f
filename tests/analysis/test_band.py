"""The crossing band's roll tables (``model.band_table``): a row per distance to the target that compares points
only among set-asides landing on the same side of the cuts, and the sweeps' fall-back on every set-aside where
the values swept rise against that assumption. The whole solve under them is checked against plain value
iteration in test_solver.py; here each sweep is checked against the sweep that weighs every set-aside."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from hotdice.analysis.solver import kernel, two_player_solution
from hotdice.analysis.solver.model import BAND_CUTS, BandTable, band_table, roll_table
from hotdice.analysis.solver.two_player import _END_CODE
from hotdice.game.rules import Rules


def every_set_aside(bt: BandTable) -> BandTable:
    """The same band with every row its row 0 (only equal points compared): the sweep as it was before."""
    rows = np.ascontiguousarray(np.repeat(bt.group_start[:1], bt.group_start.shape[0], axis=0))
    return dataclasses.replace(bt, group_start=rows)


@pytest.mark.parametrize("text", ["farkle", "5000", "farkle,entry=500,three_farkles=1000"])
def test_band_rows_keep_every_probability_and_row_0_is_the_full_table(text: str) -> None:
    rules = Rules.parse(text)
    bt = band_table(rules)
    full = roll_table(rules)
    assert np.array_equal(bt.group_start[0, 1:], full.group_start[1:])
    assert np.array_equal(bt.opt_points[: full.opt_points.size], full.opt_points)
    assert bt.cut.size - 1 == full.opt_points.max()
    assert [e for e in range(bt.cut.size) if bt.cut[e]] == list(BAND_CUTS)
    for d, n in itertools.product(range(bt.group_start.shape[0]), range(1, rules.dice + 1)):
        assert bt.group_p[bt.group_start[d, n]: bt.group_start[d, n + 1]].sum() == pytest.approx(1.0, abs=1e-12)
    # Compared by points on each side of the cuts, the band's rows weigh fewer set-asides than row 0 (each row
    # keeps a subset of each roll's), under farkle about half.
    rows = bt.opt_start[bt.group_start[:, rules.dice + 1]] - bt.opt_start[bt.group_start[:, 1]]
    assert (rows[1:] <= rows[0]).all()
    assert rows[1:].mean() < (0.6 if rules.dice == 6 else 0.9) * rows[0]


@pytest.mark.slow
@pytest.mark.parametrize("text", ["farkle,target=1000,three_farkles=500", "5000,target=1000,three_farkles=500",
                                  "farkle,target=1500,entry=500"])
def test_band_sweep_values_every_turn_as_every_set_aside_does(text: str) -> None:
    rules = Rules.parse(text)
    sol = two_player_solution(rules)
    st, w = sol.seats, sol.w4
    counts = w.shape[2]
    pen = sol.penalty_seats()
    n = st.score.size
    out = {}
    for near in (sol.near, every_set_aside(sol.near)):
        args = (_END_CODE[rules.end], st.target, sol.beyond, st.score, st.entered, 1 if rules.entry else 0,
                st.may_bank, st.records, sol.final, sol.table.dice, sol.table.arrays, near.arrays, st.tmax)
        out[near is sol.near] = np.array([
            kernel._start_values(i, j, fo, np.array([w[j, i, fo, min(1, counts - 1)], w[j, i, fo, min(2, counts - 1)],
                                                     w[j, pen[i], fo, 0]]), w[j, i, fo, 0], w, *args)
            for i, j, fo in itertools.product(range(n), range(n), range(counts))
        ])
    np.testing.assert_allclose(out[True], out[False], rtol=0, atol=1e-13)


def turn(near: BandTable, bank_v: np.ndarray, room: int) -> np.ndarray:
    """One turn swept under farkle's roll tables, ``room`` units from the target: the values of rolling."""
    rules = Rules.parse("farkle")
    tmax = bank_v.size - 1
    rv = np.zeros((tmax + 2, rules.dice + 1))
    rs = np.zeros((2, tmax + 2, rules.dice + 1))
    lo, hi = kernel.crossing_band(kernel.LAST_ROUND, room, near.arrays)
    kernel.turn_sweep(tmax, rules.dice, bank_v, np.zeros((2, tmax + 1)), np.ones(tmax + 1, dtype=np.bool_), 1.0,
                      0.0, 0.0, 1.0, False, roll_table(rules, by_points=True).arrays, near.arrays, lo, hi, rv, rs)
    return rv


def test_a_value_that_falls_with_more_points_where_no_cut_allows_it_sends_the_sweep_back_to_every_set_aside() -> None:
    bt = band_table(Rules.parse("farkle"))
    room = 80
    bank_v = np.linspace(0.3, 0.9, room + 101)
    bank_v[room:] = 0.95
    bank_v[room - 10] = 0.99  # 10 units short of the target is worth more than 9 (no cut there)
    plain = turn(every_set_aside(bt), bank_v, room)
    np.testing.assert_allclose(turn(bt, bank_v, room), plain, rtol=0, atol=1e-14)
    # The fall-back is what keeps it exact: told that every distance is a cut, the rows prune wrongly.
    blind = turn(dataclasses.replace(bt, cut=np.ones_like(bt.cut)), bank_v, room)
    assert np.abs(blind - plain).max() > 1e-3
    # Where the values rise with the points, the band's rows alone give the same values.
    rising = np.linspace(0.3, 0.9, room + 101)
    np.testing.assert_allclose(turn(bt, rising, room), turn(every_set_aside(bt), rising, room), rtol=0, atol=1e-14)
