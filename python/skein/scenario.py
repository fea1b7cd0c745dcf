"""Scenarios: loaded from a file or a dict, changed by key paths as the command line's --set changes them."""
import json
import os

import numpy as np

from ._native import ffi, lib, new_error, fail

# The label the library puts before an override in its messages: the command line's flag, so that a mistake
# reads as the command line prints it ("--set groups[0].link.stiffness=-5: ...: must be > 0").
_SET_LABEL = b"--set"


class _Loaded:
    """One validated sk_scenario, freed with this object. Engines hold it, so a scenario changed after an engine
    was made leaves that engine's scenario alone. The garbage collector may finalize it before an engine of the
    same cycle: it is then freed when the last engine goes (users counts them)."""

    def __init__(self, load):
        self.ptr = ffi.NULL
        self.users, self._finalized, self._free = 0, False, None
        err = new_error()
        ptr = load(err)
        if ptr == ffi.NULL:
            raise fail(err)
        self.ptr, self._free = ptr, lib.sk_scenario_destroy

    def release(self):
        if self._finalized and self.users == 0 and self._free is not None:
            self._free(self.ptr)
            self._free = None

    def __del__(self):
        self._finalized = True
        self.release()


def _json_value(path, value):
    """VALUE of PATH=VALUE: JSON text. A list or array given to a sweep key is its values, one per rope."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    elif isinstance(value, np.generic):
        value = value.item()
    elif isinstance(value, tuple):
        value = list(value)
    swept = path.startswith("sweep.") or ".sweep." in path
    if swept and isinstance(value, list) and not path.endswith(".values"):
        value = {"values": value}
    return json.dumps(value, allow_nan=False)


class Scenario:
    """A validated scenario. `set` changes it by key path; the properties read it as the library sees it."""

    def __init__(self, source, text=None, name=None):
        self._path = source  # a file, or None for text
        self._text = text
        self._name = name
        self._sets = []
        self._loaded = self._load(self._sets)

    def _load(self, sets):
        encoded = [s.encode() for s in sets]
        keep = [ffi.new("char[]", s) for s in encoded]
        opt = ffi.new("sk_load_options *")
        array = ffi.new("char *[]", keep)
        opt.sets = ffi.cast("const char *const *", array)
        opt.n_sets = len(keep)
        label = ffi.new("char[]", _SET_LABEL)
        opt.label = label
        if self._path is not None:
            path = ffi.new("char[]", os.fsencode(self._path))
            return _Loaded(lambda err: lib.sk_scenario_open(path, opt, err))
        text, name = ffi.new("char[]", self._text.encode()), ffi.new("char[]", self._name.encode())
        return _Loaded(lambda err: lib.sk_scenario_parse(text, name, opt, err))

    def set(self, path, value):
        """Sets the value at a key path, as `skein run --set PATH=VALUE` does: "dt", "groups[0].link.stiffness",
        "groups[1].start[2]", "groups[0].sweep.link.stiffness" (a list or numpy array there sweeps one value
        per rope; a dict is a sweep spec such as {"from": 100, "to": 900}). Raises ScenarioError with the
        command line's message, leaving the scenario as it was. Returns the scenario."""
        sets = self._sets + ["%s=%s" % (path, _json_value(path, value))]
        self._loaded = self._load(sets)
        self._sets = sets
        return self

    def copy(self):
        other = Scenario.__new__(Scenario)
        other.__dict__.update(self.__dict__)
        other._sets = list(self._sets)
        return other

    # ---- what the library reads ---------------------------------------------------------------------------
    @property
    def _c(self):
        return self._loaded.ptr

    @property
    def source(self):
        return ffi.string(lib.sk_scenario_source(self._c)).decode()

    @property
    def dt(self):
        return float(lib.sk_scenario_dt(self._c))

    @property
    def steps(self):
        return int(lib.sk_scenario_steps(self._c))

    @property
    def every(self):
        """Steps between output frames (output.every; the scenario's steps when absent)."""
        return int(lib.sk_scenario_every(self._c))

    @property
    def total_ropes(self):
        return int(lib.sk_scenario_ropes(self._c))

    @property
    def output_ropes(self):
        """The ropes the scenario's output selects (output.ropes; every rope when absent)."""
        n = ffi.new("size_t *")
        ropes = lib.sk_scenario_output_ropes(self._c, n)
        return np.frombuffer(ffi.buffer(ropes, n[0] * ffi.sizeof("size_t")), dtype=np.uintp).astype(np.int64)

    @property
    def groups(self):
        """Each group's count (ropes), first_rope and particles (capacity)."""
        out, g = [], ffi.new("sk_group_info *")
        for i in range(lib.sk_scenario_groups(self._c)):
            lib.sk_scenario_group(self._c, i, g)
            out.append({"count": int(g.count), "first_rope": int(g.first_rope), "particles": int(g.particles)})
        return out

    @property
    def json(self):
        """The scenario with every default filled in (what `skein validate` prints)."""
        return ffi.string(lib.sk_scenario_json(self._c)).decode()

    def __repr__(self):
        return "<skein.Scenario %s: %d ropes, %d steps of %g s>" % (self.source, self.total_ropes, self.steps, self.dt)


def load(source):
    """A scenario from a file (a path), a dict in the scenario format, JSON text, or a Scenario (copied).
    Raises ScenarioError (invalid) or Error (unreadable) with the command line's message."""
    if isinstance(source, Scenario):
        return source.copy()
    if isinstance(source, dict):
        return Scenario(None, json.dumps(source, allow_nan=False), "<dict>")
    if isinstance(source, (str, bytes, os.PathLike)):
        return Scenario(os.fspath(source))
    raise TypeError("skein.load: a path, a dict or a Scenario, not %s" % type(source).__name__)


def scenario_of(source):
    return source if isinstance(source, Scenario) else load(source)
