#!/usr/bin/python3
"""skein run with --h5 and --vtk: every point, velocity, particle index, tension, rope index, step and time that
VTK's own reader (vtkXMLPolyDataReader, Debian's python3-vtk9) reads back from the .vtp files, in the order the
.pvd collection lists them, equals the HDF5 output's to the bit.
Usage: readback.py SKEIN SRC CASE REAL (exit 77: python3-vtk9 or python3-h5py missing)."""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import h5py
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
except ImportError as e:
    print(f"skipped: {e} (Debian: python3-vtk9, python3-h5py)")
    sys.exit(77)

skein, src, case, real = sys.argv[1:5]
scenarios = os.path.join(src, "scenarios")
wild = "1.2e5" if real == "float" else "2e5"  # as headless.sh's diverge case: a later frame in either real
CASES = {
    # springs: two ropes of 64 particles, a frame every 50 steps
    "springs": ([os.path.join(scenarios, "w1_springs.json"), "--steps", "200", "--every", "50",
                 "--set", "groups[0].count=8", "--set", "output.ropes=[0, 5]"], 0),
    # deploying tethers: 2 particles, then one more at each insertion (from step 125 on)
    "deploy": ([os.path.join(scenarios, "stiff_deploying_tether.json"), "--steps", "600", "--every", "100",
                "--ropes", "0,3,15"], 0),
    # a rod chain on the ground (rods' tension: the resolver's impulses)
    "rods": ([os.path.join(scenarios, "seed002_rod_chain_ground.json"), "--steps", "60", "--every", "20"], 0),
    # one polyline per rope: the largest tension per rope
    "polylines": ([os.path.join(scenarios, "seed002_rod_chain_ground.json"), "--steps", "60", "--every", "20",
                   "--vtk-cells", "ropes"], 0),
    # rope 2 diverges: from then on its frames repeat its last finite state, in both files
    "diverge": ([os.path.join(src, "tests", "headless", "diverge.json"), "--set",
                 'groups[0].sweep.link.stiffness={"values": [500, 600, %s, 700, 800, 900]}' % wild], 3),
}
args, want_status = CASES[case]
polylines = "--vtk-cells" in args
dtype = np.float32 if real == "float" else np.float64


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def same_bits(what, got, want):
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        fail(f"{what}: VTK has {got.dtype} {got.shape} {got.ravel()[:8]}, HDF5 {want.dtype} {want.shape} "
             f"{want.ravel()[:8]}")


with tempfile.TemporaryDirectory() as tmp:
    h5_path, vtk_dir = os.path.join(tmp, "out.h5"), os.path.join(tmp, "out")
    run = subprocess.run([skein, "run", *args, "--quiet", "--h5", h5_path, "--vtk", vtk_dir],
                         capture_output=True, text=True)
    if run.returncode != want_status:
        fail(f"skein exited {run.returncode}: {run.stderr}")
    if sorted(os.listdir(tmp)) != ["out", "out.h5"]:
        fail(f"left {sorted(os.listdir(tmp))}")

    h5 = h5py.File(h5_path, "r")
    times, steps = h5["time"][:], h5["step"][:]
    if h5["time"].dtype != dtype:
        fail(f"the HDF5 file holds {h5['time'].dtype}, this build {real}")
    # the stored ropes in global order: each group's, groups in order
    groups = [h5["groups"][g] for g in sorted(h5["groups"], key=int)]
    ropes = np.concatenate([g["ropes"][:] for g in groups]).astype(np.int64)

    collection = ET.parse(os.path.join(vtk_dir, "skein.pvd")).getroot()
    if collection.get("type") != "Collection":
        fail("skein.pvd is not a collection")
    datasets = collection.findall("./Collection/DataSet")
    if len(datasets) != len(times):
        fail(f"{len(datasets)} frames listed, the HDF5 file has {len(times)}")
    listed = {os.path.basename(d.get("file")) for d in datasets} | {"skein.pvd"}
    if listed != set(os.listdir(vtk_dir)):
        fail(f"the directory holds {sorted(os.listdir(vtk_dir))}, the collection lists {sorted(listed)}")

    diverged_seen = False
    for k, ds in enumerate(datasets):
        same_bits(f"frame {k}: the collection's timestep", np.array([float(ds.get("timestep"))], dtype),
                  times[k:k + 1])
        reader = vtkXMLPolyDataReader()
        reader.SetFileName(os.path.join(vtk_dir, ds.get("file")))
        reader.Update()
        if reader.GetErrorCode():
            fail(f"frame {k}: VTK cannot read {ds.get('file')}")
        poly = reader.GetOutput()
        fd, pd, cd = poly.GetFieldData(), poly.GetPointData(), poly.GetCellData()
        same_bits(f"frame {k}: TimeValue", vtk_to_numpy(fd.GetArray("TimeValue")), times[k:k + 1])
        same_bits(f"frame {k}: step", vtk_to_numpy(fd.GetArray("step")), steps[k:k + 1].astype(np.int64))
        same_bits(f"frame {k}: rope", vtk_to_numpy(fd.GetArray("rope")), ropes)

        # what the HDF5 file says, gathered the way VTK lays it out: rope after rope
        pos, vel, part, cells_rope, tension, conn, offsets = [], [], [], [], [], [], []
        first = 0
        for g in groups:
            for j, rope in enumerate(g["ropes"][:]):
                n = int(g["count"][k, j])
                links = g["tension"][k, j, :n - 1] if "tension" in g else np.zeros(max(n - 1, 0), dtype)
                if "diverged" in g and 0 <= g["diverged"][j] <= steps[k]:
                    diverged_seen = True
                pos.append(g["position"][k, j, :n])
                vel.append(g["velocity"][k, j, :n])
                part.append(np.arange(n, dtype=np.int32))
                if polylines:
                    cells_rope.append([rope])
                    tension.append([links.max() if n > 1 else 0])
                    conn.append(first + np.arange(n))
                    offsets.append([first + n])
                else:
                    cells_rope.append(np.full(n - 1, rope))
                    tension.append(links)
                    conn.append(first + np.stack([np.arange(n - 1), np.arange(1, n)], axis=1).ravel())
                first += n
        if not polylines:  # two points per link cell
            offsets = [2 * np.arange(1, sum(len(t) for t in tension) + 1)]
        cat = lambda parts, t: np.concatenate([np.asarray(p, dtype=t).ravel() for p in parts]) if parts else \
            np.zeros(0, t)
        same_bits(f"frame {k}: points", vtk_to_numpy(poly.GetPoints().GetData()),
                  cat(pos, dtype).reshape(-1, 3))
        same_bits(f"frame {k}: velocity", vtk_to_numpy(pd.GetArray("velocity")), cat(vel, dtype).reshape(-1, 3))
        same_bits(f"frame {k}: particle", vtk_to_numpy(pd.GetArray("particle")), cat(part, np.int32))
        same_bits(f"frame {k}: cell rope", vtk_to_numpy(cd.GetArray("rope")), cat(cells_rope, np.int64))
        name = "max_tension" if polylines else "tension"
        same_bits(f"frame {k}: {name}", vtk_to_numpy(cd.GetArray(name)), cat(tension, dtype))
        lines = poly.GetLines()
        same_bits(f"frame {k}: connectivity", vtk_to_numpy(lines.GetConnectivityArray()), cat(conn, np.int64))
        same_bits(f"frame {k}: offsets", vtk_to_numpy(lines.GetOffsetsArray()),
                  np.concatenate([[0], cat(offsets, np.int64)]).astype(np.int64))
        if poly.GetNumberOfVerts() or poly.GetNumberOfPolys() or poly.GetNumberOfStrips():
            fail(f"frame {k}: cells other than lines")

    if case == "diverge" and not diverged_seen:
        fail("no rope diverged")
    if case == "deploy" and len({int(c) for g in groups for c in g["count"][:].ravel()}) < 2:
        fail("the tethers never grew")
print(f"ok: {len(datasets)} frames of {len(ropes)} ropes equal the HDF5 output")
