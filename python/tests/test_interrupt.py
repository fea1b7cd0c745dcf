"""Ctrl-C (SIGINT) while the library runs: skein.run and Simulation.step stop promptly with skein.Interrupted,
the partial result holds the frames up to the step reached, and the interpreter's handler is put back."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import skein
from conftest import same_bits

LONG = {"skein": 1, "dt": 1e-4, "steps": 10_000_000, "gravity": [0, -9.81, 0],
        "groups": [{"count": 256, "particles": 32, "start": [0, 0, 0], "end": [3.1, 0, 0], "mass": 0.05,
                    "pinned": [0], "link": {"type": "spring", "stiffness": 500}}]}


def interrupt_after(seconds):
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_run_interrupted():
    s = skein.load(LONG)
    start = time.monotonic()
    interrupt_after(0.5)
    with pytest.raises(skein.Interrupted) as e:
        skein.run(s, every=5_000_000, threads=2)
    assert time.monotonic() - start < 10  # the whole run would take minutes
    assert isinstance(e.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    r = e.value.result
    assert not r.complete and r.frames == 2 and 0 < r.step[-1] < 5_000_000
    # the last frame is the state at the step reached: a Simulation stepped there has the same bits
    sim = skein.Simulation(s, threads=2)
    sim.step(int(r.step[-1]))
    for j in (0, 255):
        assert same_bits(r.position[-1, j], sim.positions(j))


def test_step_interrupted():
    sim = skein.Simulation(skein.load(LONG), threads=2)
    interrupt_after(0.5)
    with pytest.raises(skein.Interrupted):
        sim.step(5_000_000)
    assert 0 < sim.step_count < 5_000_000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    sim.step(10)  # still usable
    assert np.isfinite(sim.positions(0)).all()
