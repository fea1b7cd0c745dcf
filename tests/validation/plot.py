#!/usr/bin/python3
"""Runs the validation suite's time-series cases and plots skein against each published series, one SVG per
case in docs/images/validation_<case>.svg (docs/validation.md shows them).

usage: plot.py SKEIN WORKDIR [IMAGES]   (IMAGES: the figures' folder, default docs/images)
Uses matplotlib (python3-matplotlib, installed by .ci/setup). A case that does not run (skein refuses its
scenario) is reported and drawn as an empty figure saying so.
"""
import csv
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "images")

SERIES = {
    "jumper_case1": ("Lowe and Langley 2006, case 1: top end moved along x", "time after the ramp (s)",
                     "top tension (kN)", "published (digitised)", 1.0),
    "jumper_case2": ("Lowe and Langley 2006, case 2: top end moved along y", "time after the ramp (s)",
                     "top tension (kN)", "published (digitised)", 1.0),
    "jumper_case4": ("Lowe and Langley 2006, case 4: Airy waves", "time after two periods (s)",
                     "top tension (kN)", "published (digitised)", 1.0),
    "chain_0050_heave": ("Chain, 50 m of water: fairlead heave 2 m, 10 s", "time (s)",
                         "fairlead tension (kN)", "quasi-static codes", None),
    "chain_0200_heave": ("Chain, 200 m of water: fairlead heave 2 m, 10 s", "time (s)",
                         "fairlead tension (kN)", "quasi-static codes", None),
}


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    skein, work = argv[1], argv[2]
    images = argv[3] if len(argv) == 4 else IMAGES
    os.makedirs(work, exist_ok=True)
    os.makedirs(images, exist_ok=True)
    for case, (title, xlabel, ylabel, ref_name, band) in SERIES.items():
        series = os.path.join(work, case + ".csv")
        if os.path.exists(series):
            os.remove(series)
        p = subprocess.run([sys.executable, os.path.join(HERE, "compare.py"), case, skein,
                            os.path.join(work, case), "--series", series], capture_output=True, text=True)
        print(p.stdout.strip())
        fig, ax = plt.subplots(figsize=(8, 3.6))
        if os.path.exists(series):
            with open(series) as f:
                rows = list(csv.DictReader(f))
            t = [float(r["time"]) for r in rows]
            sim = [float(r["skein"]) for r in rows]
            ref = [float(r["reference"]) for r in rows]
            if band:
                ax.fill_between(t, [v - band for v in ref], [v + band for v in ref], color="0.85",
                                label=f"published +/- {band:g} kN")
            ax.plot(t, ref, "k.", markersize=2.5, label=ref_name)
            ax.plot(t, sim, "C3-", linewidth=1.0, label="skein")
            ax.legend(loc="best", fontsize=8)
        else:
            ax.text(0.5, 0.5, "not run: " + p.stdout.strip().splitlines()[-1][:90], ha="center", va="center",
                    transform=ax.transAxes, fontsize=8, wrap=True)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, linewidth=0.3)
        fig.tight_layout()
        # no date or software version in the file: the same figure gives the same bytes
        fig.savefig(os.path.join(images, f"validation_{case}.svg"), metadata={"Date": None, "Creator": None})
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
