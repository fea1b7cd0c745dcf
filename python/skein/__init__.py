"""skein: large batches of ropes simulated by libskein, from Python.

    import skein
    s = skein.load("scenarios/w1_springs.json")
    s.set("groups[0].link.stiffness", 800)
    r = skein.run(s, steps=2000, every=500, threads=2)
    r.position            # [frames][ropes][particles][3], numpy
    sim = skein.Simulation(s); sim.step(100); sim.positions(0); sim.set_anchor(0, (0.1, 0, 0))
    skein.open("out.h5")  # a `skein run --h5` output as the same Result
    skein.run(s, table=True).table   # one row per rope: swept values, largest tension over every step, ...
    skein.open_table("results.csv")  # a `skein run --results` table as the same columns

Errors raise skein.ScenarioError (bad input) or skein.Error with the message the command line prints.
"""
from ._native import REAL, lib as _lib, ffi as _ffi
from .errors import Error, Interrupted, ScenarioError
from .h5file import open
from .result import Result
from .run import run
from .scenario import Scenario, load
from .simulation import Simulation
from .table import open_table

__version__ = _ffi.string(_lib.sk_version()).decode()

__all__ = ["Error", "Interrupted", "REAL", "Result", "Scenario", "ScenarioError", "Simulation", "load", "open",
           "open_table", "run"]
