"""Draw the static site's app icons (``src/snakecube/web/static/icon-*.png``): the standard
snake's cube, folded, in the page's colours. Run it again to redraw them:

    .venv/bin/python tests/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import snakecube as sc
from snakecube.explain import drawing, scene
from snakecube.explain.pictures import draw_drawing
from snakecube.frame import CAMERA

STATIC = Path(__file__).resolve().parents[1] / "src" / "snakecube" / "web" / "static"
BACK = "#7a4a22"  # the page's header


def draw(size: int, path: Path) -> None:
    solution = scene.display(next(sc.solutions("standard")))
    cubes = [
        drawing.Cube(i, c, "solid", scene.cube_colour(i + 1)) for i, c in enumerate(solution.cells)
    ]
    d = drawing.draw(CAMERA, cubes, {})
    fig = plt.figure(figsize=(1, 1), dpi=size)
    fig.patch.set_facecolor(BACK)
    ax = fig.add_axes((0.14, 0.14, 0.72, 0.72))  # a margin a maskable icon may lose
    w, h = d.width, d.height
    side = max(w, h)
    cx, cy = (d.bounds[0] + d.bounds[2]) / 2, (d.bounds[1] + d.bounds[3]) / 2
    draw_drawing(ax, d, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2))
    fig.savefig(path, dpi=size, facecolor=BACK)
    plt.close(fig)


if __name__ == "__main__":
    for size in (192, 512):
        draw(size, STATIC / f"icon-{size}.png")
        print(f"wrote {STATIC / f'icon-{size}.png'}")
