"""Showing the fold: words a naive reader can follow, pictures that agree with the words,
numbers only on visible cubes, one camera, one step numbering, printable pages."""

from __future__ import annotations

import functools
import math
import random
import re
import subprocess
import sys

import pytest

import snakecube as sc
from follow import WAYS
from snakecube import explain
from snakecube.designs import design_of, random_path
from snakecube.explain import scene
from snakecube.explain.prose import (
    checkpoints,
    instructions,
    relative_turns,
    show,
    step_words,
)
from snakecube.shape import VECTORS

CATALOG_3 = [
    "standard",
    "seed-red",
    "seed-blue",
    "seed-green",
    "seed-orange",
    "mean-green",
    "cubra-orange",
]


@functools.cache
def _plan(name: str, held: str = "first"):
    """A catalog puzzle's first solution's plan, once for the module (the king's takes
    seconds)."""
    from snakecube import fold

    return fold.plan(next(sc.solutions(name)), held)


@pytest.fixture(scope="module")
def standard():
    return next(sc.solutions("standard"))


@pytest.fixture(scope="module")
def king():
    return next(sc.solutions("king"))


# -- words --------------------------------------------------------------------------------------
READER_WAYS = WAYS  # the readers' own table: words -> (dx, dy, dz), x right, y away, z up


def _reader_place(words: str, size: tuple[int, int, int]) -> tuple[int, int, int]:
    """Where 'the bottom front left corner' or 'bottom layer, front row, middle' is."""
    a, b, c = size
    pos = [None, None, None]
    for axis, n, low, high in (
        (0, a, "left", "right"),
        (1, b, "front", "back"),
        (2, c, "bottom", "top"),
    ):
        if n == 1:
            pos[axis] = 0
        elif re.search(rf"\b(\d+)(st|nd|rd|th) from the {low}\b", words):
            pos[axis] = int(re.search(rf"\b(\d+)(st|nd|rd|th) from the {low}\b", words)[1]) - 1
        elif re.search(rf"\b{low}\b", words):
            pos[axis] = 0
        elif re.search(rf"\b{high}\b", words):
            pos[axis] = n - 1
        else:
            assert n == 3 and "middle" in words, words
            pos[axis] = 1
    return tuple(pos)  # type: ignore[return-value]


def naive_reader(text: str, size: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """Follow the default words literally: where each cube goes, from the text alone."""
    start = re.search(r"Cube 1 goes at (.+?)\. ", text)[1]
    cells = [_reader_place(start, size)]
    for line in text.splitlines():
        m = re.match(
            r"Step (\d+): (?:at cube (\d+), )?cubes? (\d+)(?:-(\d+))? goe?s? (.+?)"
            r"(?: from cube 1)?\.$",
            line,
        )
        if not m:
            continue
        first, last = int(m[3]), int(m[4] or m[3])
        dx, dy, dz = READER_WAYS[m[5]]
        if m[2] is not None:
            assert int(m[2]) == len(cells) == first - 1, line  # the turn is at the last cube
        for _ in range(len(cells), last):
            x, y, z = cells[-1]
            cells.append((x + dx, y + dy, z + dz))
    return cells


@pytest.mark.parametrize("name", [*CATALOG_3, "king"])
def test_a_naive_reader_folds_from_the_default_words(name):
    sol = next(sc.solutions(name))
    text = show(sol)
    shown = scene.display(sol)
    assert naive_reader(text, shown.region.dims) == list(shown.cells)
    # ... and what the reader built is a solution: checked by the independent verifier.
    sc.verify(
        sol.snake.lengths,
        sol.region.cells,
        [tuple(c) for c in naive_reader(text, shown.region.dims)],
    )


def test_a_naive_reader_on_random_designs():
    rng = random.Random(3)
    for dims in [(3, 3, 3), (2, 3, 4), (4, 4, 4), (3, 3, 1), (3, 1, 3), (5, 5, 5)]:
        box = sc.Box(*dims)
        path = random_path(box, rng, moves=200)
        sol = sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path))
        shown = scene.display(sol)
        assert naive_reader(show(sol), shown.region.dims) == list(shown.cells), dims


def _rebuild(first, second, turns):
    """Directions from the pilot words, with a frame of our own (no shared code)."""
    dirs = [first, second]
    fwd, up = second, tuple(-v for v in first)
    for turn in turns[2:]:
        right = (
            fwd[1] * up[2] - fwd[2] * up[1],
            fwd[2] * up[0] - fwd[0] * up[2],
            fwd[0] * up[1] - fwd[1] * up[0],
        )
        new = {
            "up": up,
            "down": tuple(-v for v in up),
            "right": right,
            "left": tuple(-v for v in right),
        }[turn]
        if turn == "up":
            up = tuple(-v for v in fwd)
        elif turn == "down":
            up = fwd
        fwd = new
        dirs.append(new)
    return dirs


@pytest.mark.parametrize("name", ["standard", "seed-blue", "seed-orange", "mean-green"])
def test_pilot_words_rebuild_the_fold(name):
    for sol in sc.solutions(name):
        turns = relative_turns(sol)
        want = [VECTORS[d] for d in sol.directions]
        assert turns[:2] == ["start", "up"]
        assert set(turns[2:]) <= {"up", "down", "left", "right"}
        assert _rebuild(want[0], want[1], turns) == want
    text = instructions(scene.display(next(sc.solutions(name))), "pilot")
    assert "after a turn up, 'up' is the way you came from" in text
    assert text.count("o'clock") == sc.Snake.parse(name).segments - 2


def test_checkpoints_come_every_few_steps(standard, king):
    for sol in (standard, king):
        shown = scene.display(sol)
        checks = checkpoints(shown)
        steps = sorted(checks)
        assert steps and len(set(checks.values())) == len(checks)
        gaps = [b - a for a, b in zip([0, *steps], steps, strict=False)]
        assert max(gaps) <= 6, gaps
    text = instructions(scene.display(standard))
    assert "Check: the bottom layer is complete" in text


def test_one_step_numbering_in_the_text(standard):
    text = show(standard)
    numbers = [int(n) for n in re.findall(r"^Step (\d+):", text, re.M)]
    assert numbers == list(range(1, standard.snake.segments + 1))
    assert [p.step.number for p in scene.panels(scene.display(standard))] == numbers


# -- pictures agree with the words ----------------------------------------------------------
def test_each_panel_agrees_with_its_words():
    cam = scene.CAMERA
    eye = cam.eye
    for name in ("standard", "king", "seed-orange"):
        shown = scene.display(next(sc.solutions(name)))
        checks = checkpoints(shown)
        for panel, words in zip(scene.panels(shown), step_words(shown), strict=True):
            k = panel.step.number  # the step's words, then its "Check:" line if it has one
            assert panel.title == words + (f". {checks[k]}" if k in checks else "")
            way = next(
                w
                for w in READER_WAYS
                if words.endswith(w) or f"go {w}" in words or f"goes {w}" in words
            )
            v = READER_WAYS[way]
            assert VECTORS[panel.step.direction] == v
            (x0, y0, z0), (x1, y1, z1) = panel.arrow
            length = math.dist((x0, y0, z0), (x1, y1, z1))
            assert [round((b - a) / length) for a, b in ((x0, x1), (y0, y1), (z0, z1))] == list(v)
            right, up = cam.screen(v)
            depth = sum(v[i] * eye[i] for i in range(3))  # > 0: towards the viewer
            expect = {
                "to the right": right > 0.5,
                "to the left": right < -0.5,
                "up": up > 0.5,
                "down": up < -0.5,
                "away from you": depth < -0.5,
                "towards you": depth > 0.5,
            }
            assert expect[way], (name, words, right, up, depth)


def _really_visible(point, eye, solid):
    """An independent check: sample the ray from the point to the eye every 0.01."""
    for k in range(1, 2000):
        t = k * 0.01
        q = [point[i] + t * eye[i] for i in range(3)]
        cell = tuple(math.floor(c) for c in q)
        if cell in solid:
            return False
    return True


@pytest.mark.parametrize("name", ["standard", "king", "seed-blue"])
def test_numbers_only_on_visible_cubes_and_every_new_cube_numbered(name):
    shown = scene.display(next(sc.solutions(name)))
    cells = shown.cells
    for panel in scene.panels(shown):
        numbered: set[int] = set()
        for view in panel.views:
            solid = {cells[i] for i in view.solid}
            for i, point in view.labels.items():
                assert i in view.solid  # never a number on a cut-away cube
                assert _really_visible(point, view.camera.eye, solid), (panel.step, i)
                numbered.add(i)
        new = set(range(panel.step.first, panel.step.last + 1))
        assert new <= numbered, (name, panel.step)


@pytest.mark.parametrize("name", ["standard", "king"])
def test_one_camera_and_second_views_only_where_needed(name):
    shown = scene.display(next(sc.solutions(name)))
    hidden = scene.hidden_steps(shown)
    for panel, h in zip(scene.panels(shown), hidden, strict=True):
        assert panel.views[0].camera == scene.CAMERA
        key = scene.key_cubes(panel.step)  # the new cubes and the cube it turns at
        plain = scene.make_view(scene.CAMERA, shown.cells, range(panel.step.last + 1), key)
        unlabelled = [i for i in key if i not in plain.labels]
        if len(panel.views) > 1:  # only where a key cube has no number in the main view
            assert unlabelled and panel.views[1].camera.name.startswith("seen from")
            assert set(key) <= set(panel.views[1].labels)
        elif unlabelled:
            assert panel.views[0].cutaway  # or a cut-away
        else:
            assert not panel.views[0].cutaway
        assert h <= len(unlabelled)
        assert panel.single.camera == scene.CAMERA


@pytest.mark.parametrize(
    ("name", "held"),
    [("standard", "first"), ("seed-green", "first"), ("seed-blue", "last"), ("king", "first")],
)
def test_both_joint_cubes_are_numbered_before_and_after_every_turn(name, held):

    plan = _plan(name, held)
    panels = scene.fold_panels(plan)
    assert len(panels) == len(plan.moves) + 1
    cameras = set()
    for k, panel in enumerate(panels[1:], 1):
        turn = scene.turn_of(plan, k)
        assert (panel.hold, panel.step.pivot) == (turn.hold, turn.turn)
        before, after = panel.views
        assert before.cells == tuple(plan.frames[k - 1]) and after.cells == tuple(plan.frames[k])
        assert before.window == after.window and before.camera == after.camera  # one frame
        for view in panel.views:
            assert {turn.hold, turn.turn} <= set(view.labels), (name, k, view.caption)
            solid = {view.cells[i] for i in view.solid}
            for i, point in view.labels.items():
                assert _really_visible(point, view.camera.eye, solid), (k, i)
        cameras.add(before.camera)
        # the turn: every turning cube lands where the next state has it, the rest stay
        ends = turn.at(1.0)
        for i, c in enumerate(plan.frames[k]):
            assert max(abs(ends[i][a] - c[a] - 0.5) for a in range(3)) < 1e-9
        assert all(
            plan.frames[k - 1][i] == plan.frames[k][i]
            for i in range(len(ends))
            if i not in set(turn.moving)
        )
    assert scene.PLAN_VIEWS[0] in cameras  # the main camera first; others only where it hides
    assert cameras <= set(scene.PLAN_VIEWS)  # never from below or behind


def test_the_centre_cube_of_the_standard_is_shown(standard):
    shown = scene.display(standard)
    centre = shown.cells.index((1, 1, 1))
    panel = next(p for p in scene.panels(shown) if p.step.first <= centre <= p.step.last)
    assert any(centre in v.labels for v in panel.views)


def test_flat_targets_are_laid_flat():
    for box in [(3, 3, 1), (3, 1, 3), (1, 3, 3), (4, 1, 2)]:
        snake = "lengths:3,3,3,2,2" if box[0] * box[1] * box[2] == 9 else "lengths:4,2,4"
        sol = next(sc.solutions(snake, sc.Box(*box)))
        flat = scene.lay_flat(sol)
        assert flat.region.dims[2] == 1 and flat.region.dims[0] >= flat.region.dims[1]
        flat.verify()
        assert scene.is_flat(scene.display(sol))


def test_reverse_says_which_end_is_cube_1(capsys):
    from snakecube.cli import main

    assert main(["solve", "standard", "--reverse"]) == 0
    out = capsys.readouterr().out
    assert "cube 1 is the typed snake's last cube" in out


# -- files -------------------------------------------------------------------------------------
pictures = pytest.importorskip("snakecube.explain.pictures", reason="matplotlib not installed")
from snakecube.explain import viewer  # noqa: E402

Image = pytest.importorskip("PIL.Image", reason="pillow not installed")


def test_a_turn_is_framed_on_its_joint_with_cubes_large_on_a_phone():
    """Every step's window holds the joint, is at most PLAN_MAX cube widths (a phone's 374 px
    then gives a cube over 24 px), and shows every cube drawn whole."""
    from snakecube.explain import drawing

    plan = _plan("king", "first")
    for panel in scene.fold_panels(plan)[1:]:
        for view in panel.views:
            x0, y0, x1, y1 = view.window
            assert x1 - x0 <= scene.PLAN_MAX[0] + 1e-9 and y1 - y0 <= scene.PLAN_MAX[1] + 1e-9
            px = min(374 / (x1 - x0), 330 / (y1 - y0))  # the page's plan picture on a phone
            for i in (panel.hold, panel.step.pivot):
                corners = drawing.silhouette(view.cells[i], view.camera)
                assert drawing.inside(corners, view.window)
                across = max(c[0] for c in corners) - min(c[0] for c in corners)
                assert across * px >= 24
            for i in view.solid:
                assert drawing.inside(drawing.silhouette(view.cells[i], view.camera), view.window)
            # no cube that turns is cut away (drawn see-through where it hides the joint), and
            # no cube is drawn detached from the chain (a neighbour along it drawn too)
            assert not set(view.cutaway) & set(panel.moving)
            assert set(view.ghost) <= set(panel.moving)
            drawn = {*view.solid, *view.cutaway, *view.ghost}
            assert all(i - 1 in drawn or i + 1 in drawn for i in view.solid)
        # the pale cubes are the ones held; the rest turn
        held = set(range(len(panel.cells))) - set(panel.moving)
        assert panel.colours[panel.hold] == scene.HOLD
        assert panel.colours[panel.step.pivot] == scene.TURNING
        assert all(panel.colours[i] == scene.MOVING for i in panel.moving[1:])
        assert all(panel.patterns[i] == "hatch" for i in panel.moving[1:])
        assert all(
            panel.colours[i] == scene.pale(scene.cube_colour(i)) for i in held - {panel.hold}
        )


@pytest.mark.parametrize(
    ("name", "paper", "points"),
    [("standard", "a4", (595, 842)), ("seed-orange", "letter", (612, 792))],  # the king: in
    # tests/test_pictures.py, every page checked
)
def test_printable_pdf_pages(name, paper, points, tmp_path):
    sol = next(sc.solutions(name))
    figs = pictures.sheet_figures(sol, paper)
    panels = scene.panels(scene.display(sol))
    # a cover, then the steps: a panel with a second view takes a whole row
    slots = sum(pictures.COLUMNS if len(p.views) > 1 else 1 for p in panels)
    per_page = pictures.COLUMNS * pictures.ROWS
    assert len(figs) - 1 >= math.ceil(slots / per_page)
    assert len(figs) - 1 == len(pictures._place(panels, pictures.COLUMNS, pictures.ROWS, 3))
    cover = " ".join(t.get_text() for t in figs[0].texts)
    assert sol.snake.turns() in cover and "Layer map" in cover
    for fig in figs:
        w, h = fig.get_size_inches()
        assert (round(w * 72), round(h * 72)) == points
        for ax in fig.axes:
            for text in ax.texts:  # cube numbers
                assert text.get_fontsize() >= 9
        for text in fig.texts:
            assert text.get_fontsize() >= 9
    for fig in figs:
        pictures.plt.close(fig)
    pdf = explain.save(sol, tmp_path / "sheet.pdf", paper=paper)
    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-" and data.count(b"/Type /Page\n") + data.count(
        b"/Type /Page "
    ) + data.count(b"/Type/Page") >= len(figs)


@pytest.mark.pictures
def test_png_and_svg_sheets(standard, tmp_path):
    png = explain.save(standard, tmp_path / "sheet.png")
    with Image.open(png) as im:
        width, height = im.size
    assert width >= 800 and height > 3 * width
    svg = explain.save(standard, tmp_path / "sheet.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


@pytest.mark.pictures
@pytest.mark.parametrize("which", ["standard"])  # the king's frames: tests/test_pictures.py
def test_gif_one_frame_per_step_fixed_camera(which, request, tmp_path):
    sol = request.getfixturevalue(which)
    if which == "standard":  # encoding the king's GIF would only take longer
        gif = explain.save(sol, tmp_path / "fold.gif")
        with Image.open(gif) as im:
            frames = im.n_frames
            durations = set()
            for k in range(frames):
                im.seek(k)
                durations.add(im.info["duration"])
        assert frames in (sol.snake.segments + 1, sol.snake.segments + 2)  # last two may merge
        assert min(durations) >= 1000 and max(durations) <= 3000  # 1-2 s a step
    anim = pictures.animation(sol)
    assert anim.frames_count == sol.snake.segments + 2
    cameras = set()
    for k, frame in enumerate(anim.snakecube_frames):
        anim._func(k)
        (ax,) = anim._fig.axes
        cameras.add(frame.view.camera)
        numbers = {t.get_text() for t in ax.texts}
        if k < sol.snake.segments:  # the new cubes are numbered
            step = frame.panel.step
            assert {str(i + 1) for i in range(step.first, step.last + 1)} <= numbers
    assert len(cameras) == 1
    pictures.plt.close(anim._fig)


@pytest.mark.parametrize("which", ["standard", "king"])
def test_viewer_opens_at_step_1_with_every_cube_numbered(which, request, tmp_path):
    sol = request.getfixturevalue(which)
    data = viewer.frames(sol)
    shown = scene.display(sol)
    steps = scene.steps(shown)
    assert len(data["frames"]) == len(steps) == sol.snake.segments
    for frame, step in zip(data["frames"], steps, strict=True):
        placed = [c for c in frame["cubes"] if c[4] != viewer.TAIL]
        assert sorted(c[6] for c in placed) == list(range(step.last + 1))
        solid = {c[6] for c in frame["cubes"] if c[4] == viewer.SOLID}
        numbers = {n[0] for n in frame["numbers"]}
        assert set(range(step.first, step.last + 1)) <= numbers <= solid  # new cubes numbered
        assert frame["arrow"] is not None and frame["words"].startswith(f"Step {step.number} of")
    page = viewer.save(sol, tmp_path / "v.html").read_text()
    assert 'id="snakecube-viewer"' in page and "window.snakecubeGo" in page
    assert "<script src" not in page and len(page) < 300_000  # offline, no plotly.js


def test_plan_viewer_numbers_both_joint_cubes_on_faces_they_show():
    # The start, each turn before it is made (its own view, framed on the joint), the end.

    for name in ("standard", "seed-green", "king"):
        plan = _plan(name, "first" if name != "seed-blue" else "last")
        data = viewer.plan_frames(plan)
        panels = scene.fold_panels(plan)
        assert len(data["frames"]) == len(panels) + 1
        for frame, panel in zip(data["frames"][1:], panels[1:], strict=False):
            numbers = {n[0]: n[1:4] for n in frame["numbers"]}
            view = panel.views[0]
            assert frame["camera"][:2] == [view.camera.elev, view.camera.azim]
            for i in (panel.hold, panel.step.pivot):
                assert i in numbers, (name, panel.step.number)
                solid = {view.cells[j] for j in view.solid}
                assert _really_visible(numbers[i], view.camera.eye, solid)
            assert frame["arrow"] and frame["seam"]


@pytest.mark.pictures
def test_boxes_regions_and_5x5x5(tmp_path):
    flat = next(sc.solutions("lengths:3,3,3,2,2", sc.Box(3, 1, 3)))
    figs = pictures.sheet_figures(flat)
    axes = [ax for ax in figs[0].axes if not hasattr(ax, "elev")]
    assert axes and all(not hasattr(ax, "elev") for ax in figs[0].axes)  # drawn in 2-D
    for ax in axes:  # from above: x to the right, 'away from you' up the page; no mirror
        assert not ax.xaxis_inverted() and not ax.yaxis_inverted()
    for fig in figs:
        pictures.plt.close(fig)
    ring = next(sc.solutions("lengths:3,3,3,2", sc.Region.parse("###\n#.#\n###")))
    viewer.save(ring, tmp_path / "ring.html")
    explain.save(ring, tmp_path / "ring.pdf")
    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(5), moves=30)
    snake = design_of([box.cells[c] for c in path])
    sol = sc.Solution(snake, box, tuple(path))
    figs = pictures.sheet_figures(sol)  # every page is laid out; the first one is written
    figs[0].savefig(tmp_path / "big.png")
    assert (tmp_path / "big.png").stat().st_size > 10_000
    for fig in figs:
        pictures.plt.close(fig)


@pytest.mark.pictures
def test_notebook_reprs(standard):
    png = standard._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "snakecube-viewer" in standard._repr_html_()


@pytest.mark.pictures
def test_cli_show_and_solve_show(tmp_path):
    from snakecube.cli import main

    assert main(["show", "standard", "--out", str(tmp_path / "s.txt")]) == 0
    assert "Step 17:" in (tmp_path / "s.txt").read_text()
    assert main(["show", "standard", "--words", "pilot", "--out", str(tmp_path / "p.txt")]) == 0
    assert "o'clock" in (tmp_path / "p.txt").read_text()
    assert main(["show", "standard", "--out", str(tmp_path / "s.bmp")]) == 2
    assert main(["show", "standard", "--solution", "2"]) == 2
    assert (
        main(
            [
                "show",
                "seed-blue",
                "--solution",
                "12",
                "--paper",
                "letter",
                "--out",
                str(tmp_path / "b.pdf"),
            ]
        )
        == 0
    )
    assert not list(tmp_path.glob(".snakecube-*"))
    code = (
        "import sys; from snakecube.cli import main; main(['solve', 'standard', '--show']); "
        "print(sorted(m for m in ('matplotlib', 'plotly') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Step 1: cubes 1-3 go" in out.stdout and out.stdout.strip().endswith("[]")


# -- the second reader: the sheet's words and its layer map only --------------------------------
def _map_places(blocks) -> tuple[dict[int, tuple[int, int, int]], list[str]]:
    """Where the layer map puts each cube number, and the layers' names (bottom first)."""
    where, names = {}, []
    for z, block in enumerate(blocks):
        title, *rows = block.splitlines()
        names.append(title.split(" (")[0].rstrip(":"))
        for r, row in enumerate(rows):
            for x, word in enumerate(row.split()):
                if word != ".":
                    where[int(word)] = (x, len(rows) - 1 - r, z)
    return where, names


def _numbers_in(text: str) -> list[int]:
    """'cubes 20-21 and 25' -> [20, 21, 25]."""
    out = []
    for a, b in re.findall(r"(\d+)(?:-(\d+))?", text):
        out += range(int(a), int(b or a) + 1)
    return out


def sheet_reader(cover, titles) -> list[tuple[int, int, int]]:
    """Fold from a sheet's words and layer map alone: cube 1 where the map has it, each step
    from its words, every "Check:" tested against what was built."""
    where, names = _map_places(cover.layers)
    cells = [where[1]]
    for title in titles:
        m = re.match(
            r"Step (\d+): (?:at cube (\d+), )?cubes? (\d+)(?:-(\d+))? goe?s? (.+?)"
            r"(?: from cube 1)?(?:\. (Check: .*))?$",
            title,
        )
        assert m, title
        first, last = int(m[3]), int(m[4] or m[3])
        dx, dy, dz = READER_WAYS[m[5]]
        if m[2] is not None:
            assert int(m[2]) == len(cells) == first - 1, title
        for _ in range(len(cells), last):
            x, y, z = cells[-1]
            cells.append((x + dx, y + dy, z + dz))
        check = m[6]
        if check is None:
            continue
        layer = {name: z for z, name in enumerate(names)}
        built = set(cells)
        size = {z: sum(1 for c in where.values() if c[2] == z) for z in layer.values()}
        if c := re.match(r"Check: the (.+?) is complete \((\d+) cubes\)\.$", check):
            z = layer[c[1]]
            assert sum(1 for p in built if p[2] == z) == size[z] == int(c[2]), check
        elif c := re.match(
            r"Check: the (.+?) is complete except for the places? of (.+?), which", check
        ):
            z = layer[c[1]]
            later = {where[k] for k in _numbers_in(c[2])}
            assert {p for p in built if p[2] == z} | later == {
                p for p in where.values() if p[2] == z
            }, check
        else:
            c = re.match(r"Check: (\d+) cubes are in place: (.*)\.$", check)
            assert c and int(c[1]) == len(cells), check
            for name, have, of in re.findall(r"the (.+?) (\d+) of (\d+)", c[2]):
                z = layer[name.strip(", ")]
                assert sum(1 for p in built if p[2] == z) == int(have) and size[z] == int(of)
    return cells


def _read_sheet(sol):
    shown = scene.display(sol)
    cover = scene.cover(shown, "typed")
    titles = [p.title for p in scene.panels(shown)]
    cells = sheet_reader(cover, titles)
    where, _ = _map_places(cover.layers)
    assert cells == [where[k] for k in range(1, len(cells) + 1)]  # the map's places, in order
    sc.verify(sol.snake.lengths, shown.region.cells, cells)  # and a solution, independently


KING_B = "lengths:3,4,4,4,2,4,2,4,2,2,2,2,2,2,2,2,2,3,2,4,3,3,2,4,2,3,2,2,2,2,2,3,2,2,2,2,4,2,4"


@pytest.mark.parametrize("name", [*CATALOG_3, "king", KING_B])
def test_a_reader_folds_from_the_sheet_words_and_layer_map(name):
    """Every catalog puzzle (one entry per design) and King B."""
    _read_sheet(next(sc.solutions(name)))


def test_a_sheet_reader_on_random_designs():
    rng = random.Random(11)
    for dims in [(3, 3, 3), (2, 3, 4), (4, 4, 4), (4, 4, 4), (5, 5, 5)]:
        box = sc.Box(*dims)
        path = random_path(box, rng, moves=200)
        _read_sheet(sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path)))


@pytest.mark.parametrize("name", ["standard", "king", "king-a"])
def test_cover_colours_differ_wherever_segments_touch(name):
    # 16 colours for 46 segments (the king): in turn, a colour would repeat beside itself.
    shown = scene.display(next(sc.solutions(name)))
    cells = shown.cells
    colours = scene.cover(shown).colours
    assert set(colours) == set(range(len(cells)))
    segment = {}
    for k, s in enumerate(scene.steps(shown)):
        for i in range(s.first, s.last + 1):
            segment.setdefault(i, k)  # a corner cube belongs to the segment it ends
    where = {c: i for i, c in enumerate(cells)}
    for i, c in enumerate(cells):
        for v in VECTORS:
            j = where.get((c[0] + v[0], c[1] + v[1], c[2] + v[2]))
            if j is not None and segment[j] != segment[i]:
                assert colours[i] != colours[j], (name, i + 1, j + 1)
    assert len({colours[i] for i in range(len(cells))}) == min(16, len(set(segment.values())))
