#!/usr/bin/python3
"""The memory a run really takes: the peak resident size of `skein run` on a large batch (65,536 ropes of 32
particles, no output) above that of a run of 16 ropes, per particle, must stay within the batch's own packs
and marks: 72 bytes per particle in double, 40 in float (6 reals of state, the parameter block and the marks,
no copy of the state for divergence checks). The parameter block is a rope's, about 110 reals: 28 bytes per
particle of these 32-particle ropes in double (the lines' water and seabed constants and the links' damping
took 16 of them, 4 bytes per particle). usage: peak.py SKEIN SCENARIO"""
import os
import subprocess
import sys

skein, scenario = sys.argv[1], sys.argv[2]


def peak_kib(ropes):
    """The run's own peak resident size (KiB), from wait4's usage of that one child."""
    child = subprocess.Popen([skein, "run", scenario, "--set", f"groups[0].count={ropes}", "--set",
                              "groups[0].particles=32", "--set", "output.ropes=[0]", "--steps", "20", "--every", "10",
                              "--quiet", "--threads", "2"], env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"peak.py: skein run with {ropes} ropes exited with {child.returncode}")
    return usage.ru_maxrss


info = subprocess.run([skein, "info"], check=True, capture_output=True, text=True).stdout
real = "float" if "real type    float" in info else "double"
# Medians of runs (5 small, 3 large): a run's peak moves by a few hundred KiB from one run to the next (the small
# one's by up to 0.2 bytes per particle of the large one's), as much as the bound leaves.
small = sorted(peak_kib(16) for _ in range(5))[2]
large = sorted(peak_kib(65536) for _ in range(3))[1]
particles = 65536 * 32
per_particle = (large - small) * 1024 / particles
bound = 72 if real == "double" else 40
print(f"peak {large} KiB for {particles} particles, {small} KiB for 512: {per_particle:.1f} bytes per particle "
      f"({real}; at most {bound})")
if per_particle > bound:
    sys.exit(f"peak.py: {per_particle:.1f} bytes per particle, more than {bound}")
