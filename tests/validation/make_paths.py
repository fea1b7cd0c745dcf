#!/usr/bin/python3
"""Writes the validation suite's scenarios (tests/validation/*.json, and scenarios/jumper_lowe_langley.json)
from MoorDyn's inputs (tests/validation/data/), with the driven ends' path tables.

Axes: MoorDyn's files have z up; skein's y is up. A point (x, y, z) of MoorDyn is (x, z, -y) in skein (a
rotation: right-handed to right-handed). Run it again after changing it: `/usr/bin/python3
tests/validation/make_paths.py` (the JSON files are committed, the tests read them).

The jumper's top end moves along A sin(2 pi t / T) faded in by the smoothstep f^3 (6 f^2 - 15 f + 10),
f = min(t / T, 1) (MoorDyn's tests/lowe_and_langley_2006.cpp). skein's anchor.motion path is piecewise
linear: sampled every PATH_DT = 0.02 s, its largest distance from the smooth motion is h^2/8 max|x''|,
3.0e-5 m here (max|x''| = 0.602 m/s^2, computed below and printed), 3e-6 of the amplitude; the path's
velocity, piecewise constant, is within h/2 max|x''| = 6.0e-3 m/s of the smooth one (the motion's
largest speed is 2.3 m/s).
"""
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")

PATH_DT = 0.02


def skein_point(p):
    """MoorDyn (x, y, z) -> skein (x, z, -y)."""
    x, y, z = p
    return [x, z, -y if y != 0 else 0.0]


def write(name, scenario, folder=HERE):
    """Indented JSON, a path table's rows one to a line."""
    tables = []

    def compact(o):
        if isinstance(o, dict):
            if "times" in o and "points" in o:
                tables.append(o)
                return f"@TABLE{len(tables) - 1}@"
            return {k: compact(v) for k, v in o.items()}
        if isinstance(o, list):
            return [compact(v) for v in o]
        return o

    text = json.dumps(compact(scenario), indent=1)
    # arrays of numbers (vectors) on one line
    text = re.sub(r"\[\s*([-+0-9.eE,\s]+?)\s*\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text)
    for i, t in enumerate(tables):
        rows = ",\n  ".join(json.dumps(p) for p in t["points"])
        table = '{"times": ' + json.dumps(t["times"]) + ',\n "points": [' + rows + "]}"
        text = text.replace(f'"@TABLE{i}@"', table)
    json.loads(text)
    with open(os.path.join(folder, name), "w") as f:
        f.write(text + "\n")


# --- Lowe and Langley 2006 jumper (data/lowe_langley_line.txt) -----------------------------------------
JUMPER_TOP = skein_point((0.0, 0.0, -5.0))  # MoorDyn point 2, the "fairlead": the driven end
JUMPER_BOTTOM = skein_point((-100.0, 0.0, -55.0))  # MoorDyn point 1, fixed
JUMPER_T = 27.0  # s, period of cases 1 and 2 (also their ramp)
JUMPER_A = 10.0  # m
JUMPER_SETTLE = 180.0  # s of damped motion before a case starts (the static state)
JUMPER_DT = 5e-4


def jumper_group(anchor_motion=None, damping=None):
    group = {
        "count": 1,
        # particle 0 is the top (held by the pin anchor, driven), the last the bottom (pinned)
        "start": JUMPER_TOP,
        "end": JUMPER_BOTTOM,
        "line": {"mass_per_length": 165.0, "EA": 500.0e6, "length": 170.0, "segments": 68,
                 "diameter": 0.396, "drag": {"normal": 1.0, "tangential": 0.0},
                 "added_mass": {"normal": 1.0, "tangential": 0.0}},
        # MoorDyn's BA = -0.5: half of each segment's critical damping; a line takes no compression
        "link": {"type": "bungee", "damping_ratio": 0.5},
        "bending": {"stiffness": 120.8e3},
        "anchor": {"type": "pin", "point": JUMPER_TOP},
        "pinned": [68],
    }
    if anchor_motion:
        group["anchor"]["motion"] = anchor_motion
    if damping is not None:
        group["damping"] = damping
    return group


def jumper(duration, group, every, waves=None):
    water = {"density": 1000.0, "surface": 0.0}
    if waves:
        water["waves"] = waves
    return {
        "skein": 1,
        "dt": JUMPER_DT,
        "duration": duration,
        "integrator": "symplectic",
        "gravity": [0.0, -9.807, 0.0],
        "water": water,
        "ground": {"height": -100.0, "stiffness": 3.0e6, "damping": 3.0e5},
        "groups": [group],
        "output": {"every": every},
    }


def smoothstep(f):
    return f * f * f * (6 * f * f - 15 * f + 10)


def jumper_motion(t):
    f = smoothstep(min(t / JUMPER_T, 1.0))
    return f * JUMPER_A * math.sin(2 * math.pi * t / JUMPER_T)


def jumper_path(axis, duration):
    """The top end's displacement along skein axis `axis` (sign included), every PATH_DT."""
    n = int(round(duration / PATH_DT))
    times, points = [], []
    for i in range(n + 1):
        t = i * PATH_DT
        p = [0.0, 0.0, 0.0]
        p[axis[0]] = axis[1] * round(jumper_motion(t), 9)
        times.append(round(t, 10))
        points.append(p)
    return {"path": {"times": times, "points": points}}


def path_error_bound():
    """max |x''| of the smooth motion (by differences on a fine grid) and the linear path's error."""
    h = 1e-4
    worst = 0.0
    t = h
    while t < 2 * JUMPER_T:
        d2 = (jumper_motion(t + h) - 2 * jumper_motion(t) + jumper_motion(t - h)) / (h * h)
        worst = max(worst, abs(d2))
        t += 1e-3
    return worst, PATH_DT ** 2 / 8 * worst


def chain_case(depth, anchor, length, segments):
    """A chain catenary of data/WD0xxx_Chain.txt: the fairlead (MoorDyn point 2, at the origin) held by the pin
    anchor and driven, the anchor (MoorDyn point 1) pinned."""
    return {
        "count": 1,
        "start": skein_point((0.0, 0.0, 0.0)),
        "end": skein_point(anchor),
        "line": {"mass_per_length": 390.0, "EA": 1.674e9, "length": length, "segments": segments,
                 "diameter": 0.252, "drag": {"normal": 1.37, "tangential": 0.64},
                 "added_mass": {"normal": 1.0, "tangential": 0.0}},
        # MoorDyn's BA = -1: critical damping of each segment
        "link": {"type": "bungee", "damping_ratio": 1.0},
        "anchor": {"type": "pin", "point": skein_point((0.0, 0.0, 0.0))},
        "pinned": [segments],
    }


CHAIN_DT = 1e-3
CHAIN_SETTLE = 200.0  # s of damped motion: the static state


def chain(depth, group, duration, every):
    return {
        "skein": 1,
        "dt": CHAIN_DT,
        "duration": duration,
        "integrator": "symplectic",
        # MoorDyn's default g (the WD files set none)
        "gravity": [0.0, -9.80665, 0.0],
        "water": {"density": 1025.0, "surface": 0.0},
        "ground": {"height": -depth, "stiffness": 1.0e5, "damping": 1.0e4,
                   "friction": {"static": 0.5, "kinetic": 0.5}},
        "groups": [group],
        "output": {"every": every},
    }


def zzp1_path():
    """data/ZZP1_A1.txt as a path: MoorDyn's time -10 s is skein's 0 (the start of the driven run)."""
    times, points = [], []
    with open(os.path.join(DATA, "ZZP1_A1.txt")) as f:
        for line in f:
            cols = [float(v) for v in line.split()]
            if not cols:
                continue
            times.append(round(cols[0] + 10.0, 10))
            points.append(skein_point(cols[1:4]))
    return {"path": {"times": times, "points": points}}


def main():
    worst, err = path_error_bound()
    print(f"jumper path: max |x''| {worst:.3f} m/s^2, piecewise-linear error at most {err:.2e} m "
          f"(velocity {PATH_DT / 2 * worst:.2e} m/s)")

    # Static: settled from the straight chord by damping (v *= 0.8^dt: 80 % of the velocity kept after 1 s),
    # MoorDyn's stationary case. The cases start from its last frame (compare.py passes it as initial.from).
    write("jumper_static.json", jumper(JUMPER_SETTLE, jumper_group(damping=0.8), every=20000))
    # Cases 1 and 2: 27 s of ramp, then the 80 s compared (+0.1 s so the last sample is a frame).
    dur = JUMPER_T + 80.0 + 0.1
    write("jumper_case1.json", jumper(dur, jumper_group(jumper_path((0, 1.0), dur)), every=20))
    # MoorDyn's y is skein's -z
    write("jumper_case2.json", jumper(dur, jumper_group(jumper_path((2, -1.0), dur)), every=20))
    # Case 4: the top end fixed; waves from t = 0 (MoorDyn's test sets them at full amplitude from its first
    # step and compares from two periods on), amplitude 5 m, period 10 s, heading 0, phase 230 deg.
    waves = {"amplitude": 5.0, "period": 10.0, "heading": 0.0, "phase": 230.0, "depth": 100.0}
    write("jumper_case4.json", jumper(20.0 + 30.0 + 0.1, jumper_group(), every=20, waves=waves))
    # The example: case 1 as a user would run it (static state solved by the damped settle run first).
    write("jumper_lowe_langley.json", jumper(dur, jumper_group(jumper_path((0, 1.0), dur)), every=200),
          folder=os.path.join(ROOT, "scenarios"))

    for depth, anchor, length, segments in ((50, (400.0, 0.0, -50.0), 410.0, 41),
                                            (200, (700.0, 0.0, -200.0), 760.0, 76)):
        write(f"chain_{depth:04d}_static.json",
              chain(depth, dict(chain_case(depth, anchor, length, segments), damping=0.5), CHAIN_SETTLE, 20000))
        g = chain_case(depth, anchor, length, segments)
        g["anchor"]["motion"] = zzp1_path()
        write(f"chain_{depth:04d}_heave.json", chain(depth, g, 30.0, 10))

    # In air: an elastic catenary between two points, settled by damping (closed form: compare.py).
    write("catenary_air.json", {
        "skein": 1, "dt": 2e-4, "duration": 60.0, "integrator": "symplectic", "gravity": [0.0, -9.81, 0.0],
        "groups": [{"count": 1, "start": [0.0, 0.0, 0.0], "end": [80.0, 20.0, 0.0], "damping": 0.3,
                    "line": {"mass_per_length": 10.0, "EA": 1.0e6, "length": 100.0, "segments": 50,
                             "diameter": 0.05},
                    "link": {"type": "bungee"},
                    "anchor": {"type": "pin", "point": [0.0, 0.0, 0.0]}, "pinned": [50]}],
        "output": {"every": 300000}})
    # In water: one horizontal segment sinking broadside to its Morison terminal speed.
    write("terminal_velocity.json", {
        "skein": 1, "dt": 1e-3, "duration": 20.0, "integrator": "symplectic", "gravity": [0.0, -9.81, 0.0],
        "water": {"density": 1000.0},
        "groups": [{"count": 1, "start": [0.0, -10.0, 0.0], "end": [2.0, -10.0, 0.0],
                    "line": {"mass_per_length": 100.0, "EA": 1.0e6, "length": 2.0, "segments": 1,
                             "diameter": 0.2, "drag": {"normal": 1.2, "tangential": 0.0},
                             "added_mass": {"normal": 1.0, "tangential": 0.0}},
                    "link": {"type": "spring"}}],
        "output": {"every": 1000}})
    # In water: one vertical segment hanging from a pin, bobbing along its axis: the period takes the
    # tangential added mass (and not the normal one).
    write("added_mass_period.json", {
        "skein": 1, "dt": 1e-4, "duration": 10.0, "integrator": "symplectic", "gravity": [0.0, -9.81, 0.0],
        "water": {"density": 1000.0},
        "groups": [{"count": 1, "start": [0.0, -10.0, 0.0], "end": [0.0, -11.0, 0.0],
                    "line": {"mass_per_length": 50.0, "EA": 1000.0, "length": 1.0, "segments": 1,
                             "diameter": 0.1, "drag": {"normal": 0.0, "tangential": 0.0},
                             "added_mass": {"normal": 1.0, "tangential": 0.5}},
                    "link": {"type": "spring"},
                    "anchor": {"type": "pin", "point": [0.0, -10.0, 0.0]}}],
        "output": {"every": 50}})


if __name__ == "__main__":
    main()
