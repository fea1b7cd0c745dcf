#!/usr/bin/python3
"""skein.run from Python against the command line on the same scenario (default W1,
scenarios/w1_springs.json): particle-steps per second, runs interleaved, medians. Two figures each:
  end to end  particle-steps / the wall time a user waits: the skein process (load, engine, run) against the
              skein.run call (engine, arrays, run; the scenario loaded before)
  run         particle-steps / sk_run's wall time (what the CLI's summary prints as speed) against the same
              figure of skein.run (Result.stats), which includes copying frames into numpy arrays
Usage: PYTHONPATH=build/python bench/python_overhead.py [--cli build/skein] [--steps 2000] [--repeats 5]
       [--threads 2] [SCENARIO]"""
import argparse
import os
import re
import statistics
import subprocess
import time

import skein

HERE = os.path.dirname(os.path.abspath(__file__))


def cli_run(cli, scenario, steps, threads):
    t0 = time.perf_counter()
    p = subprocess.run([cli, "run", scenario, "--steps", str(steps), "--threads", str(threads)],
                       capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    out = p.stdout + p.stderr
    speed = float(re.search(r"^speed\s+(\S+) particle-steps/s", out, re.M).group(1))
    run_s = float(re.search(r"^wall time\s+(\S+) s", out, re.M).group(1))
    particle_steps = speed * run_s
    return particle_steps / wall, speed


def python_run(s, steps, threads):
    t0 = time.perf_counter()
    r = skein.run(s, steps=steps, threads=threads)
    wall = time.perf_counter() - t0
    ps = r.stats["particle_steps"]
    return ps / wall, ps / r.stats["wall_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", nargs="?", default=os.path.join(HERE, "..", "scenarios", "w1_springs.json"))
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "skein"))
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    s = skein.load(args.scenario)
    cli_e2e, cli_run_s, py_e2e, py_run_s = [], [], [], []
    for i in range(args.repeats):
        a, b = cli_run(args.cli, args.scenario, args.steps, args.threads)
        c, d = python_run(s, args.steps, args.threads)
        cli_e2e.append(a), cli_run_s.append(b), py_e2e.append(c), py_run_s.append(d)
        print("run %d: CLI %.3e / %.3e, Python %.3e / %.3e particle-steps/s (end to end / run)" % (i + 1, a, b, c, d))
    m = statistics.median
    print("%s, %d steps, %d threads, medians of %d interleaved runs:" % (os.path.basename(args.scenario), args.steps,
                                                                         args.threads, args.repeats))
    print("  end to end: CLI %.3e, Python %.3e particle-steps/s, Python/CLI %.3f" % (m(cli_e2e), m(py_e2e), m(py_e2e) / m(cli_e2e)))
    print("  run:        CLI %.3e, Python %.3e particle-steps/s, Python/CLI %.3f" % (m(cli_run_s), m(py_run_s), m(py_run_s) / m(cli_run_s)))


if __name__ == "__main__":
    main()
