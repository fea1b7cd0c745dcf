"""What the tests share: the build's command line, the source tree, small scenarios, and bit-for-bit checks.
ctest sets SKEIN_CLI (the build's skein), SKEIN_SOURCE_DIR, SKEIN_ABI_PROBE and PYTHONPATH (the build's package)."""
import json
import os
import subprocess

import numpy as np
import pytest

import skein

CLI = os.environ.get("SKEIN_CLI", "skein")
SOURCE_DIR = os.environ.get("SKEIN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))

# Two groups of different capacities: a deploying, anchored group with a stiffness sweep (its particle count
# grows, so slots past it are padding) and a towed, anchored chain (towing, which both engines compute to the
# same bits; a sine may differ in its last bit, docs/model.md 9.5); 5 and 3 ropes.
MIXED = {
    "skein": 1, "dt": 1e-3, "steps": 400, "gravity": [0, -9.81, 0],
    "groups": [
        {"count": 5, "particles": 12, "start": [0, -0.3, 0], "end": [0, -0.1, 0], "mass": 0.05,
         "link": {"type": "spring", "stiffness": 300, "length": 0.1},
         "anchor": {"type": "anchored_spring", "point": [0, 0, 0], "stiffness": 300, "length": 0.1},
         "deploy": {"velocity": 1, "initial_particles": 2},
         "sweep": {"link.stiffness": {"from": 200, "to": 600}}},
        {"count": 3, "particles": 6, "start": [1, -0.2, 0], "end": [1, -1.2, 0], "mass": 0.05,
         "link": {"type": "spring", "stiffness": 300, "length": 0.2},
         "anchor": {"type": "anchored_spring", "point": [1, 0, 0], "stiffness": 300, "length": 0.2,
                    "motion": {"velocity": [0.2, 0, 0.1]}}},
    ],
    "output": {"every": 100},
}


def cli(*args, check=True):
    """Runs the build's skein; returns (exit status, stderr)."""
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True,
                       env=dict(os.environ, OMP_NUM_THREADS="2"))
    if check and p.returncode != 0:
        raise AssertionError("skein %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p.returncode, p.stderr


def scenario_file(tmp_path, scenario, name="scenario.json"):
    path = tmp_path / name
    path.write_text(json.dumps(scenario))
    return path


def same_bits(a, b):
    """Equal shapes, dtypes and bits (NaN where the other has NaN; -0 and +0 differ)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if not np.array_equal(nan_a, nan_b):
            return False
        a, b = a[~nan_a], b[~nan_b]
        return a.tobytes() == b.tobytes()
    return np.array_equal(a, b)


@pytest.fixture
def mixed():
    return skein.load(MIXED)
