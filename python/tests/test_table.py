"""result.table and skein.open_table: the per-rope table of `skein run --results`, the same values either way;
its maxima are over every step, not only frames."""
import numpy as np
import pytest

import skein
from conftest import MIXED, cli, same_bits, scenario_file


def test_table_equals_cli_results(tmp_path, mixed):
    path = scenario_file(tmp_path, MIXED)
    cli("run", path, "--results", tmp_path / "rows.csv", "--quiet", "--threads", 2)
    ours = skein.run(mixed, every=100, ropes=[0, 5], threads=2, table=True).table
    theirs = skein.open_table(tmp_path / "rows.csv")
    assert list(ours) == list(theirs)
    assert list(ours)[:3] == ["rope", "group", "link.stiffness"] and "max_tension" in ours
    for name in ours:
        # the CSV holds each real as the build prints it (every digit in double; a float build's 9 digits
        # read back to the float, not to its double)
        if skein.REAL == np.float64 or ours[name].dtype == np.int64:
            assert same_bits(ours[name], theirs[name]), name
        else:
            assert same_bits(ours[name].astype(np.float32), theirs[name].astype(np.float32)), name
    # every rope of the scenario, in order; the sweep's values for group 0, empty (NaN) for group 1
    assert (ours["rope"] == np.arange(8)).all() and (ours["group"] == [0] * 5 + [1] * 3).all()
    np.testing.assert_allclose(ours["link.stiffness"][:5], [200, 300, 400, 500, 600])
    assert np.isnan(ours["link.stiffness"][5:]).all() and (ours["diverged_step"] == -1).all()


def test_maxima_cover_every_step(mixed):
    coarse = skein.run(mixed, every=100, table=True)
    fine = skein.run(mixed, every=1, ropes=range(8))
    # the largest tension over every step equals the largest over frames at every step, and is at least the
    # largest over the coarse frames
    assert same_bits(coarse.table["max_tension"], np.nanmax(fine.tension, axis=(0, 2)).astype(np.float64))
    assert (coarse.table["max_tension"] >= np.nanmax(coarse.tension, axis=(0, 2))).all()
    # the tip and energies are the last frame's
    last = fine.count[-1] - 1
    tip = fine.position[-1, np.arange(8), last]
    assert same_bits(np.stack([coarse.table[c] for c in ("tip_x", "tip_y", "tip_z")], axis=1),
                     tip.astype(np.float64))
    assert coarse.table is not None and skein.run(mixed, steps=10).table is None


def test_open_table_refuses_other_files(tmp_path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(skein.ScenarioError, match="not a skein results table"):
        skein.open_table(tmp_path / "x.csv")
