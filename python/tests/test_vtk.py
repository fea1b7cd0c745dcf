"""Result.to_vtk: the files `skein run --vtk` writes for the same run, byte for byte, from skein.run's arrays and
from skein.open's; the command line's path rules and messages."""
import os

import numpy as np
import pytest

import skein
from conftest import MIXED, cli, scenario_file


def files_of(directory):
    return {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory))}


@pytest.mark.parametrize("cells", ["links", "ropes"])
def test_to_vtk_equals_cli(tmp_path, mixed, cells):
    path = scenario_file(tmp_path, MIXED)
    cli("run", path, "--h5", tmp_path / "out.h5", "--vtk", tmp_path / "cli", "--vtk-cells", cells, "--every", 100,
        "--ropes", "0,3-6", "--quiet", "--threads", 2)
    ours = skein.run(mixed, every=100, ropes=[0, 3, 4, 5, 6], threads=2)
    assert ours.to_vtk(tmp_path / "run", cells=cells) == tmp_path / "run"
    skein.open(tmp_path / "out.h5").to_vtk(tmp_path / "open", cells=cells)
    expected = files_of(tmp_path / "cli")
    # a .pvd and one file per frame, the deploying ropes' particle counts changing between them
    assert len(expected) == 1 + ours.frames and len(np.unique(ours.count[:, 0])) > 1
    assert files_of(tmp_path / "run") == expected
    assert files_of(tmp_path / "open") == expected
    assert not [n for n in os.listdir(tmp_path) if ".tmp." in n]


def test_to_vtk_path_rules(tmp_path, mixed):
    r = skein.run(mixed, steps=100, ropes=[0, 1])
    (tmp_path / "a_file").write_text("mine")
    with pytest.raises(skein.ScenarioError, match="a_file"):
        r.to_vtk(tmp_path / "a_file")
    assert (tmp_path / "a_file").read_text() == "mine"
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(skein.ScenarioError, match="foreign"):
        r.to_vtk(foreign)
    assert os.listdir(foreign) == ["notes.txt"]
    # an earlier output is replaced whole
    r.to_vtk(tmp_path / "out")
    skein.run(mixed, steps=200, every=100, ropes=[0]).to_vtk(tmp_path / "out")
    assert sorted(os.listdir(tmp_path / "out")) == ["frame_000000.vtp", "frame_000001.vtp", "frame_000002.vtp",
                                                    "skein.pvd"]
    with pytest.raises(ValueError, match="cells"):
        r.to_vtk(tmp_path / "x", cells="polylines")
    assert not [n for n in os.listdir(tmp_path) if ".tmp." in n]
