"""skein.run gives the command line's numbers to the bit: the same run written by `skein run --h5` and read
with skein.open, for every array of the Result; and skein.open reads the file's own values."""
import h5py
import numpy as np

import skein
from conftest import MIXED, cli, same_bits, scenario_file

FIELDS = ["position", "velocity", "count", "energy", "tension", "diverged", "time", "step", "ropes", "group"]


def test_run_equals_cli(tmp_path, mixed):
    path = scenario_file(tmp_path, MIXED)
    out = tmp_path / "out.h5"
    cli("run", path, "--h5", out, "--every", 50, "--ropes", "0,2-4,6,7", "--quiet", "--threads", 2)
    from_cli = skein.open(out)
    ours = skein.run(mixed, every=50, ropes=[0, 2, 3, 4, 6, 7], threads=2)
    assert ours.frames == 9 and from_cli.complete and ours.complete
    for name in FIELDS:
        assert same_bits(getattr(ours, name), getattr(from_cli, name)), name
    assert ours.params.keys() == from_cli.params.keys() == {"link.stiffness"}
    assert same_bits(ours.params["link.stiffness"], from_cli.params["link.stiffness"])
    # the sweep from 200 to 600 over 5 ropes, NaN for group 1's ropes that do not sweep it
    np.testing.assert_allclose(ours.params["link.stiffness"][:4], [200, 400, 500, 600])
    assert np.isnan(ours.params["link.stiffness"][4:]).all()
    assert ours.scenario == from_cli.scenario == mixed.json


def test_deploying_ropes_grow_and_pad_with_nan(mixed):
    r = skein.run(mixed, steps=1500, ropes=[0, 5])
    # deploying at 1 m/s with links of 0.1 m: the rope grows, then stops at its capacity of 12
    assert r.count[0, 0] == 2 and r.count[-1, 0] == 12 and (np.diff(r.count[:, 0]) >= 0).all()
    assert (r.count[:, 1] == 6).all()
    first = r.position[1, 0]
    n = r.count[1, 0]
    assert 2 < n < 12 and np.isfinite(first[:n]).all() and np.isnan(first[n:]).all()
    assert np.isnan(r.position[:, 1, 6:]).all() and np.isnan(r.tension[:, 1, 5:]).all()
    assert np.isfinite(r.tension[:, 1, :5]).all()
    # step 0: group 1's chain lies where the scenario puts it, evenly from start to end
    expected = np.stack([np.ones(6), np.linspace(-0.2, -1.2, 6), np.zeros(6)], axis=1)
    np.testing.assert_allclose(r.position[0, 1, :6], expected, atol=1e-12)
    assert same_bits(r.time, r.step.astype(skein.REAL) * skein.REAL.type(mixed.dt))


def test_open_reads_the_file(tmp_path):
    path = scenario_file(tmp_path, MIXED)
    out = tmp_path / "out.h5"
    cli("run", path, "--h5", out, "--quiet")
    r = skein.open(out)
    with h5py.File(out, "r") as f:
        g = f["groups/0"]
        c = g["count"][:]
        for k in range(r.frames):
            for j in range(g["ropes"].shape[0]):
                n = c[k, j]
                assert same_bits(r.position[k, j, :n], g["position"][k, j, :n])
                assert same_bits(r.tension[k, j, :n - 1], g["tension"][k, j, :n - 1])
        assert same_bits(r.step, f["step"][:].astype(np.int64))


def test_set_equals_cli_set(tmp_path, mixed):
    path = scenario_file(tmp_path, MIXED)
    out = tmp_path / "out.h5"
    values = np.array([100.0, 150.5, 200.25, 250.0, 333.3])
    cli("run", path, "--h5", out, "--quiet", "--set", "groups[1].link.stiffness=800",
        "--set", "groups[0].sweep.link.stiffness={\"values\": [100, 150.5, 200.25, 250, 333.3]}")
    mixed.set("groups[1].link.stiffness", 800).set("groups[0].sweep.link.stiffness", values)
    ours, theirs = skein.run(mixed), skein.open(out)
    for name in FIELDS:
        assert same_bits(getattr(ours, name), getattr(theirs, name)), name
    np.testing.assert_array_equal(ours.params["link.stiffness"][:5], values.astype(skein.REAL))
