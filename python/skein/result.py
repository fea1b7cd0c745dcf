"""What a run gives: its frames as numpy arrays, from skein.run or read back from an HDF5 output (skein.open)."""


class Result:
    """A run's output frames for its selected ropes (R of them, in rope order), padded to the largest group
    capacity N among them:

    position, velocity  [frames][R][N][3]  m, m/s; NaN past a rope's particles (a deploying rope grows)
    count               [frames][R]        particles present
    energy              [frames][R][3]     kinetic, gravity, elastic (J)
    tension             [frames][R][N-1]   link tension (N); NaN past a rope's links
    support_force       [frames][R][2][3]  the force holding the first [0] and the last [1] particle where it is
                                           pinned or held by a pin anchor (N); zero where that end is free
    diverged            [R]                the step each rope diverged at, -1 if never
    time, step          [frames]           s (step * dt) and the step of each frame
    ropes, group        [R]                each rope's global index and its group
    params              {key: [R]}         each swept parameter's per-rope value (NaN for ropes of groups
                                           that do not sweep it), key as written ("link.stiffness")
    scenario            the scenario's JSON with every default (what `skein validate` prints)
    complete            False for a run stopped early (Ctrl-C) or a file kept as .incomplete

    table               {column: [every rope of the scenario]}: the per-rope table of `skein run --results`
                        (rope, group, swept values, tip, energies, max_tension, max_strain,
                        max_support_first and max_support_last over every step, diverged_step) from skein.run(..., table=True); None otherwise
    stats               skein.run's figures: particle_steps, steps, wall_s (the run, frames included),
                        step_s (stepping alone); None from skein.open

    Arrays are in the library's real type (float64, float32 in a float build). skein.run's arrays are the ones
    the library wrote into (no copy). to_vtk(dir) writes the frames for ParaView."""

    table = None
    stats = None
    support_force = None

    def __init__(self, position, velocity, count, energy, tension, diverged, time, step, ropes, group, scenario,
                 complete, params):
        self.position, self.velocity, self.count = position, velocity, count
        self.energy, self.tension, self.diverged = energy, tension, diverged
        self.time, self.step, self.ropes, self.group = time, step, ropes, group
        self.scenario, self.complete = scenario, complete
        self._params = params

    @property
    def params(self):
        # Computed on first use: a sweep over a million ropes is a million lookups.
        if callable(self._params):
            self._params = self._params()
        return self._params

    @property
    def frames(self):
        return len(self.step)

    def to_vtk(self, directory, cells="links"):
        """Writes the frames as a ParaView collection: directory/skein.pvd and one VTK XML PolyData file per frame,
        the files `skein run --vtk` writes for the same run, byte for byte. cells: "links" (a line cell per link,
        cell data tension) or "ropes" (a polyline per rope, cell data max_tension). The directory is written
        beside its name and renamed onto it at the end, with the command line's rules: a missing or empty
        directory, or an earlier skein output (replaced); anything else raises ScenarioError. Returns directory."""
        import os

        import numpy as np

        from ._native import REAL, ffi, lib, new_error, fail, real_pointer

        layouts = {"links": lib.SK_VTK_LINKS, "ropes": lib.SK_VTK_POLYLINES}
        if cells not in layouts:
            raise ValueError('cells: "%s" is not "links" or "ropes"' % cells)
        err = new_error()
        w = lib.sk_vtk_open(os.fsencode(directory), 0, ffi.NULL, 0, layouts[cells], err)
        if w == ffi.NULL:
            raise fail(err)
        try:
            ids = np.ascontiguousarray(self.ropes, dtype=np.uintp)
            ids_c = ffi.cast("size_t *", ffi.from_buffer(ids))
            for k in range(self.frames):
                counts = np.ascontiguousarray(self.count[k], dtype=np.intc)
                # the ropes' particles and links one rope after another, as the writer takes them
                present = np.arange(self.position.shape[2])[None, :] < counts[:, None]
                p = np.ascontiguousarray(self.position[k][present], dtype=REAL)
                v = np.ascontiguousarray(self.velocity[k][present], dtype=REAL)
                links = np.arange(self.tension.shape[2])[None, :] < (counts[:, None] - 1)
                t = np.ascontiguousarray(self.tension[k][links], dtype=REAL)
                if not t.size:
                    t = np.zeros(1, dtype=REAL)  # no links: the array is still written, empty, as the CLI does
                status = lib.sk_vtk_write_arrays(w, int(self.step[k]), REAL.type(self.time[k]), len(ids), ids_c,
                                                 ffi.cast("int *", ffi.from_buffer(counts)), real_pointer(p),
                                                 real_pointer(v), real_pointer(t), err)
                if status != lib.SK_OK:
                    raise fail(err)
        except BaseException:
            lib.sk_vtk_abort(w)
            raise
        if lib.sk_vtk_commit(w, err) != lib.SK_OK:
            raise fail(err)
        return directory

    def __repr__(self):
        return "<skein.Result: %d frames (steps %s to %s) of %d ropes%s>" % (
            self.frames, self.step[0] if self.frames else "-", self.step[-1] if self.frames else "-",
            len(self.ropes), "" if self.complete else ", incomplete")
