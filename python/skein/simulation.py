"""skein.Simulation: an engine stepped by the caller, for control loops: step, read ropes, move anchors."""
import numpy as np

from ._args import LONG_MAX, integer
from ._interrupt import StopOnInterrupt
from ._native import REAL, ffi, lib, new_error, check, fail, real_pointer
from .errors import Interrupted, ScenarioError
from .run import Engine
from .scenario import scenario_of

# Steps below this go to the engine in one call (a control loop's few steps); more go through the run
# driver, in chunks of about a tenth of a second, so that Ctrl-C stops them. The results are the same.
_DRIVEN = 1000


class Simulation:
    """Every rope of a scenario at step 0, advanced by step(n). Each step(n) ends with the divergence check of
    an output frame, so stepping by a run's `every` gives that run's frames to the bit."""

    def __init__(self, scenario, engine="batch", isa=None, threads=0):
        self.scenario = scenario_of(scenario)
        self._engine = Engine(self.scenario._loaded, engine, isa, threads)
        self._e = self._engine.ptr
        self._dt = REAL.type(lib.sk_scenario_dt(self.scenario._c))
        self._total = int(lib.sk_scenario_ropes(self.scenario._c))

    def _rope(self, rope):
        rope = integer("rope", rope, -LONG_MAX - 1, LONG_MAX)
        if not 0 <= rope < self._total:
            raise ScenarioError("rope %d: out of range (%d ropes)" % (rope, self._total))
        return rope

    def step(self, n=1):
        """Advances every rope that has not diverged by n steps, then checks each for divergence. Returns the
        particle-steps done. Ctrl-C during a long step stops it at the step reached (step_count) and raises
        skein.Interrupted."""
        n = integer("step", n, 0, LONG_MAX - self.step_count)
        if n < _DRIVEN:
            diverged = ffi.new("size_t *")
            return int(lib.sk_engine_advance_checked(self._e, n, diverged))
        to = self.step_count + n
        stats, err = ffi.new("sk_run_stats *"), new_error()
        with StopOnInterrupt() as guard:
            opt = ffi.new("sk_run_options *")
            opt.steps, opt.every = to, to  # no frame between here and `to`: the check at its end alone
            opt.progress, opt.stop = guard.callback, guard.flag
            opt.resumed = True  # this step was checked already
            status = lib.sk_run(self._e, opt, stats, err)
        if status == lib.SK_ERR_INTERRUPTED:
            raise Interrupted("skein.Simulation.step: interrupted at step %d" % self.step_count)
        if status != lib.SK_OK:
            raise fail(err)
        return int(stats.particle_steps)

    @property
    def step_count(self):
        return int(lib.sk_engine_step(self._e))

    @property
    def time(self):
        """Simulated time, step * dt (s), in the library's real type."""
        return REAL.type(self.step_count) * self._dt

    @property
    def ropes(self):
        return self._total

    def count(self, rope):
        """Particles present in a rope (a deploying rope grows)."""
        return int(lib.sk_engine_rope_particles(self._e, self._rope(rope)))

    def positions(self, rope):
        """A rope's positions, [n][3] (m), a new array."""
        rope = self._rope(rope)
        p = np.empty((self.count(rope), 3), dtype=REAL)
        lib.sk_engine_read_rope(self._e, rope, real_pointer(p), ffi.NULL)
        return p

    def velocities(self, rope):
        """A rope's velocities, [n][3] (m/s), a new array."""
        rope = self._rope(rope)
        v = np.empty((self.count(rope), 3), dtype=REAL)
        lib.sk_engine_read_rope(self._e, rope, ffi.NULL, real_pointer(v))
        return v

    def diagnostics(self, rope):
        """A rope's energies (J), its anchor's force on the particle it holds (N), its length (m) and its link
        tensions (N, [n - 1])."""
        rope = self._rope(rope)
        n = self.count(rope)
        d = ffi.new("sk_rope_diagnostics *")
        tension = np.empty(max(n - 1, 0), dtype=REAL)
        lib.sk_engine_rope_diagnostics(self._e, rope, d, real_pointer(tension) if n > 1 else ffi.NULL)
        return {"kinetic": float(d.kinetic), "gravity": float(d.gravity), "elastic": float(d.elastic),
                "anchor_force": np.array([d.anchor_force.x, d.anchor_force.y, d.anchor_force.z], dtype=REAL),
                "length": float(d.length), "tension": tension}

    def diverged(self, rope):
        """The step the rope was marked diverged at, or -1."""
        return int(lib.sk_engine_rope_diverged(self._e, self._rope(rope)))

    def set_anchor(self, rope, point):
        """Moves a rope's anchor point (its anchor.point) to `point` (x, y, z in m) from the next step on; a
        driven anchor's motion adds to it (docs/model.md section 6.6). Raises ScenarioError for a rope
        without an anchor or a non-finite point."""
        x, y, z = (float(c) for c in point)
        err = new_error()
        check(lib.sk_engine_set_anchor(self._e, integer("rope", rope, 0, LONG_MAX), (x, y, z), err), err)

    def close(self):
        """Frees the engine now (otherwise when the Simulation is collected)."""
        self._e = self._engine = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "<skein.Simulation %s at step %d>" % (self.scenario.source, self.step_count)
