#!/usr/bin/python3
"""A frame of skein's --vtk output rendered off-screen by VTK (run under xvfb-run): the ropes' pixels lie where
the ropes project, and each rope is drawn along its whole length. Six springs of swept stiffness, pinned at one
end and released horizontally (fan.json), coloured by link tension.
Usage: render.py SKEIN SRC [PNG] (PNG: also save the picture, as docs/images/vtk_fan.png was made);
exit 77 when python3-vtk9 is missing."""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
    from vtkmodules.vtkIOImage import vtkPNGWriter
    from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer, vtkRenderWindow,
                                             vtkWindowToImageFilter)
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401 (the OpenGL back end)
except ImportError as e:
    print(f"skipped: {e} (Debian: python3-vtk9)")
    sys.exit(77)

skein, src = sys.argv[1:3]
png = sys.argv[3] if len(sys.argv) > 3 else None
WIDTH, HEIGHT, BACKGROUND, LINE_WIDTH = 800, 450, (1.0, 1.0, 1.0), 4


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "fan")
    run = subprocess.run([skein, "run", os.path.join(src, "tests", "vtk", "fan.json"), "--quiet", "--vtk", out],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"skein exited {run.returncode}: {run.stderr}")
    last = ET.parse(os.path.join(out, "skein.pvd")).getroot().findall("./Collection/DataSet")[-1]
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(os.path.join(out, last.get("file")))
    reader.Update()
    poly = reader.GetOutput()

    mapper = vtkPolyDataMapper()
    mapper.SetInputData(poly)
    mapper.SetScalarModeToUseCellFieldData()
    mapper.SelectColorArray("tension")
    mapper.SetScalarRange(poly.GetCellData().GetArray("tension").GetRange())
    mapper.GetLookupTable().SetHueRange(0.667, 0.0)  # blue (slack) to red (taut)
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetLineWidth(LINE_WIDTH)
    renderer = vtkRenderer()
    renderer.AddActor(actor)
    renderer.SetBackground(*BACKGROUND)
    camera = renderer.GetActiveCamera()
    camera.ParallelProjectionOn()  # looking down -z at the x-y plane the ropes swing in
    renderer.ResetCamera()
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetSize(WIDTH, HEIGHT)
    window.AddRenderer(renderer)
    window.Render()

    grab = vtkWindowToImageFilter()
    grab.SetInput(window)
    grab.SetInputBufferTypeToRGB()
    grab.ReadFrontBufferOff()
    grab.Update()
    image = grab.GetOutput()
    w, h, _ = image.GetDimensions()
    rgb = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(h, w, 3).astype(int)  # row 0: the bottom
    if png:
        writer = vtkPNGWriter()
        writer.SetFileName(png)
        writer.SetInputData(image)
        writer.Write()

    # Where the ropes are: each link projected to the display (origin bottom left, as the image's rows) and
    # drawn into a mask, a sample every half pixel.
    points = vtk_to_numpy(poly.GetPoints().GetData())
    conn = vtk_to_numpy(poly.GetLines().GetConnectivityArray()).reshape(-1, 2)

    def display(p):
        renderer.SetWorldPoint(float(p[0]), float(p[1]), float(p[2]), 1.0)
        renderer.WorldToDisplay()
        return np.array(renderer.GetDisplayPoint()[:2])

    screen = np.array([display(p) for p in points])
    on_rope = np.zeros((h, w), bool)
    for a, b in conn:
        samples = int(np.ceil(2 * np.linalg.norm(screen[b] - screen[a]))) + 1
        for t in np.linspace(0, 1, samples):
            x, y = np.rint(screen[a] + t * (screen[b] - screen[a])).astype(int)
            if 0 <= x < w and 0 <= y < h:
                on_rope[y, x] = True
    if on_rope.sum() < 500:
        fail(f"the ropes project onto {on_rope.sum()} pixels: the camera does not frame them")
    near = on_rope.copy()  # within the line's half width and a pixel of smoothing of a rope
    reach = LINE_WIDTH // 2 + 1
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            near |= np.roll(np.roll(on_rope, dy, axis=0), dx, axis=1)

    drawn = np.abs(rgb - np.array(BACKGROUND) * 255).max(axis=2) > 40
    stray = drawn & ~near
    covered = (drawn & on_rope).sum() / on_rope.sum()
    print(f"{drawn.sum()} pixels drawn, {on_rope.sum()} on the ropes' centre lines, {covered:.3f} of those drawn, "
          f"{stray.sum()} drawn away from any rope")
    if covered < 0.98:
        fail(f"only {covered:.3f} of the ropes' centre-line pixels are drawn")
    if stray.sum() > 0.001 * drawn.sum():
        fail(f"{stray.sum()} pixels drawn away from the ropes")
    # coloured by tension: both ends of the colour map appear (blue for the slack ends, red for the taut)
    red = (rgb[..., 0] > 200) & (rgb[..., 2] < 80) & drawn
    blue = (rgb[..., 2] > 200) & (rgb[..., 0] < 80) & drawn
    if red.sum() < 20 or blue.sum() < 20:
        fail(f"{red.sum()} red and {blue.sum()} blue pixels: not coloured by tension")
print("ok")
