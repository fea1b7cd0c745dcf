"""A result of a million ropes is memory the process gives back once the result goes: the arrays are numpy's
(traced by tracemalloc), the engine is freed when skein.run returns, and runs one after another do not pile up."""
import ctypes
import gc
import tracemalloc

import skein

MILLION = {"skein": 1, "dt": 1e-3, "steps": 1, "gravity": [0, -9.81, 0],
           "groups": [{"count": 1_000_000, "particles": 2, "start": [0, 0, 0], "end": [0.1, 0, 0], "mass": 0.05,
                       "pinned": [0], "link": {"type": "spring", "stiffness": 500}}],
           "output": {"every": 1}}


def rss():
    """Resident bytes, after glibc hands back the free memory at the top of its heap (a freed block below its
    growing mmap threshold stays in the heap otherwise, which is not a leak)."""
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_million_ropes_released():
    s = skein.load(MILLION)
    before = rss()
    tracemalloc.start()
    try:
        r = skein.run(s, threads=2)
        assert r.position.shape == (2, 1_000_000, 2, 3) and (r.count == 2).all()
        # every rope alike: the free particle fell the same in all of them
        assert (r.position[-1, :, 1, 1] == r.position[-1, 0, 1, 1]).all() and r.position[-1, 0, 1, 1] < 0
        arrays = sum(a.nbytes for a in (r.position, r.velocity, r.count, r.energy, r.tension, r.diverged))
        assert tracemalloc.get_traced_memory()[0] >= arrays and rss() - before >= arrays
        del r
        gc.collect()
        assert tracemalloc.get_traced_memory()[0] < 1e6  # numpy freed every array
    finally:
        tracemalloc.stop()
    first = rss() - before
    for _ in range(2):
        skein.run(s, threads=2)
    again = rss() - before
    assert first < 0.25 * arrays and again < first + 0.05 * arrays, (first, again, arrays)
