"""skein.Simulation: stepping by a run's `every` gives the command line's frames to the bit; anchors moved
between steps move the ropes, alike in both engines."""
import numpy as np

import skein
from conftest import MIXED, cli, same_bits, scenario_file


def test_steps_equal_cli_frames(tmp_path, mixed):
    path = scenario_file(tmp_path, MIXED)
    out = tmp_path / "out.h5"
    cli("run", path, "--h5", out, "--every", 80, "--quiet")
    r = skein.open(out)
    sim = skein.Simulation(mixed, threads=2)
    for k, step in enumerate(r.step):
        sim.step(step - sim.step_count)
        assert sim.step_count == step and sim.time == r.time[k]
        for j, rope in enumerate(r.ropes):
            n = r.count[k, j]
            assert sim.count(rope) == n
            assert same_bits(sim.positions(rope), r.position[k, j, :n])
            assert same_bits(sim.velocities(rope), r.velocity[k, j, :n])
            d = sim.diagnostics(rope)
            assert same_bits(d["tension"], r.tension[k, j, :n - 1])
            assert d["kinetic"] == r.energy[k, j, 0]


def test_long_step_equals_short_steps(mixed):
    a, b = skein.Simulation(mixed), skein.Simulation(mixed)
    a.step(1500)  # through the run driver
    for _ in range(3):
        b.step(500)  # one engine call each
    for rope in range(mixed.total_ropes):
        assert same_bits(a.positions(rope), b.positions(rope))


def test_anchor_moves(mixed):
    sims = [skein.Simulation(mixed, engine=e) for e in ("batch", "reference")]
    still = skein.Simulation(mixed)
    for k in range(4):
        for sim in sims:
            sim.set_anchor(6, (1 + 0.1 * (k + 1), 0.05 * k, 0))  # a controller pulls rope 6 sideways
            sim.set_anchor(2, (0, -0.02 * k, 0.03))
            sim.step(50)
        still.step(50)
    for rope in range(mixed.total_ropes):
        assert same_bits(sims[0].positions(rope), sims[1].positions(rope))
        assert same_bits(sims[0].velocities(rope), sims[1].velocities(rope))
    # rope 6's top particle was pulled 0.4 m in x; rope 5 beside it was not
    assert sims[0].positions(6)[0, 0] - still.positions(6)[0, 0] > 0.2
    assert same_bits(sims[0].positions(5), still.positions(5))


def test_move_at_start_equals_the_written_point(mixed):
    moved = skein.Simulation(mixed)
    for rope in range(5, 8):
        moved.set_anchor(rope, (1.5, 0.25, 0))
    written = skein.Simulation(skein.load(mixed).set("groups[1].anchor.point", [1.5, 0.25, 0]))
    moved.step(200)
    written.step(200)
    for rope in range(5, 8):
        assert same_bits(moved.positions(rope), written.positions(rope))
