"""A picture of a plate as printed, drawn from its 3MF file as read back
(:func:`snakecube.make.files.read_3mf`): each body's triangles that face the camera, shaded
by how they face the light, drawn far to near, and each body's number from its name on its
top face.

Drawn in plain 2D axes like every picture of snakecube (``explain.pictures``: no 3D axes,
whose margins change between matplotlib releases), with the table camera's projection
(``explain.drawing.basis``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from snakecube import stop
from snakecube.explain import drawing
from snakecube.frame import Camera
from snakecube.make.files import Read

__all__ = ["CAMERA", "plate_figure", "save_plate"]

CAMERA = Camera(50.0, -70.0)  # in front of the printer, a little to the right, above
LIGHT = (0.35, -0.55, 0.76)  # from the front left, above
SHADE = (0.45, 1.0)  # the darkest and the lightest share of a colour


def plate_figure(bodies: Sequence[Read], plate: tuple[float, float], width: float = 8.0) -> Any:
    """The bodies on a plate of ``plate`` mm (width, depth), ``width`` inches wide."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import to_rgb

    right, up = (np.array(v) for v in drawing.basis(CAMERA))
    eye, light = np.array(CAMERA.eye), np.array(LIGHT) / np.linalg.norm(LIGHT)
    polygons, colours, depths = [], [], []
    w, d = plate
    bed = np.array([(0, 0, 0), (w, 0, 0), (w, d, 0), (0, d, 0)], dtype=float)
    polygons.append(np.stack([bed @ right, bed @ up], axis=1))
    colours.append((0.93, 0.93, 0.93))
    depths.append(-np.inf)
    labels = []
    for b in bodies:
        stop.on_time()  # a time limit (stop.within) ends the drawing between bodies
        tri = b.vertices[b.faces]  # m x 3 x 3
        normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-12
        seen = normal @ eye > 1e-9
        tri, normal = tri[seen], normal[seen]
        base = np.array(to_rgb(b.colour))
        lit = SHADE[0] + (SHADE[1] - SHADE[0]) * np.clip(normal @ light, 0, 1)
        flat = np.stack([tri @ right, tri @ up], axis=2)
        polygons.extend(flat)
        colours.extend(np.clip(base[None, :] * lit[:, None], 0, 1))
        # far to near: the body first (its centre), then its triangles
        centre = b.vertices.mean(axis=0)
        depths.extend(centre @ eye * 1e3 + tri.mean(axis=1) @ eye)
        # the number on the top face, in its front left quarter (a hole may be in its middle)
        lo, hi = b.vertices.min(axis=0), b.vertices.max(axis=0)
        spot = np.array([lo[0] + 0.3 * (hi[0] - lo[0]), lo[1] + 0.3 * (hi[1] - lo[1]), hi[2]])
        labels.append((spot @ right, spot @ up, b.name.removeprefix("cube ")))
    order = np.argsort(np.array(depths), kind="stable")
    everything = np.concatenate([np.asarray(p) for p in polygons])
    x0, y0 = everything.min(axis=0)
    x1, y1 = everything.max(axis=0)
    pad = 0.03 * max(x1 - x0, y1 - y0)
    height = width * (y1 - y0 + 2 * pad) / (x1 - x0 + 2 * pad)
    fig = plt.figure(figsize=(width, height), dpi=150)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.add_collection(
        PolyCollection(
            [polygons[k] for k in order],
            facecolors=[colours[k] for k in order],
            edgecolors="none",
            antialiased=False,
            # A picture, not a drawing: tens of thousands of triangles as vector paths made
            # the king's SVG 13.7 MB in 8 s; rasterized at the figure's 150 dpi (the numbers
            # stay text), it is one image.
            rasterized=True,
        )
    )
    size = max(5.0, min(9.0, 72 * width / (x1 - x0 + 2 * pad) * 6))
    for x, y, text in labels:
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color="black",
            bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none", "alpha": 0.8},
        )
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y0 - pad, y1 + pad)
    ax.set_axis_off()
    return fig


def save_plate(bodies: Sequence[Read], plate: tuple[float, float], path: str | Path) -> Path:
    """Write :func:`plate_figure` to ``path`` (.png, .svg or .pdf)."""
    import matplotlib.pyplot as plt

    from snakecube.output import write_file

    fig = plate_figure(bodies, plate)
    path = Path(path)
    try:
        write_file(path, lambda tmp: fig.savefig(tmp, format=path.suffix.lstrip(".")))
    finally:
        plt.close(fig)
    return path
