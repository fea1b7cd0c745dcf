"""What a run gives: its frames as numpy arrays, from skein.run or read back from an HDF5 output (skein.open)."""


class Result:
    """A run's output frames for its selected ropes (R of them, in rope order), padded to the largest group
    capacity N among them:

    position, velocity  [frames][R][N][3]  m, m/s; NaN past a rope's particles (a deploying rope grows)
    count               [frames][R]        particles present
    energy              [frames][R][3]     kinetic, gravity, elastic (J)
    tension             [frames][R][N-1]   link tension (N); NaN past a rope's links
    diverged            [R]                the step each rope diverged at, -1 if never
    time, step          [frames]           s (step * dt) and the step of each frame
    ropes, group        [R]                each rope's global index and its group
    params              {key: [R]}         each swept parameter's per-rope value (NaN for ropes of groups
                                           that do not sweep it), key as written ("link.stiffness")
    scenario            the scenario's JSON with every default (what `skein validate` prints)
    complete            False for a run stopped early (Ctrl-C) or a file kept as .incomplete

    stats               skein.run's figures: particle_steps, steps, wall_s (the run, frames included),
                        step_s (stepping alone); None from skein.open

    Arrays are in the library's real type (float64, float32 in a float build). skein.run's arrays are the ones
    the library wrote into (no copy). `table` (a per-rope table of per-step maxima) is None until the
    library's results table is bound here; a to_vtk(dir) method (ParaView files) is to come the same way."""

    table = None
    stats = None

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

    def __repr__(self):
        return "<skein.Result: %d frames (steps %s to %s) of %d ropes%s>" % (
            self.frames, self.step[0] if self.frames else "-", self.step[-1] if self.frames else "-",
            len(self.ropes), "" if self.complete else ", incomplete")
