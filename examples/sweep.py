#!/usr/bin/python3
"""A stiffness sweep from Python: 64 ropes of 16 particles, pinned at one end, released horizontally and
heavily damped, hang under gravity until they are still, each stretched by its springs' stiffness. A still
chain's segment i carries the weight of the particles below it, so the rope stretches by m g N (N - 1) / (2 k)
in all. Plots each rope's stretch beside that figure, and the tip's height over time for a few stiffnesses;
exits 1 if a rope is off the closed form by more than 1e-4 (float builds: round-off of about 1e-6).

    PYTHONPATH=build/python /usr/bin/python3 examples/sweep.py [--out sweep.png]
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import numpy as np

import skein

ROPES, PARTICLES, MASS, G, REST = 64, 16, 0.01, 9.81, 0.1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="sweep.png", help="the figure (PNG)")
    args = ap.parse_args()

    s = skein.load({
        "skein": 1, "dt": 1e-3, "duration": 30, "gravity": [0, -G, 0],
        "groups": [{"count": ROPES, "particles": PARTICLES, "start": [0, 0, 0], "end": [REST * (PARTICLES - 1), 0, 0],
                    "mass": MASS, "damping": 0.2, "pinned": [0],
                    "link": {"type": "spring", "stiffness": 50, "length": REST}}],
    })
    s.set("groups[0].sweep.link.stiffness", np.linspace(50, 500, ROPES))  # N/m, one value per rope
    r = skein.run(s, every=50)  # a frame every 0.05 s

    k = r.params["link.stiffness"]
    p = r.position[-1]  # [ropes][particles][3] at the last frame
    stretch = np.linalg.norm(np.diff(p, axis=1), axis=2).sum(axis=1) - REST * (PARTICLES - 1)
    expected = MASS * G * PARTICLES * (PARTICLES - 1) / (2 * k)
    error = np.abs(stretch - expected) / expected
    print("%d ropes, %d frames; largest relative error %.2e, %d ropes diverged"
          % (len(r.ropes), r.frames, error.max(), (r.diverged >= 0).sum()))

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    kk = np.linspace(k.min(), k.max(), 200)
    left.plot(kk, MASS * G * PARTICLES * (PARTICLES - 1) / (2 * kk), "-", color="0.6", label="m g N (N-1) / 2k")
    left.plot(k, stretch, "o", ms=3, label="skein, after 30 s")
    left.set(xlabel="link stiffness k (N/m)", ylabel="stretch (m)", title="Hanging chains: stretch against stiffness")
    left.legend()
    for j in (0, ROPES // 4, ROPES - 1):
        right.plot(r.time, r.position[:, j, -1, 1], label="k = %.0f N/m" % k[j])
    right.set(xlabel="time (s)", ylabel="tip height (m)", title="The free end, released horizontally", xlim=(0, 6))
    right.legend()
    fig.savefig(args.out, dpi=100)
    print("wrote", args.out)
    return 0 if error.max() < 1e-4 and (r.diverged < 0).all() else 1


if __name__ == "__main__":
    raise SystemExit(main())
