"""Arguments taken as the command line takes its options: whole numbers only (ints or numpy integers, never a
float however whole, nor a bool), in range, else skein.ScenarioError naming the argument; files that cannot
be read raise skein.Error, files that are not skein's skein.ScenarioError."""
import os
import re

import numpy as np
import pytest

import skein
from conftest import SOURCE_DIR, same_bits


@pytest.mark.parametrize("kwargs, message", [
    ({"ropes": [1.9]}, "ropes: 1.9 is not a whole number"),
    ({"ropes": np.array([0.0, 2.5])}, "ropes: 2.5 is not a whole number"),
    ({"ropes": ["1"]}, "ropes: '1' is not a whole number"),
    ({"steps": 100.5}, "steps: 100.5 is not a whole number"),
    ({"steps": 100.0}, "steps: 100.0 is not a whole number"),
    ({"steps": True}, "steps: True is not a whole number"),
    ({"steps": "10"}, "steps: '10' is not a whole number"),
    ({"steps": -1}, "steps: -1 must be >= 0"),
    ({"steps": 2**63}, "steps: 9223372036854775808 must be <= 9223372036854775807"),
    ({"every": 2.7}, "every: 2.7 is not a whole number"),
    ({"every": 0}, "every: 0 must be >= 1"),
    ({"threads": -1}, "threads: -1 must be >= 0"),
    ({"threads": 10**6}, "threads: 1000000 must be <= 4096"),
    ({"threads": 1.5}, "threads: 1.5 is not a whole number"),
])
def test_run_refuses(mixed, kwargs, message):
    with pytest.raises(skein.ScenarioError, match="^" + re.escape(message) + "$"):
        skein.run(mixed, **kwargs)


def test_numpy_integers(mixed):
    """numpy integers and integer arrays are whole numbers: the run is the one plain ints give."""
    plain = skein.run(mixed, steps=40, every=20, ropes=[0, 3, 6], threads=1)
    ours = skein.run(mixed, steps=np.int64(40), every=np.int32(20), ropes=np.array([0, 3, 6], dtype=np.uint8),
                     threads=np.int16(1))
    assert same_bits(plain.position, ours.position) and list(ours.step) == [0, 20, 40]
    assert list(skein.run(mixed, steps=0, ropes=range(2)).ropes) == [0, 1]


def test_simulation_refuses(mixed):
    sim = skein.Simulation(mixed, threads=np.int64(1))
    with pytest.raises(skein.ScenarioError, match=r"^step: 2.5 is not a whole number$"):
        sim.step(2.5)
    with pytest.raises(skein.ScenarioError, match=r"^step: -3 must be >= 0$"):
        sim.step(-3)
    with pytest.raises(skein.ScenarioError, match=r"^rope: 1.0 is not a whole number$"):
        sim.positions(1.0)
    with pytest.raises(skein.ScenarioError, match=r"^rope: 0.5 is not a whole number$"):
        sim.set_anchor(0.5, (0, 0, 0))
    with pytest.raises(skein.ScenarioError, match=r"^threads: -2 must be >= 0$"):
        skein.Simulation(mixed, threads=-2)
    assert sim.step_count == 0
    sim.step(np.int64(3))
    assert sim.step_count == 3 and sim.positions(np.uint8(1)).shape[1] == 3


def test_open_unreadable(tmp_path):
    missing = tmp_path / "missing.h5"
    with pytest.raises(skein.Error) as e:
        skein.open(missing)
    assert str(e.value) == "%s: No such file or directory" % missing and e.value.status == "io"
    assert not isinstance(e.value, skein.ScenarioError)
    with pytest.raises(skein.Error) as e:
        skein.open(tmp_path)
    assert e.value.status == "io"
    text = tmp_path / "text.h5"
    text.write_text("not hdf5")
    with pytest.raises(skein.Error, match="not an HDF5 file"):
        skein.open(text)
    import h5py
    with h5py.File(tmp_path / "cut.h5", "w") as f:  # a skein output's root, a group without its datasets
        f.attrs["real"], f.attrs["scenario"], f.attrs["complete"] = "double", "{}", 1
        f["step"], f["time"] = [0], [0.0]
        f.create_group("groups/0")
    with pytest.raises(skein.ScenarioError, match="cut.h5: not a skein output"):
        skein.open(tmp_path / "cut.h5")


def test_open_table_unreadable(tmp_path):
    missing = tmp_path / "missing.csv"
    with pytest.raises(skein.Error) as e:
        skein.open_table(missing)
    assert str(e.value) == "%s: No such file or directory" % missing and e.value.status == "io"
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00rope,group\n")
    with pytest.raises(skein.ScenarioError, match="binary.csv: not a skein results table"):
        skein.open_table(binary)


def test_readme_names_its_python():
    """Every shell line of the README that runs Python names /usr/bin/python3, which has the modules."""
    readme = open(os.path.join(SOURCE_DIR, "README.md")).read()
    shell = re.findall(r"```sh\n(.*?)```", readme, re.S)
    lines = [l for block in shell for l in block.splitlines() if re.search(r"\bpython3?\s", l)]
    assert lines, "no shell line runs Python"
    for line in lines:
        assert re.search(r"(^|\s)/usr/bin/python3\s", line), line
    assert "Another `python3` first on `PATH`" in readme
