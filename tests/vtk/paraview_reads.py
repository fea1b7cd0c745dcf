"""ParaView itself (Debian's paraview and python3-paraview, 5.11; run by pvbatch) opens skein.pvd: its PVDReader
lists the frames at their times, and at each time the tethers' points (growing as they deploy), velocities and
link tensions equal the HDF5 output's to the bit. Optional: registered only where pvbatch is installed.
Usage: pvbatch paraview_reads.py SKEIN SRC"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import PVDReader
from vtkmodules.util.numpy_support import vtk_to_numpy

skein, src = sys.argv[1:3]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    h5_path, vtk_dir = os.path.join(tmp, "out.h5"), os.path.join(tmp, "out")
    run = subprocess.run([skein, "run", os.path.join(src, "scenarios", "stiff_deploying_tether.json"), "--steps",
                          "600", "--every", "100", "--ropes", "0,3,15", "--quiet", "--h5", h5_path, "--vtk",
                          vtk_dir], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"skein exited {run.returncode}: {run.stderr}")
    h5 = h5py.File(h5_path, "r")
    g = h5["groups/0"]
    reader = PVDReader(FileName=os.path.join(vtk_dir, "skein.pvd"))
    times = list(reader.TimestepValues)
    if not np.array_equal(np.array(times, h5["time"].dtype), h5["time"][:]):
        fail(f"ParaView's times {times}, the HDF5 file's {list(h5['time'][:])}")
    grew = set()
    for k, t in enumerate(times):
        reader.UpdatePipeline(t)
        poly = servermanager.Fetch(reader)
        ropes = range(len(g["ropes"]))
        counts = [int(g["count"][k, j]) for j in ropes]
        grew.add(sum(counts))
        checks = {
            "points": (poly.GetPoints().GetData(), [g["position"][k, j, :counts[j]] for j in ropes]),
            "velocity": (poly.GetPointData().GetArray("velocity"), [g["velocity"][k, j, :counts[j]] for j in ropes]),
            "tension": (poly.GetCellData().GetArray("tension"), [g["tension"][k, j, :counts[j] - 1] for j in ropes]),
        }
        for name, (array, parts) in checks.items():
            got, want = vtk_to_numpy(array), np.concatenate(parts)
            if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
                fail(f"frame {k} (t = {t}): {name} differs from the HDF5 output")
    if len(grew) < 2:
        fail("the tethers never grew")
print(f"ok: ParaView reads {len(times)} frames equal to the HDF5 output")
