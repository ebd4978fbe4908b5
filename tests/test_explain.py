"""Showing the fold: text instructions, sheets, animations, the viewer, notebook pictures."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import snakecube as sc
from snakecube.designs import design_of, random_path
from snakecube.explain.scene import best_views, steps
from snakecube.explain.text import instructions, relative_turns, show
from snakecube.shape import VECTORS

pytestmark = pytest.mark.pictures

pictures = pytest.importorskip("snakecube.explain.pictures", reason="matplotlib not installed")
viewer = pytest.importorskip("snakecube.explain.viewer", reason="plotly not installed")
Image = pytest.importorskip("PIL.Image", reason="pillow not installed")


@pytest.fixture(scope="module")
def standard():
    return next(sc.solutions("standard"))


@pytest.fixture(scope="module")
def king():
    return next(sc.solutions("king"))


def _rebuild(first, second, turns):
    """Directions from the relative turns, with a frame of our own (no shared code)."""
    dirs = [first, second]
    fwd, up = second, tuple(-v for v in first)
    for turn in turns[2:]:
        right = (fwd[1] * up[2] - fwd[2] * up[1], fwd[2] * up[0] - fwd[0] * up[2],
                 fwd[0] * up[1] - fwd[1] * up[0])  # fmt: skip
        new = {"up": up, "down": tuple(-v for v in up), "right": right,
               "left": tuple(-v for v in right)}[turn]  # fmt: skip
        if turn == "up":
            up = tuple(-v for v in fwd)
        elif turn == "down":
            up = fwd
        fwd = new
        dirs.append(new)
    return dirs


@pytest.mark.parametrize("name", ["standard", "seed-blue", "seed-orange", "mean-green"])
def test_relative_turns_rebuild_the_fold(name):
    for sol in sc.solutions(name):
        turns = relative_turns(sol)
        want = [VECTORS[d] for d in sol.directions]
        assert turns[:2] == ["start", "up"]
        assert set(turns[2:]) <= {"up", "down", "left", "right"}
        assert _rebuild(want[0], want[1], turns) == want


def test_text_forms(standard):
    text = show(standard)
    assert "z=0" in text and "1:+x 2:+y" in text
    assert text.count("o'clock") == standard.snake.segments - 2
    assert "XP" in show(standard, "letters")
    steps_text = instructions(standard)
    for k in range(1, standard.snake.segments + 1):
        assert f"{k:3}. " in steps_text


def test_steps_group_long_snakes(king):
    assert len(steps(king, 24)) <= 24
    assert [s.number for s in steps(king, 100)] == list(range(1, king.snake.segments + 1))
    covered = [c for s in steps(king, 24) for c in range(s.first, s.last + 1)]
    assert covered == list(range(64))


def test_best_views_see_the_new_cubes():
    placed = {(x, y, 0) for x in range(3) for y in range(3)}
    new = [(1, 1, 1)]
    first, second = best_views(placed, new)
    assert first[2] == 1  # from above: the layer below hides the view from underneath
    assert first != second


@pytest.mark.parametrize("which", ["standard", "king"])
def test_sheet_files(which, request, tmp_path):
    sol = request.getfixturevalue(which)
    n_steps = len(steps(sol, 24))
    png = pictures.save(sol, tmp_path / "sheet.png")
    with Image.open(png) as im:
        width, height = im.size
    rows = -(-n_steps // pictures.STEPS_PER_ROW)
    assert width >= 1600 and height >= 230 * rows
    if which == "standard":  # the other formats once: they share the drawing code
        svg = pictures.save(sol, tmp_path / "sheet.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
        assert pictures.save(sol, tmp_path / "sheet.pdf").read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("which", ["standard", "king"])
def test_gif_has_a_frame_per_step(which, request, tmp_path):
    sol = request.getfixturevalue(which)
    gif = pictures.save(sol, tmp_path / "fold.gif")
    with Image.open(gif) as im:
        assert im.n_frames == len(steps(sol, 60)) + 3


@pytest.mark.parametrize("which", ["standard", "king"])
def test_viewer_holds_every_cube_and_step(which, request, tmp_path):
    sol = request.getfixturevalue(which)
    fig = viewer.figure(sol)
    plan = steps(sol, 200)
    assert len(fig.frames) == len(plan) == sol.snake.segments
    meshes = [t for t in fig.data if t.type == "mesh3d"]
    assert sum(len(t.x) for t in meshes) == 8 * len(sol.cells)
    assert sum(len(t.i) for t in meshes) == 12 * len(sol.cells)
    corners = {(x, y, z) for t in meshes for x, y, z in zip(t.x, t.y, t.z, strict=True)}
    for x, y, z in sol.cells:
        assert (x, y, z) in corners and (x + 1, y + 1, z + 1) in corners
    for k, frame in enumerate(fig.frames, 1):
        shown = [d.visible for d in frame.data[:-1]]
        assert shown == [i < k for i in range(len(plan))]
    page = viewer.save(sol, tmp_path / "v.html").read_text()
    assert 'id="snakecube-viewer"' in page and "window.snakecubeGo" in page
    assert f'"step {len(plan)}"' in page and "https://cdn" not in page.split("<script")[1][:200]


def test_boxes_regions_and_5x5x5(tmp_path):
    flat = next(sc.solutions("lengths:3,3,3,2,2", sc.Box(3, 3, 1)))
    pictures.save(flat, tmp_path / "flat.png")
    ring = next(sc.solutions("lengths:3,3,3,2", sc.Region.parse("###\n#.#\n###")))
    viewer.save(ring, tmp_path / "ring.html")
    pictures.save(ring, tmp_path / "ring.png")
    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(5), moves=30)
    snake = design_of([box.cells[c] for c in path])
    sol = next(sc.solutions(snake, box))
    png = pictures.save(sol, tmp_path / "big.png")
    with Image.open(png) as im:
        assert im.size[0] >= 1600
    assert len(steps(sol, 24)) <= 24


def test_notebook_reprs(standard):
    png = standard._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "snakecube-viewer" in standard._repr_html_()


def test_cli_show_and_solve_show(tmp_path):
    from snakecube.cli import main

    assert main(["show", "standard", "--out", str(tmp_path / "s.txt")]) == 0
    assert "o'clock" in (tmp_path / "s.txt").read_text()
    assert main(["show", "standard", "--out", str(tmp_path / "s.bmp")]) == 2
    assert main(["show", "standard", "--solution", "2"]) == 2
    assert main(["show", "seed-blue", "--solution", "12", "--out", str(tmp_path / "b.png")]) == 0
    assert not list(tmp_path.glob("*.part*"))
    code = (
        "import sys; from snakecube.cli import main; main(['solve', 'standard', '--show']); "
        "print(sorted(m for m in ('matplotlib', 'plotly') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "lay cubes 1-3" in out.stdout and out.stdout.strip().endswith("[]")
