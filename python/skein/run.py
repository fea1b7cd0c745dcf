"""skein.run: a scenario run to its end, its frames copied by the library straight into numpy arrays."""
import numpy as np

from ._args import LONG_MAX, MAX_THREADS, integer, integers
from ._interrupt import StopOnInterrupt, progress_bar
from ._native import REAL, ffi, lib, new_error, fail, real_pointer
from .errors import Interrupted, ScenarioError
from .result import Result
from .scenario import scenario_of


def engine_options(engine, isa, threads, track_extremes=False):
    opt = ffi.new("sk_engine_options *")
    opt.track_extremes = bool(track_extremes)
    keep = []
    if engine is not None:
        keep.append(ffi.new("char[]", engine.encode()))
        opt.engine = keep[-1]
    if isa is not None:
        keep.append(ffi.new("char[]", isa.encode()))
        opt.isa = keep[-1]
    opt.threads = integer("threads", threads, 0, MAX_THREADS)
    return opt, keep


class Engine:
    """An engine of a loaded scenario, destroyed with this object; it holds the scenario, which must outlive it."""

    def __init__(self, loaded, engine, isa, threads, track_extremes=False):
        self.loaded = loaded
        self.ptr = None
        opt, _keep = engine_options(engine, isa, threads, track_extremes)
        err = new_error()
        e = lib.sk_engine_create(loaded.ptr, opt, err)
        if e == ffi.NULL:
            raise fail(err)
        self.ptr, self._destroy = e, lib.sk_engine_destroy
        loaded.users += 1

    def __del__(self):
        if self.ptr is not None:
            self._destroy(self.ptr)
            self.ptr = None
            self.loaded.users -= 1
            self.loaded.release()


def frame_count(steps, every):
    """Frames of a run from step 0: step 0, every multiple of every up to steps, and steps."""
    return 1 + steps // every + (1 if steps % every else 0) if steps > 0 else 1


def select_ropes(sc, ropes):
    total = sc.total_ropes
    if ropes is None:
        return sc.output_ropes
    selected = np.unique(integers("ropes", ropes))
    if selected.size == 0:
        raise ScenarioError("ropes: none selected")
    if selected[0] < 0 or selected[-1] >= total:
        bad = selected[0] if selected[0] < 0 else selected[-1]
        raise ScenarioError("ropes: rope %d is out of range (%s has %d ropes)" % (bad, sc.source, total))
    return selected


def rope_groups(sc, ropes):
    firsts = np.array([g["first_rope"] for g in sc.groups], dtype=np.int64)
    return (np.searchsorted(firsts, ropes, side="right") - 1).astype(np.int32)


def swept_params(loaded, ropes, group):
    """{key: [R]}: each swept key's value for the selected ropes of the groups that sweep it, NaN elsewhere."""
    c = loaded.ptr
    out = {}
    g, value, err = ffi.new("sk_group_info *"), ffi.new("double *"), new_error()
    for gi in range(lib.sk_scenario_groups(c)):
        lib.sk_scenario_group(c, gi, g)
        if g.sweeps == 0:
            continue
        mine = np.nonzero(group == gi)[0]
        keys = [lib.sk_scenario_sweep_key(c, gi, k) for k in range(g.sweeps)]
        for key in keys:
            column = out.setdefault(ffi.string(key).decode(), np.full(len(ropes), np.nan, dtype=REAL))
            for j in mine:
                if lib.sk_scenario_param(c, int(ropes[j]), key, value, err) != lib.SK_OK:
                    raise fail(err)
                column[j] = value[0]  # an sk_real widened to double: exact back in REAL
    return out


# Columns of the results table that hold integers (as doubles in a row; NaN never).
_INTEGER_COLUMNS = ("rope", "group", "diverged_step")


def results_table(loaded, engine):
    """{column: [every rope of the scenario]}: the rows `skein run --results` writes, as numpy columns."""
    n = lib.sk_results_columns(loaded.ptr, ffi.NULL, 0)
    names = ffi.new("const char *[]", n)
    lib.sk_results_columns(loaded.ptr, names, n)
    total = int(lib.sk_scenario_ropes(loaded.ptr))
    rows = np.empty((total, n), dtype=np.float64)
    base, err = ffi.cast("double *", ffi.from_buffer(rows, require_writable=True)), new_error()
    for rope in range(total):
        if lib.sk_results_row(engine.ptr, rope, base + rope * n, n, err) != lib.SK_OK:
            raise fail(err)
    table = {}
    for k in range(n):
        name = ffi.string(names[k]).decode()
        column = rows[:, k]
        table[name] = column.astype(np.int64) if name in _INTEGER_COLUMNS else column.copy()
    return table


def run(scenario, steps=None, every=None, ropes=None, threads=0, engine="batch", isa=None, progress=False,
        table=False):
    """Runs a scenario (a Scenario, a path or a dict) from step 0 to `steps` (default: the scenario's) with a
    frame at step 0, every multiple of `every` (default: output.every) and the last step, for the ropes
    `ropes` (global indices; default: output.ropes). threads: 0 for OpenMP's default; engine "batch" or
    "reference"; isa "auto", "avx512", "avx2", "scalar"; progress: a progress line on stderr; table: track every
    rope's largest link tension and strain at every step (stepping costs more) and give result.table, the
    columns of `skein run --results` for every rope of the scenario.
    Returns a Result. Ctrl-C stops the run at the end of the chunk of steps under way and raises
    skein.Interrupted (a KeyboardInterrupt) whose `result` holds the frames so far."""
    sc = scenario_of(scenario)
    loaded = sc._loaded
    steps = sc.steps if steps is None else integer("steps", steps, 0, LONG_MAX)
    every = sc.every if every is None else integer("every", every, 1, LONG_MAX)
    selected = select_ropes(sc, ropes)
    group = rope_groups(sc, selected)
    capacity = max(sc.groups[g]["particles"] for g in np.unique(group))
    frames, R, N = frame_count(steps, every), len(selected), capacity

    position = np.empty((frames, R, N, 3), dtype=REAL)
    velocity = np.empty((frames, R, N, 3), dtype=REAL)
    count = np.empty((frames, R), dtype=np.int32)
    energy = np.empty((frames, R, 3), dtype=REAL)
    tension = np.empty((frames, R, max(N - 1, 0)), dtype=REAL)
    support = np.empty((frames, R, 2, 3), dtype=REAL)
    step = np.empty(frames, dtype=np.int64)
    diverged = np.full(R, -1, dtype=np.int64)
    ropes_c = np.ascontiguousarray(selected, dtype=np.uintp)

    engine = Engine(loaded, engine, isa, threads, track_extremes=table)
    fa = ffi.new("sk_frame_arrays *")
    fa.ropes = ffi.cast("size_t *", ffi.from_buffer(ropes_c))
    fa.n_ropes, fa.particles, fa.max_frames = R, N, frames
    fa.position, fa.velocity = real_pointer(position), real_pointer(velocity)
    fa.count = ffi.cast("int32_t *", ffi.from_buffer(count, require_writable=True))
    fa.energy, fa.tension = real_pointer(energy), real_pointer(tension) if tension.size else ffi.NULL
    fa.support = real_pointer(support)
    fa.step = ffi.cast("int64_t *", ffi.from_buffer(step, require_writable=True))
    fa.diverged = ffi.cast("int64_t *", ffi.from_buffer(diverged, require_writable=True))
    sink = ffi.new("sk_frame_sink *")
    sink.frame, sink.ctx = lib.sk_frame_arrays_sink, fa

    stats, err = ffi.new("sk_run_stats *"), new_error()
    with StopOnInterrupt(progress_bar() if progress else None) as guard:
        opt = ffi.new("sk_run_options *")
        opt.steps, opt.every, opt.sinks, opt.n_sinks = steps, every, sink, 1
        opt.progress, opt.stop = guard.callback, guard.flag
        status = lib.sk_run(engine.ptr, opt, stats, err)
    done = int(fa.frames)
    rows = results_table(loaded, engine) if table and status in (lib.SK_OK, lib.SK_ERR_INTERRUPTED) else None
    del engine  # the engine's memory goes now, not with the next collection

    def cut(a):
        return a if done == frames else a[:done]

    step = cut(step)
    time = step.astype(REAL) * REAL.type(lib.sk_scenario_dt(sc._c))
    result = Result(cut(position), cut(velocity), cut(count), cut(energy), cut(tension), diverged, time, step,
                    selected, group, sc.json, status == lib.SK_OK,
                    lambda: swept_params(loaded, selected, group))
    result.support_force = cut(support)
    result.table = rows
    result.stats = {"particle_steps": int(stats.particle_steps), "steps": int(stats.steps),
                    "wall_s": float(stats.wall_s), "step_s": float(stats.step_s)}
    if status == lib.SK_ERR_INTERRUPTED:
        raise Interrupted("skein.run: interrupted at step %d of %d" % (int(step[-1]) if done else 0, steps), result)
    if status != lib.SK_OK:
        raise fail(err)
    return result
