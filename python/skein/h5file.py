"""skein.open: a command line run's HDF5 output (skein run --h5) read back into a Result."""
import builtins
import os

import numpy as np

from ._native import REAL
from .errors import Error, ScenarioError
from .result import Result


def _attr(obj, name):
    value = obj.attrs[name]
    return value.decode() if isinstance(value, bytes) else value


def open(path):
    """The Result of an HDF5 output: the same arrays skein.run gives for the same run, to the bit (slots past a
    rope's particles and links read as NaN, as skein.run's). Raises ScenarioError for a file that is not a
    skein output or was written by a build of the other real type, skein.Error (status "io") for a file that
    cannot be read. Needs h5py (python3-h5py)."""
    import h5py  # here, so that the rest of the package works without it

    unreadable(path)
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ScenarioError("%s: not an HDF5 file (%s)" % (path, e)) from None
    try:
        with f:
            return _read(f, path)
    except (KeyError, ValueError, TypeError, IndexError, AttributeError, OSError) as e:
        raise ScenarioError("%s: not a skein output (%s: %s)" % (path, type(e).__name__, e)) from None


def unreadable(path):
    """Raises skein.Error (status "io") naming the file as the library does, for a file that cannot be opened
    for reading."""
    try:
        with builtins.open(path, "rb"):
            pass
    except OSError as e:
        raise Error("%s: %s" % (path, os.strerror(e.errno) if e.errno else e), "io") from None


def _read(f, path):
    try:
        real = _attr(f, "real")
        scenario = _attr(f, "scenario")
        complete = bool(f.attrs["complete"])
        step = f["step"][:].astype(np.int64)
        time = f["time"][:]
        names = sorted(f["groups"], key=int)
        groups = [f["groups"][n] for n in names]
    except KeyError as e:
        raise ScenarioError("%s: not a skein output (%s missing)" % (path, e.args[0])) from None
    if np.dtype(REAL).name != {"double": "float64", "float": "float32"}.get(real):
        raise ScenarioError("%s: written by a %s build; this package reads %s" % (path, real, REAL.name))
    frames = len(step)
    stored = [(int(n), g) for n, g in zip(names, groups) if g["ropes"].shape[0] > 0]
    R = sum(g["ropes"].shape[0] for _, g in stored)
    N = max((int(g.attrs["particles"]) for _, g in stored), default=1)
    position = np.full((frames, R, N, 3), np.nan, dtype=REAL)
    velocity = np.full((frames, R, N, 3), np.nan, dtype=REAL)
    count = np.empty((frames, R), dtype=np.int32)
    energy = np.empty((frames, R, 3), dtype=REAL)
    tension = np.full((frames, R, max(N - 1, 0)), np.nan, dtype=REAL)
    support = np.zeros((frames, R, 2, 3), dtype=REAL)
    diverged = np.empty(R, dtype=np.int64)
    ropes = np.empty(R, dtype=np.int64)
    group = np.empty(R, dtype=np.int32)
    params = {}
    at = 0
    for gi, g in stored:
        r = g["ropes"].shape[0]
        cap = int(g.attrs["particles"])
        sl = slice(at, at + r)
        ropes[sl] = g["ropes"][:]
        group[sl] = gi
        diverged[sl] = g["diverged"][:]
        c = g["count"][:]
        count[:, sl] = c
        energy[:, sl] = g["energy"][:]
        # the file holds 0 past each rope's particles and links; the Result holds NaN there
        present = np.arange(cap)[None, None, :] < c[:, :, None]
        position[:, sl, :cap] = np.where(present[..., None], g["position"][:], np.nan)
        velocity[:, sl, :cap] = np.where(present[..., None], g["velocity"][:], np.nan)
        if cap > 1 and "tension" in g:
            links = np.arange(cap - 1)[None, None, :] < (c[:, :, None] - 1)
            tension[:, sl, :cap - 1] = np.where(links, g["tension"][:], np.nan)
        if "support_force" in g:  # written where a group's first or last particle is held
            support[:, sl] = g["support_force"][:]
        if "params" in g:
            for key in g["params"]:
                params.setdefault(key, np.full(R, np.nan, dtype=REAL))[sl] = g["params"][key][:]
        at += r
    result = Result(position, velocity, count, energy, tension, diverged, time, step, ropes, group, scenario,
                    complete, params)
    result.support_force = support
    return result
