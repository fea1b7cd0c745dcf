"""A result of a million ropes is memory the process gives back once the result goes: the arrays are numpy's,
the engine is freed when skein.run returns."""
import gc

import numpy as np

import skein

MILLION = {"skein": 1, "dt": 1e-3, "steps": 1, "gravity": [0, -9.81, 0],
           "groups": [{"count": 1_000_000, "particles": 2, "start": [0, 0, 0], "end": [0.1, 0, 0], "mass": 0.05,
                       "pinned": [0], "link": {"type": "spring", "stiffness": 500}}],
           "output": {"every": 1}}


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_million_ropes_released():
    s = skein.load(MILLION)
    gc.collect()
    before = rss()
    r = skein.run(s, threads=2)
    assert r.position.shape == (2, 1_000_000, 2, 3) and (r.count == 2).all()
    # every rope alike: the free particle fell the same in all of them
    assert (r.position[-1, :, 1, 1] == r.position[-1, 0, 1, 1]).all() and r.position[-1, 0, 1, 1] < 0
    held = rss() - before
    arrays = sum(a.nbytes for a in (r.position, r.velocity, r.count, r.energy, r.tension))
    assert held >= arrays  # the arrays are resident
    del r
    gc.collect()
    assert rss() - before < 0.1 * arrays, "%d of %d bytes still held" % (rss() - before, arrays)
