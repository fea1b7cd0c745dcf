"""Mistakes raise skein.ScenarioError / skein.Error with the message the command line prints after 'skein: '."""
import json

import numpy as np
import pytest

import skein
from conftest import MIXED, cli, scenario_file


def cli_message(*args):
    rc, err = cli(*args, check=False)
    assert rc != 0
    line = err.strip().splitlines()[-1]
    assert line.startswith("skein: ")
    return rc, line[len("skein: "):]


def test_missing_file(tmp_path):
    missing = tmp_path / "nothere.json"
    rc, message = cli_message("validate", missing)
    with pytest.raises(skein.Error) as e:
        skein.load(missing)
    assert str(e.value) == message and e.value.status == "io" and rc == 1
    assert not isinstance(e.value, skein.ScenarioError)


@pytest.mark.parametrize("path, value", [("groups[0].link.stiffness", -5), ("groups[0].link.stiffnes", 5),
                                         ("groups[0].sweep.link.stiffness", [1, 2]), ("dt", "fast")])
def test_set_mistakes(tmp_path, path, value):
    file = scenario_file(tmp_path, MIXED)
    # a list given to a sweep key is its values: the command line gets the same JSON
    text = json.dumps({"values": value} if ".sweep." in path else value)
    rc, message = cli_message("validate", file, "--set", "%s=%s" % (path, text))
    s = skein.load(file)
    before = s.json
    with pytest.raises(skein.ScenarioError) as e:
        s.set(path, value)
    assert str(e.value) == message and rc == 2
    assert s.json == before  # the scenario is as it was


def test_syntax_error(tmp_path):
    file = tmp_path / "bad.json"
    file.write_text('{"skein": 1, "dt": 1e-3,\n "groups": [}')
    rc, message = cli_message("validate", file)
    with pytest.raises(skein.ScenarioError) as e:
        skein.load(file)
    assert str(e.value) == message and "bad.json:2:" in message


def test_run_arguments(mixed):
    with pytest.raises(skein.ScenarioError, match="rope 8 is out of range"):
        skein.run(mixed, ropes=[0, 8])
    with pytest.raises(skein.ScenarioError, match="every: 0 must be >= 1"):
        skein.run(mixed, every=0)
    with pytest.raises(skein.ScenarioError, match="isa avx9: unknown"):
        skein.run(mixed, isa="avx9")
    with pytest.raises(skein.ScenarioError, match="engine warp: unknown"):
        skein.Simulation(mixed, engine="warp")
    sim = skein.Simulation(mixed)
    with pytest.raises(skein.ScenarioError, match="rope 8: out of range"):
        sim.positions(8)
    with pytest.raises(skein.ScenarioError, match="anchor point must be finite"):
        sim.set_anchor(0, (0, np.nan, 0))


def test_open_not_an_output(tmp_path):
    text = tmp_path / "x.h5"
    text.write_text("not hdf5")
    with pytest.raises(skein.ScenarioError, match="not an HDF5 file"):
        skein.open(text)
    import h5py
    with h5py.File(tmp_path / "other.h5", "w") as f:
        f["data"] = [1, 2]
    with pytest.raises(skein.ScenarioError, match="not a skein output"):
        skein.open(tmp_path / "other.h5")
