#!/usr/bin/python3
"""The validation suite (docs/validation.md): runs a case's scenarios (tests/validation/*.json) with skein,
reads the HDF5 output and checks it against the published series (tests/validation/data/) or a closed
form, with the tolerances of issue 28. Prints each figure compared and the largest error; exit 0 when
within tolerance, 1 otherwise (a scenario skein refuses, such as a key it does not know yet, is a failure
that names the key), 77 when the case cannot run in this build (ctest's SKIP).

usage: compare.py CASE SKEIN WORKDIR [--series FILE]
  CASE     one of CASES below
  SKEIN    the skein program
  WORKDIR  a folder for the runs' outputs (created)
  --series FILE  also write the compared series as CSV (time, skein, reference) for docs/validation.py

Axes: skein's y is up; MoorDyn's files have z up, and a scenario maps MoorDyn's (x, y, z) to skein's
(x, z, -y) (make_paths.py): a skein vector (x, y, z) is MoorDyn's (x, -z, y).
"""
import json
import math
import os
import re
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


class Unsupported(Exception):
    pass


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def bdf2(dt):
    """The top-level keys that run a case under BDF2 (implicit.scheme bdf2, its defaults) at step dt, a frame
    every step."""
    return {"integrator": "implicit", "implicit": {"scheme": "bdf2"}, "dt": dt, "output": {"every": 1}}


# The static state solved (`"initial": {"equilibrium": true}`) rather than settled: frame 0 is the rest the
# Newton solve found, to 1e-2 N in every component of every particle's force (the lines' forces are 1e4 to
# 1e6 N; their round-off EA / L times a coordinate's, 1e-5 N at most); the jumper takes 313 solves from its
# straight chord, near enough the default 500 that the case allows 2000.
EQUILIBRIUM = {"initial": {"equilibrium": True, "tolerance": 1e-2, "iterations": 2000}, "duration": 0}


def file_dt(scenario):
    """The step a case's scenario file is written with (s)."""
    with open(os.path.join(HERE, scenario)) as f:
        return float(json.load(f)["dt"])


def run(skein, scenario, out, warm_from=None, keys=None):
    """Runs one scenario, frames to out (HDF5); warm_from: the HDF5 file whose last frame it starts from;
    keys: top-level keys replaced (another integrator and step)."""
    path = os.path.join(HERE, scenario)
    if warm_from or keys:
        with open(path) as f:
            s = json.load(f)
        if warm_from:
            s["initial"] = {"from": os.path.abspath(warm_from), "frame": -1}
        s.update(keys or {})
        path = os.path.splitext(out)[0] + "_scenario.json"
        with open(path, "w") as f:
            json.dump(s, f)
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([skein, "run", path, "--h5", out, "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        err = p.stderr.strip()
        m = re.search(r": (\S+): unknown key", err)
        if m:
            raise Unsupported(f"not yet supported: key {m.group(1)} ({scenario}; skein: {err})")
        fail(f"skein run {scenario}: exit status {p.returncode}: {err}")
    return h5py.File(out, "r")


def real_type(h5):
    r = h5.attrs["real"]
    return r.decode() if isinstance(r, bytes) else str(r)


def float_build(skein):
    p = subprocess.run([skein, "info"], capture_output=True, text=True)
    return re.search(r"^real type +float$", p.stdout, re.M) is not None


def skip_in_float(skein, why):
    if float_build(skein):
        print(f"SKIP: in a float build: {why}")
        sys.exit(77)


JUMPER_FLOAT = ("one rounding of a coordinate near 100 m (6e-6 m) is a strain of 2.4e-6 of a 2.5 m segment, "
                "1.2 kN of the EA 5e8 line's tension: the 0.2 kN and 1 kN tolerances are below float's resolution")
CHAIN_STATIC_FLOAT = ("the tension's rounding (5 to 10 kN of the EA 1.674e9 chain's per rounding of a coordinate) keeps "
                      "the settled chain trembling at 1.5e-2 to 2.7e-2 m/s, above the seabed friction's slip speed "
                      "(0.01 m/s): the friction then holds the grounded part stretched (anchor tension 1130 kN in "
                      "float, 839.6 kN in double, 50 m)")
CHAIN_FLOAT = ("one rounding of a coordinate near 400 to 700 m (3e-5 to 6e-5 m) is a strain of 3e-6 to 6e-6 of a "
               "10 m segment, 5 to 10 kN of the EA 1.674e9 chain's tension: the size of the 15 % band (15 kN, 36 kN)")


def support(h5):
    """support_force [frames][2][3] of the first group's first rope (N), and the frames' times (s)."""
    g = h5["groups/0"]
    if "support_force" not in g:
        raise Unsupported("not yet supported: HDF5 dataset support_force (the ends' support forces)")
    return np.array(h5["time"]), np.array(g["support_force"][:, 0, :, :], dtype=float)


def to_moordyn(v):
    return np.array([v[..., 0], -v[..., 2], v[..., 1]]).transpose(list(range(1, v.ndim)) + [0])


def settled(h5, limit):
    v = np.array(h5["groups/0/velocity"][-1, 0], dtype=float)
    speed = float(np.max(np.linalg.norm(v, axis=1)))
    print(f"  settled: largest particle speed in the last frame {speed:.2e} m/s (at most {limit:g})")
    if not speed <= limit:
        fail(f"the static run has not come to rest: {speed:.3g} m/s")


def write_series(path, t, sim, ref):
    if path:
        with open(path, "w") as f:
            f.write("time,skein,reference\n")
            for a, b, c in zip(t, sim, ref):
                f.write(f"{a:.6g},{b:.9g},{c:.9g}\n")


def read_rows(name, sep=None):
    rows = []
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            cols = line.replace(",", " ").split() if sep == "," else line.split()
            if cols:
                rows.append([float(c) for c in cols])
    return np.array(rows)


# --- Lowe and Langley 2006 --------------------------------------------------------------------------
def jumper_static(skein, work, args, solved=False):
    """The settled jumper's support forces (the file's damped settle), or the static solve's (solved)."""
    skip_in_float(skein, JUMPER_FLOAT)
    h5 = run(skein, "jumper_static.json", os.path.join(work, "jumper_static" + ("_solved" if solved else "") + ".h5"),
             keys=EQUILIBRIUM if solved else None)
    settled(h5, 1e-3)
    _, f = support(h5)
    top, bottom = to_moordyn(f[-1, 0]) / 1e3, to_moordyn(f[-1, 1]) / 1e3
    worst = 0.0
    for name, got, ref in (("top", top, (11.40, 0.0, 45.71)), ("bottom", bottom, (-11.40, 0.0, 24.04))):
        err = np.abs(got - np.array(ref))
        worst = max(worst, float(err.max()))
        print(f"  {name} support force (kN, MoorDyn axes): skein ({got[0]:.3f}, {got[1]:.3f}, {got[2]:.3f}),"
              f" published ({ref[0]}, {ref[1]}, {ref[2]}), largest difference {err.max():.3f} kN")
    print(f"  largest difference {worst:.3f} kN (tolerance 0.2 kN per component)")
    return worst <= 0.2, h5


def static_state(skein, work, case, check):
    """The static case's HDF5 output (CASE.h5): ctest's fixture, the static test's own (in WORKDIR's sibling
    folder CASE), where newer than skein and the scenario; otherwise the static case is run (and checked) here."""
    made = os.path.join(os.path.dirname(os.path.abspath(work)), case, case + ".h5")
    if os.path.exists(made) and all(os.path.getmtime(made) > os.path.getmtime(f)
                                    for f in (skein, os.path.join(HERE, case + ".json"))):
        print(f"  static state: {made} (the test validation.{case})")
        return made
    if not check(skein, work):
        print("  (the static state is off: the case compares against it anyway)")
    return os.path.join(work, case + ".h5")


def jumper_case(case, ramp, args, skein, work, dt=None):
    """Case 1, 2 or 4 as published (symplectic at the file's dt), or under BDF2 at step dt."""
    skip_in_float(skein, JUMPER_FLOAT)
    static = static_state(skein, work, "jumper_static", lambda sk, w: jumper_static(sk, w, args)[0])
    name = f"jumper_case{case}" + ("_bdf2" if dt else "")
    h5 = run(skein, f"jumper_case{case}.json", os.path.join(work, name + ".h5"), warm_from=static,
             keys=bdf2(dt) if dt else None)
    if dt:
        print(f"  BDF2 at dt {dt:g} s ({dt / file_dt(f'jumper_case{case}.json'):g} times the step of the case's file)")
    t, f = support(h5)
    tension = np.linalg.norm(f[:, 0, :], axis=1) / 1e3  # the top end's: MoorDyn's node force magnitude
    ref = read_rows(f"lowe_langley_case{case}.csv", ",")
    t_ref = ref[:, 0] + ramp
    if t_ref[-1] > t[-1] + 1e-9:
        fail(f"the run ends at {t[-1]} s, before the last sample at {t_ref[-1]} s")
    sim = np.interp(t_ref, t, tension)
    if case == 4 and np.ptp(sim) < 0.01 * np.ptp(ref[:, 1]):
        raise Unsupported(f"not yet supported: key water.waves (the top tension stays within {np.ptp(sim):.2g} kN "
                          f"where the published one swings {np.ptp(ref[:, 1]):.3g} kN: skein took the waves as "
                          "still water)")
    err = np.abs(sim - ref[:, 1])
    i = int(np.argmax(err))
    print(f"  top tension over {len(ref)} published samples ({ref[0, 0]:g} to {ref[-1, 0]:g} s after the "
          f"{ramp:g} s ramp): largest difference {err[i]:.3f} kN at {ref[i, 0]:g} s (skein {sim[i]:.3f}, "
          f"published {ref[i, 1]:.3f}); mean {err.mean():.3f} kN (tolerance 1 kN at every sample)")
    write_series(args.get("series"), ref[:, 0], sim, ref[:, 1])
    return err.max() <= 1.0


# --- chain catenaries ---------------------------------------------------------------------------------
CHAIN_STATIC = {"0050": (991.6, 826.2), "0200": (2065.4, 1402.2)}


def chain_static(depth, skein, work, solved=False):
    """The settled chain's tensions (the file's damped settle), or the static solve's (solved)."""
    skip_in_float(skein, CHAIN_STATIC_FLOAT)
    name = f"chain_{depth}_static" + ("_solved" if solved else "")
    h5 = run(skein, f"chain_{depth}_static.json", os.path.join(work, name + ".h5"), keys=EQUILIBRIUM if solved else None)
    settled(h5, 1e-3)
    _, f = support(h5)
    fair, anch = np.linalg.norm(f[-1, 0]) / 1e3, np.linalg.norm(f[-1, 1]) / 1e3
    rf, ra = CHAIN_STATIC[depth]
    ef, ea = abs(fair - rf) / rf, abs(anch - ra) / ra
    print(f"  fairlead tension {fair:.1f} kN (quasi-static codes {rf}), error {100 * ef:.2f} %")
    print(f"  anchor tension {anch:.1f} kN (quasi-static codes {ra}), error {100 * ea:.2f} % (tolerance 10 %)")
    return max(ef, ea) <= 0.10, fair


def chain_heave(depth, skein, work, args, dt=None):
    """The fairlead heaved as published (symplectic at the file's dt), or under BDF2 at step dt."""
    skip_in_float(skein, CHAIN_FLOAT)
    static = static_state(skein, work, f"chain_{depth}_static", lambda sk, w: chain_static(depth, sk, w)[0])
    with h5py.File(static, "r") as f:
        fair0 = float(np.linalg.norm(f["groups/0/support_force"][-1, 0, 0])) / 1e3
    name = f"chain_{depth}_heave" + ("_bdf2" if dt else "")
    h5 = run(skein, f"chain_{depth}_heave.json", os.path.join(work, name + ".h5"), warm_from=static,
             keys=bdf2(dt) if dt else None)
    if dt:
        print(f"  BDF2 at dt {dt:g} s ({dt / file_dt(f'chain_{depth}_heave.json'):g} times the step of the case's file)")
    t, f = support(h5)
    tension = np.linalg.norm(f[:, 0, :], axis=1) / 1e3
    ref = read_rows(f"WD{depth}_Chain_ZZP1_A1.txt")[:200]  # MoorDyn's test reads t_ref 0 to 19.9 s
    rf = CHAIN_STATIC[depth][0]
    # The path's time 0 is ZZP1_A1's -10 s. The table's velocity is constant over each 0.1 s row and jumps
    # between rows, and with it the top link's damping force (c = 8.1e5 N s/m in 50 m of water): the
    # tension is a sawtooth of the rows' period, about 30 kN from tooth to tooth. MoorDyn's test drives its
    # fairlead the same way and reads the tension at the end of a row (a tooth's top). Compared here: the
    # tension's mean over the row interval centred on each reference time (frames every 0.01 s); its value
    # at the instant is printed too.
    t_ref = ref[:, 0] + 10.0
    instant = np.interp(t_ref, t, tension)
    sim = np.array([tension[(t > tr - 0.05 + 1e-9) & (t <= tr + 0.05 + 1e-9)].mean() for tr in t_ref])
    swing, swing_ref = sim - fair0, ref[:, 3] - rf
    at_instant = np.abs(instant - fair0 - swing_ref).max() / (2 * np.abs(swing_ref).max())
    print(f"  at the reference instants themselves (a tooth of the rows' sawtooth): {100 * at_instant:.2f} %")
    err = np.abs(swing - swing_ref)
    i = int(np.argmax(err))
    rel = err.max() / (2 * np.abs(swing_ref).max())
    print(f"  fairlead tension's swing about its static value over {len(ref)} samples: largest difference "
          f"{err[i]:.1f} kN at {ref[i, 0]:g} s (skein {swing[i]:.1f}, reference {swing_ref[i]:.1f}); "
          f"relative to twice the reference's largest swing ({np.abs(swing_ref).max():.1f} kN): "
          f"{100 * rel:.2f} % (tolerance 15 %, MoorDyn's measure, on the tension's mean over each 0.1 s row)")
    write_series(args.get("series"), ref[:, 0], sim, ref[:, 3])
    return rel <= 0.15


# --- closed forms -------------------------------------------------------------------------------------
def elastic_catenary(dx, dy, L, w, EA):
    """H and V_A of an elastic catenary of unstretched length L, weight w per unstretched length, from A
    to B = A + (dx, dy): tension (H, V_A + w s) at arc s, Newton on the two end equations."""

    def ends(H, VA):
        s = L
        x = H * s / EA + H / w * (math.asinh((VA + w * s) / H) - math.asinh(VA / H))
        y = (VA * s + w * s * s / 2) / EA + H / w * (math.hypot(1, (VA + w * s) / H) - math.hypot(1, VA / H))
        return np.array([x - dx, y - dy])

    H, VA = w * L, -w * L / 2
    for _ in range(100):
        r = ends(H, VA)
        J = np.zeros((2, 2))
        for k, (dH, dV) in enumerate(((1e-6 * H, 0), (0, 1e-6 * H))):
            J[:, k] = (ends(H + dH, VA + dV) - r) / (dH + dV)
        step = np.linalg.solve(J, -r)
        H, VA = max(H + step[0], 1e-3 * H), VA + step[1]
        if np.abs(r).max() < 1e-12 * L:
            break
    return H, VA


def catenary_air(skein, work, args):
    with open(os.path.join(HERE, "catenary_air.json")) as f:
        s = json.load(f)
    g = s["groups"][0]
    line, gy = g["line"], -s["gravity"][1]
    dx, dy = g["end"][0] - g["start"][0], g["end"][1] - g["start"][1]
    H, VA = elastic_catenary(dx, dy, line["length"], line["mass_per_length"] * gy, line["EA"])
    w, L = line["mass_per_length"] * gy, line["length"]
    h5 = run(skein, "catenary_air.json", os.path.join(work, "catenary_air.h5"))
    # float: one rounding of a coordinate near 80 m (5e-6 m) is 2.5 N of this line's tension
    single = real_type(h5) == "float"
    tol_f, tol_x = (2e-3, 0.01) if single else (5e-4, 0.01)
    settled(h5, 0.05 if single else 1e-4)
    _, f = support(h5)
    fa, fb = f[-1, 0], f[-1, 1]
    ca, cb = np.array([-H, -VA, 0.0]), np.array([H, VA + w * L, 0.0])
    ea = np.abs(fa - ca).max() / np.linalg.norm(ca)
    eb = np.abs(fb - cb).max() / np.linalg.norm(cb)
    print(f"  closed form: H {H:.3f} N, V at the ends {-VA:.3f} N and {VA + w * L:.3f} N")
    print(f"  skein's supports: first ({fa[0]:.3f}, {fa[1]:.3f}, {fa[2]:.3f}) N, last ({fb[0]:.3f}, {fb[1]:.3f}, "
          f"{fb[2]:.3f}) N; largest component error relative to the force: {ea:.2e}, {eb:.2e} (tolerance {tol_f:g})")
    # the nodes: particle i at unstretched arc s = i L / n
    p = np.array(h5["groups/0/position"][-1, 0], dtype=float)
    n = p.shape[0] - 1
    worst = 0.0
    for i in range(n + 1):
        sa = i * L / n
        x = H * sa / line["EA"] + H / w * (math.asinh((VA + w * sa) / H) - math.asinh(VA / H))
        y = (VA * sa + w * sa * sa / 2) / line["EA"] + H / w * (math.hypot(1, (VA + w * sa) / H) -
                                                                  math.hypot(1, VA / H))
        worst = max(worst, math.hypot(p[i, 0] - g["start"][0] - x, p[i, 1] - g["start"][1] - y))
    print(f"  nodes: largest distance from the closed form's point at the same arc length {worst:.2e} m "
          f"(tolerance {tol_x:g} m: the lumped masses' own discretisation)")
    return max(ea, eb) <= tol_f and worst <= tol_x


def terminal_velocity(skein, work, args):
    with open(os.path.join(HERE, "terminal_velocity.json")) as f:
        s = json.load(f)
    line, rho, gy = s["groups"][0]["line"], s["water"]["density"], -s["gravity"][1]
    d, mu, cd = line["diameter"], line["mass_per_length"], line["drag"]["normal"]
    # per unit length: (mu - rho pi d^2/4) g = 1/2 rho Cdn d v^2
    v = math.sqrt(2 * (mu - rho * math.pi * d * d / 4) * gy / (rho * cd * d))
    h5 = run(skein, "terminal_velocity.json", os.path.join(work, "terminal_velocity.h5"))
    vel = np.array(h5["groups/0/velocity"][-1, 0], dtype=float)
    tol = 1e-4 if real_type(h5) == "float" else 1e-6
    err = float(np.max(np.abs(vel[:, 1] + v))) / v
    print(f"  closed form: terminal speed {v:.6f} m/s broadside; skein's particles {-vel[:, 1]} m/s, "
          f"relative error {err:.2e} (tolerance {tol:g}); sideways {np.abs(vel[:, [0, 2]]).max():.1e} m/s")
    return err <= tol and np.abs(vel[:, [0, 2]]).max() <= 1e-9


def added_mass_period(skein, work, args):
    with open(os.path.join(HERE, "added_mass_period.json")) as f:
        s = json.load(f)
    line, rho = s["groups"][0]["line"], s["water"]["density"]
    seg = line["length"] / line["segments"]
    # the free end carries half a segment's mass and volume; it moves along the line: tangential added mass
    m = line["mass_per_length"] * seg / 2
    V = math.pi * line["diameter"] ** 2 / 4 * seg / 2
    k = line["EA"] / seg
    period = 2 * math.pi * math.sqrt((m + rho * V * line["added_mass"]["tangential"]) / k)
    h5 = run(skein, "added_mass_period.json", os.path.join(work, "added_mass_period.h5"))
    tol = 1e-4 if real_type(h5) == "float" else 1e-5
    t = np.array(h5["time"])
    y = np.array(h5["groups/0/position"][:, 0, 1, 1], dtype=float)
    y = y - 0.5 * (y.max() + y.min())
    # upward zero crossings, linearly interpolated
    ups = [t[i] - y[i] * (t[i + 1] - t[i]) / (y[i + 1] - y[i]) for i in range(len(y) - 1) if y[i] < 0 <= y[i + 1]]
    if len(ups) < 3:
        fail(f"the end did not oscillate ({len(ups)} upward crossings)")
    measured = (ups[-1] - ups[0]) / (len(ups) - 1)
    err = abs(measured - period) / period
    print(f"  closed form: period 2 pi sqrt((m + rho V Cat) / k) = {period:.6f} s (without added mass "
          f"{2 * math.pi * math.sqrt(m / k):.6f} s); skein {measured:.6f} s over {len(ups) - 1} periods, "
          f"relative error {err:.2e} (tolerance {tol:g})")
    return err <= tol


CASES = {
    "jumper_static": lambda sk, w, a: jumper_static(sk, w, a)[0],
    "jumper_case1": lambda sk, w, a: jumper_case(1, 27.0, a, sk, w),
    "jumper_case2": lambda sk, w, a: jumper_case(2, 27.0, a, sk, w),
    "jumper_case4": lambda sk, w, a: jumper_case(4, 20.0, a, sk, w),
    "chain_0050_static": lambda sk, w, a: chain_static("0050", sk, w)[0],
    "chain_0050_heave": lambda sk, w, a: chain_heave("0050", sk, w, a),
    "chain_0200_static": lambda sk, w, a: chain_static("0200", sk, w)[0],
    "chain_0200_heave": lambda sk, w, a: chain_heave("0200", sk, w, a),
    # the static states solved for rest instead of settled, the same tolerances
    "jumper_static_solved": lambda sk, w, a: jumper_static(sk, w, a, solved=True)[0],
    "chain_0050_static_solved": lambda sk, w, a: chain_static("0050", sk, w, solved=True)[0],
    "chain_0200_static_solved": lambda sk, w, a: chain_static("0200", sk, w, solved=True)[0],
    # the driven cases under BDF2 at 20 and 50 times their files' symplectic steps, the same tolerances
    "jumper_case1_bdf2": lambda sk, w, a: jumper_case(1, 27.0, a, sk, w, dt=1e-2),
    "jumper_case2_bdf2": lambda sk, w, a: jumper_case(2, 27.0, a, sk, w, dt=1e-2),
    "jumper_case4_bdf2": lambda sk, w, a: jumper_case(4, 20.0, a, sk, w, dt=1e-2),
    "chain_0050_heave_bdf2": lambda sk, w, a: chain_heave("0050", sk, w, a, dt=5e-2),
    "chain_0200_heave_bdf2": lambda sk, w, a: chain_heave("0200", sk, w, a, dt=5e-2),
    "catenary_air": catenary_air,
    "terminal_velocity": terminal_velocity,
    "added_mass_period": added_mass_period,
}


def main(argv):
    if len(argv) < 4 or argv[1] not in CASES:
        print(__doc__.strip(), file=sys.stderr)
        print("cases: " + ", ".join(CASES), file=sys.stderr)
        return 2
    case, skein, work = argv[1], argv[2], argv[3]
    args = {}
    if len(argv) == 6 and argv[4] == "--series":
        args["series"] = argv[5]
    os.makedirs(work, exist_ok=True)
    print(f"validation case {case}")
    try:
        ok = CASES[case](skein, work, args)
    except Unsupported as e:
        fail(str(e))
    print("PASS" if ok else "FAIL: outside the tolerance")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
