"""Pictures people fold from: numbers only on faces that show, nothing cut off, every form.

The checks here share no code with what draws: a number's label area must lie on a face of
its own cube and under no shape painted after that cube (the drawing's own paint order), and
every cube's outline and every word must lie inside its picture and its page as matplotlib
actually placed them.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import replace

import pytest

import snakecube as sc
from snakecube import catalog, explain, fold
from snakecube.explain import drawing, scene

CATALOG = [e.name for e in catalog.ENTRIES]  # one entry per design, King B included
SMALL = [e.name for e in catalog.ENTRIES if e.box == (3, 3, 3)]
BIG = [e.name for e in catalog.ENTRIES if e.box != (3, 3, 3)]


@functools.cache
def solution_of(name: str) -> sc.Solution:
    return next(sc.solutions(name))


@functools.cache
def plan_of(name: str) -> fold.FoldPlan:
    """The plan held at the first end (the one the sheets' hanging tails come from)."""
    return fold.plan(scene.display(solution_of(name)), "first", orient=False)


# -- numbers on the faces that show --------------------------------------------------------------
def _inside(polygon, p) -> bool:
    """Point in a convex polygon, by the sign of the cross products (on an edge counts)."""
    signs = set()
    for k in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[k], polygon[(k + 1) % len(polygon)]
        c = (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)
        if abs(c) > 1e-9:
            signs.add(c > 0)
    return len(signs) <= 1


def misplaced_numbers(d: drawing.Drawing) -> list[int]:
    """The cubes whose number is not on a face of their own cube that shows in ``d``: a spot
    of its label area outside the cube's faces, or under a face painted after them."""
    bad = []
    for label in d.labels:
        first = d.order[label.cube]
        own = [i for i in range(first, len(d.shapes)) if d.shapes[i].cube == label.cube]
        own = [i for i in own if d.shapes[i].fill and i < first + 3]
        later = [
            s
            for s in d.shapes[own[-1] + 1 :]
            if s.fill and s.alpha == 1 and s.cube not in (-1, label.cube)  # see-through: no
        ]
        for spot in label.spots:
            if not any(_inside(d.shapes[i].points, spot) for i in own) or any(
                _inside(s.points, spot) for s in later
            ):
                bad.append(label.cube)
                break
    return bad


def instruction_drawings(name: str):
    """Every drawing of a puzzle's instructions: the cover, each panel's views and the
    single view of the GIF and the viewer."""
    shown = scene.display(solution_of(name))
    cover = scene.cover(shown)
    panel = scene.Panel(
        scene.steps(shown)[-1],
        "",
        (cover.view,),
        cover.view,
        (),
        None,
        ((0, 0, 0), shown.region.dims),
        colours=cover.colours,
    )
    yield "cover", scene.drawing_of(panel, cover.view, shown.cells)
    for p in scene.panels(shown):
        for view in (*p.views, *([p.single] if p.single not in p.views else [])):
            yield f"step {p.step.number}", scene.drawing_of(p, view, shown.cells)


def plan_drawings(name: str):
    for p in scene.fold_panels(plan_of(name)):
        for view in p.views:
            yield f"plan step {p.step.number} {view.caption}", scene.drawing_of(p, view)


@pytest.mark.parametrize("name", CATALOG)
def test_numbers_lie_on_faces_of_their_own_cubes_that_show(name):
    checked = 0
    for where, d in instruction_drawings(name):
        assert misplaced_numbers(d) == [], (name, where)
        checked += len(d.labels)
    if name in SMALL:
        for where, d in plan_drawings(name):
            assert misplaced_numbers(d) == [], (name, where)
            checked += len(d.labels)
    assert checked > len(solution_of(name).cells)


@pytest.mark.slow
@pytest.mark.parametrize("name", BIG)
def test_numbers_lie_on_faces_that_show_in_the_kings_plans(name):
    for where, d in plan_drawings(name):
        assert misplaced_numbers(d) == [], (name, where)


def test_a_number_on_a_hidden_face_is_caught():
    """The check can fail: the king's step where cube 1 sits inside the left face, its number
    moved to the face the camera does not see."""
    shown = scene.display(solution_of("king"))
    panel = scene.panels(shown)[-1]
    view = scene.make_view(scene.CAMERA, shown.cells, range(len(shown.cells)), [0])
    cell = shown.cells[0]
    hidden = (cell[0] + 0.5, cell[1] + 0.5, cell[2] + 1.0)  # its top face, under cube(s) above
    moved = scene.View(view.camera, view.solid, (), {0: hidden})
    assert misplaced_numbers(scene.drawing_of(panel, moved, shown.cells)) == [0]


# -- nothing cut off -----------------------------------------------------------------------------
pictures = pytest.importorskip("snakecube.explain.pictures", reason="matplotlib not installed")
FORMS = (".png", ".svg", ".pdf", ".gif", ".html")
MAGIC = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF-", ".gif": b"GIF8", ".html": b"<!DOC"}


def _within(inner, outer, slack: float = 1.0) -> bool:
    return (
        inner.x0 >= outer.x0 - slack
        and inner.y0 >= outer.y0 - slack
        and inner.x1 <= outer.x1 + slack
        and inner.y1 <= outer.y1 + slack
    )


def cut_off(fig, draw: bool = True) -> list[str]:
    """What a figure cuts off, as matplotlib drew it (``draw``; else as it placed it, which
    the axes' fixed limits make the same): a cube's outline (any point of a collection's
    paths) outside its axes, an axes outside the figure, a word outside the figure, a number
    outside its axes."""
    import numpy as np

    if draw:
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    out = []
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        if not _within(box, page):
            out.append(f"axes {box} outside the figure")
        for coll in ax.collections:
            paths = coll.get_paths()
            if not paths:
                continue
            xy = coll.get_transform().transform(np.concatenate([p.vertices for p in paths]))
            outside = ~(
                (box.x0 - 1 <= xy[:, 0])
                & (xy[:, 0] <= box.x1 + 1)
                & (box.y0 - 1 <= xy[:, 1])
                & (xy[:, 1] <= box.y1 + 1)
            )
            if outside.any():  # the first point outside, of any of its shapes
                x, y = xy[outside.argmax()]
                out.append(f"a shape at ({x:.0f}, {y:.0f}) outside its picture {box}")
        for text in ax.texts:
            if not _within(text.get_window_extent(renderer), box, 2.0):
                out.append(f"number {text.get_text()} outside its picture")
    for text in fig.texts:
        if text.get_text() and not _within(text.get_window_extent(renderer), page):
            out.append(f"words {text.get_text()[:40]!r} outside the page")
    return out


@pytest.mark.pictures
@pytest.mark.slow
def test_nothing_is_cut_off_in_the_kings_sheets_and_gifs():
    """Every page of the king's sheets: the served page's PDF (no plan), `show --out` PNG and
    SVG (the pages stacked, the rest of the snake hanging as the plan has it) and the plan's
    PDF, drawn; and every frame of its two GIFs as laid out (the frames share one figure and
    its fixed limits). The forms of one sheet share its drawing; each form is written once
    in the suite (``WRITTEN`` below says where)."""
    sol = scene.display(solution_of("king"))
    plan = plan_of("king")
    tails = fold.hanging_tails(plan)
    sheets = {
        "served.pdf": pictures.sheet_figures(sol, typed="king"),
        "show.png": [pictures.sheet(sol, paper="letter", tails=tails)],
        "fold.pdf": pictures.plan_figures(plan, typed="king"),
    }
    for name, figures in sheets.items():
        for k, fig in enumerate(figures):
            assert cut_off(fig) == [], (name, k)
            assert any(ax.collections for ax in fig.axes)  # pictures are drawn
            pictures.plt.close(fig)
    for name, anim in (
        ("show.gif", pictures.animation(sol, tails)),
        ("fold.gif", pictures.plan_animation(plan)),
    ):
        for k in range(anim.frames_count):
            anim._func(k)
            assert cut_off(anim._fig, draw=k == 0) == [], (name, k)
        pictures.plt.close(anim._fig)


@pytest.mark.pictures
def test_a_cut_off_cube_is_caught():
    """The check can fail: a drawing placed in axes smaller than its rectangle."""
    shown = scene.display(solution_of("standard"))
    panel = scene.panels(shown)[-1]
    d = scene.drawing_of(panel, panel.views[0], shown.cells)
    fig = pictures.plt.figure(figsize=(3, 3))
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.8))
    x0, y0, x1, y1 = d.bounds
    pictures.draw_drawing(ax, d, (x0, y0, (x0 + x1) / 2, y1))
    assert cut_off(fig)
    pictures.plt.close(fig)


# -- sheets keep their structure -------------------------------------------------------------
@pytest.mark.pictures
def test_the_plan_sheet_prints_the_start_as_a_list_and_every_turn_before_and_after():
    plan = plan_of("standard")
    figs = pictures.plan_figures(plan)
    start = "\n".join(t.get_text() for t in figs[0].texts)
    items = [line for line in fold.start_words(fold.guide(plan)) if line.startswith("  ")]
    for item in items:  # one line each, not run together
        assert f"• {item.strip()}" in start.split("\n"), item
    assert "Hold in your left hand the end" in start or "Hold either end" in start
    captions = [t.get_text() for fig in figs[1:] for t in fig.texts if t.get_style() == "italic"]
    steps = len(plan.steps())  # a half turn is one step, one picture before and one after
    assert sum(c.startswith("before") for c in captions) == steps
    assert sum(c.startswith("after") for c in captions) == steps
    assert sum(c.startswith("the whole snake") for c in captions) == steps
    for fig in figs:
        pictures.plt.close(fig)


@pytest.mark.parametrize("name", ["standard", "king", "king-b"])
def test_the_start_pictures_numbers_fit_their_cubes(name):
    """The plan sheet's start picture draws every cube wide enough for its number's white
    box (at most START_BADGE of a cube's width; a 64-cube start under its list of runs drew
    cubes narrower than their numbers), on a page of its own where the page with the list
    has no room, its numbers no smaller than NUMBER_LEAST."""
    plan = plan_of(name)
    layout = pictures.plan_start_layout(plan)
    start = scene.start_panel(plan)
    d = scene.drawing_of(start, start.views[0])
    assert len(d.labels) == len(plan.end)  # every cube numbered
    widest = max(pictures.badge(label.text, layout.number_pt)[0] for label in d.labels)
    tallest = max(pictures.badge(label.text, layout.number_pt)[1] for label in d.labels)
    # a cube's width on paper, measured on the drawing: its top face, seen from above
    top = min(
        (s for s in d.shapes if s.cube == 0 and s.fill),
        key=lambda s: -(max(p[0] for p in s.points) - min(p[0] for p in s.points)),
    )
    cube = (max(p[0] for p in top.points) - min(p[0] for p in top.points)) * layout.scale
    assert widest <= pictures.START_BADGE * cube + 1e-9, (name, layout, widest, cube)
    assert tallest <= pictures.START_BADGE * cube + 1e-9, (name, layout, tallest, cube)
    assert layout.number_pt >= pictures.NUMBER_LEAST
    if name == "king-b":  # its list of 39 runs leaves too little room: a page of its own
        assert layout.own_page


# -- every form, every puzzle ----------------------------------------------------------------------


# The plan's forms written as `fold --out` writes them, besides what other tests write: the
# PDFs of `show standard`, `show king`, `fold standard` and King B's `fold` are written by the
# commands themselves in tests/test_docs.py (docs/dry-run.md's pages and sizes), with the king's
# viewer; the standard snake's sheet as PNG, SVG, GIF and HTML in tests/test_explain.py; the
# king's plan PDF by README.md's example. Every page and frame of each is laid out here.
WRITTEN = {"standard": (".png", ".svg", ".gif", ".html"), "king-b": (".html",)}


@pytest.mark.pictures
@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in CATALOG if n != "king"])
def test_every_form_for_every_catalog_puzzle(name, tmp_path):
    """What `show NAME --out F` and `fold NAME --out F` make: every page of both sheets (one
    by one, for PDF, and stacked, for PNG and SVG) and every GIF frame laid out with nothing
    cut off, and the viewer; for the standard snake and King B the plan's forms of ``WRITTEN``
    written as `fold` writes them."""
    plan = plan_of(name)
    shown, tails = plan.solution, fold.hanging_tails(plan)
    figures = [
        *pictures.sheet_figures(shown, tails=tails, typed=name),
        pictures.sheet(shown, tails=tails),
        *pictures.plan_figures(plan, typed=name),
        *pictures.plan_figures(plan, stacked=True, typed=name),
    ]
    for k, fig in enumerate(figures):
        assert cut_off(fig, draw=False) == [], (name, k)
        pictures.plt.close(fig)
    fig = pictures.plt.figure(figsize=pictures.GIF_SIZE, dpi=pictures.GIF_DPI)
    for frame in (*pictures.instruction_frames(shown, tails), *pictures.plan_frames(plan)):
        pictures.draw_frame(fig, frame, shown)
        assert cut_off(fig, draw=False) == [], (name, frame.words[:30])
    pictures.plt.close(fig)
    assert explain.viewer.plan_html(plan).startswith("<!DOCTYPE html>")
    if name not in WRITTEN:
        return
    for form in WRITTEN[name]:
        written = explain.save_plan(plan, tmp_path / f"fold{form}", typed=name)
        assert written.read_bytes()[: len(MAGIC[form])] == MAGIC[form], written


# -- a fold plan's steps, readable on a phone ------------------------------------------------------
PHONE = (374, 330)  # CSS px of the page's plan picture on a phone 390 px wide
JOINT_FACE = 0.45  # a joint cube shows about half a cube face (projected), or more
MIN_EDGE = 24  # CSS px: every edge of a joint cube's faces on the phone
LINE = 0.05  # cube widths: half an arrow's line on the page, with a little room


def _area(points) -> float:
    return (
        abs(
            sum(
                points[k][0] * points[(k + 1) % len(points)][1]
                - points[(k + 1) % len(points)][0] * points[k][1]
                for k in range(len(points))
            )
        )
        / 2
    )


def _on_quad(quad, s: float, t: float):
    """The point at (s, t) of a parallelogram given by its four corners in order."""
    (x0, y0), (x1, y1), _, (x3, y3) = quad
    return (x0 + (x1 - x0) * s + (x3 - x0) * t, y0 + (y1 - y0) * s + (y3 - y0) * t)


def faces_of(d: drawing.Drawing, cube: int) -> list[drawing.Shape]:
    first = d.order[cube]
    return [s for s in d.shapes[first : first + 3] if s.fill and s.cube == cube]


def shown_area(d: drawing.Drawing, cube: int, n: int = 10) -> float:
    """How much of a cube's faces a drawing shows, in cube widths squared: each face's area
    on the page times the share of its sample points under no filled shape painted later."""
    later = [s for s in d.shapes[d.order[cube] + 3 :] if s.fill and s.alpha == 1 and s.cube != cube]
    total = 0.0
    for face in faces_of(d, cube):
        grid = [
            _on_quad(face.points, (j + 0.5) / n, (k + 0.5) / n) for j in range(n) for k in range(n)
        ]
        free = sum(not any(_inside(s.points, p) for s in later) for p in grid)
        total += _area(face.points) * free / len(grid)
    return total


def _text_box(label: drawing.Label):
    """The corners of a number's box on the page (about 0.2 cube widths a digit, 0.3 high
    at the page's font of 0.38), and its centre."""
    w, h = 0.11 * len(label.text) + 0.02, 0.14
    x, y = label.at
    return [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h), (x, y)]


def _segment_distance(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy or 1)))
    return ((p[0] - a[0] - t * dx) ** 2 + (p[1] - a[1] - t * dy) ** 2) ** 0.5


def _crosses(box, line) -> bool:
    """True when a polyline passes through (or within LINE of) a box's edges or inside it."""
    xs, ys = [p[0] for p in box], [p[1] for p in box]
    for a, b in itertools.pairwise(line):
        for k in range(11):
            p = (a[0] + (b[0] - a[0]) * k / 10, a[1] + (b[1] - a[1]) * k / 10)
            if (
                min(xs) - LINE <= p[0] <= max(xs) + LINE
                and min(ys) - LINE <= p[1] <= max(ys) + LINE
            ):
                return True
    return False


def unreadable(panel: scene.Panel, view: scene.View) -> list[str]:
    """What keeps a plan step's picture from reading on a phone, measured on the drawing
    with its own paint order (no code shared with the scene's choices)."""
    d = scene.drawing_of(panel, view)
    out = []
    eye = view.camera.eye
    if eye[2] <= 0.1 or eye[1] >= 0:  # the person sits at the table's front (-y), above it
        out.append(f"seen from below or behind ({view.camera})")
    if "seen from the front" not in view.caption or "the table" not in view.caption:
        out.append(f"the camera is not said in words: {view.caption!r}")
    px = min(PHONE[0] / d.width, PHONE[1] / d.height)
    joint = (panel.hold, panel.step.pivot)
    arrow_lines = [s.points for s in d.shapes if s.cube == -1 and not s.fill]
    heads = [s for s in d.shapes if s.cube == -1 and s.fill]
    for i in joint:
        if i not in d.order:
            out.append(f"joint cube {i + 1} not drawn")
            continue
        area = shown_area(d, i)
        if area < JOINT_FACE:
            out.append(f"joint cube {i + 1} shows {area:.2f} of a face")
        for face in faces_of(d, i):
            pts = face.points
            edge = min(
                ((pts[k][0] - pts[k - 1][0]) ** 2 + (pts[k][1] - pts[k - 1][1]) ** 2) ** 0.5
                for k in range(4)
            )
            if edge * px < MIN_EDGE - 0.5:
                out.append(f"joint cube {i + 1} has an edge of {edge * px:.0f} px")
                break
    labels = {label.cube: label for label in d.labels}
    for i in joint:
        if i not in labels:
            out.append(f"joint cube {i + 1} has no number")
    for label in d.labels:
        box = _text_box(label)
        own = [s for s in faces_of(d, label.cube)]
        face = next((s for s in own if all(_inside(s.points, p) for p in box)), None)
        if label.cube in joint and face is None:
            out.append(f"number {label.text} is not wholly on a face of its cube")
        later = [
            s
            for s in d.shapes[d.order[label.cube] + 3 :]
            if s.fill and s.alpha == 1 and s.cube not in (-1, label.cube)
        ]
        if any(_inside(s.points, p) for s in later for p in box):
            out.append(f"number {label.text} is under another cube")
        if any(_crosses(box, line) for line in arrow_lines):
            out.append(f"the arrow crosses number {label.text}")
        over = [s.points for s in d.shapes[d.order[label.cube] :] if s.dash == "dotted"]
        if any(_crosses(box, line) for line in over):
            out.append(f"cut-away lines cross number {label.text}")
        for head in heads:
            if any(_inside(head.points, p) for p in box) or any(
                _inside(box[:4], p) for p in head.points
            ):
                out.append(f"number {label.text} covers the arrowhead")
    if view.arc is not None:
        if not heads:
            out.append("no arrowhead")
        for head in heads:
            if not drawing.inside(head.points, d.bounds):
                out.append("the arrowhead is outside the picture")
            if d.shapes.index(head) < max(d.order.values()) + 3:
                out.append("the arrowhead is painted under a cube")
    return out


def _turn_sense_ok(plan: fold.FoldPlan, k: int, panel: scene.Panel) -> bool:
    """Turning the red cube along the arrow gives the state after (tests/foldsim.py's
    convention: a move turns cubes joint+1.. about the line from cube joint to joint+1)."""
    import foldsim

    _joint, quarters, first = plan.steps()[k - 1]  # a half turn is one step
    quarters = abs(quarters)
    before = [tuple(c) for c in plan.frames[first]]
    after = [tuple(c) for c in plan.frames[first + quarters]]
    hold, turn = panel.hold, panel.step.pivot
    if plan.held == "last":  # the same turn, the snake numbered from the held end
        before, after = before[::-1], after[::-1]
        hold, turn = len(before) - 1 - hold, len(before) - 1 - turn
    assert turn == hold + 1
    arc = panel.views[0].arc
    o = [before[turn][a] + 0.5 for a in range(3)]
    d = [before[turn][a] - before[hold][a] for a in range(3)]
    u = [arc[0][a] - o[a] for a in range(3)]
    v = [arc[len(arc) // (2 * quarters)][a] - o[a] for a in range(3)]  # a quarter on at most
    cross = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    q = 1 if sum(cross[a] * d[a] for a in range(3)) > 0 else -1
    for _ in range(quarters):
        before = foldsim.move(before, hold + 1, q)
    return before == after


PLANS = [
    ("king-b", 0),
    pytest.param("king", 0, marks=pytest.mark.slow),
    *(pytest.param("king-b", k, marks=pytest.mark.slow) for k in (1, 2, 3)),
]


@pytest.mark.parametrize(("name", "k"), PLANS)
def test_every_plan_step_reads_on_a_phone(name, k):
    """Every step of the plan the page shows (the king's, King B's four solutions): a camera
    at the table in front and above, said in words; both joint cubes showing half a face
    or more with edges of 24 px on a phone; their numbers wholly on a face of their own, no
    arrow, cut-away line or cube over any number; an arrowhead drawn on top in the picture;
    and turning the red cube along the arrow gives the state after, the arrow along the
    path of the cubes that turn (on their side of the turning line, not across it)."""
    solutions = sc.solutions(name)
    for _ in range(k):
        next(solutions)
    plan = fold.plan(scene.display(next(solutions)))
    panels = scene.fold_panels(plan)
    problems = []
    for p in panels[1:]:
        for view in p.views:
            problems += [f"step {p.step.number} {view.caption}: {w}" for w in unreadable(p, view)]
        if not _turn_sense_ok(plan, p.step.number, p):
            problems.append(f"step {p.step.number}: the arrow turns the other way")
        turn = scene.turn_of(plan, p.step.number)
        if scene.off_the_run(turn, p.views[0].arc) > 45 * turn.quarters + 22.5 + 1:
            problems.append(f"step {p.step.number}: the arrow is not where the run turns")
    assert problems == [], "\n".join(problems)


def test_the_step_that_lifts_the_snake_says_so_in_words_and_captions():
    """The king's plan swings cubes below the table top: the step before which the snake is
    lifted says so first, and from there on its pictures' captions say the snake is in the
    air, not "above the table"; the steps before it keep the table."""
    plan = plan_of("king")
    lifted = fold.guide(plan).start.lift_before
    assert lifted >= 2  # a step on the table before it, to check both
    for p in scene.fold_panels(plan)[1:]:
        k = p.step.number
        captions = [v.caption for v in p.views]
        assert p.title.startswith(f"Step {k}: first lift the snake") == (k == lifted), k
        if k < lifted:
            assert all("above the table" in c for c in captions), (k, captions)
        else:
            assert all("in the air" in c and "the table" not in c.split(";")[0] for c in captions)


def test_the_cubes_a_swing_passes_close_to_are_numbered_where_they_show():
    """A step whose words say "go slowly: the turning cubes pass close to cubes already in
    place [cubes 7 and 8]" numbers those cubes in its pictures where a face of theirs shows
    whole (King B's jump, step 7: cube 8; cube 7's faces are behind others), so the outlined
    end held is not taken for them; and no other cube than the joint's, the end of the run,
    the ends and those is numbered."""
    plan = default_plan("king-b")
    panels = scene.fold_panels(plan)
    named = 0
    for p in panels[1:]:
        k = p.step.number
        close = {c - 1 for c in fold.guide(plan).steps[k - 1].close}
        assert all(f"{c + 1}" in p.title.split("close to cubes")[-1] for c in close), k
        shown = {i for v in p.views for i in v.labels}
        named += len(close & shown)
        held_end = 0 if plan.held == "first" else len(plan.end) - 1
        allowed = {p.hold, p.step.pivot, held_end, *p.moving, *close}
        assert shown <= allowed, (k, shown - allowed)
    assert named >= 1


def test_an_unreadable_step_is_caught():
    """The checks can fail: King B's first step seen from below, its arc reversed."""
    plan = plan_of("king-b")
    p = scene.fold_panels(plan)[2]
    below = scene.Camera(-28.0, -62.0, "seen from below")
    turn = scene.turn_of(plan, 2)
    before = p.views[0]
    moved = scene.make_view(below, before.cells, before.solid, [p.hold, p.step.pivot])
    moved = replace(moved, cells=before.cells, window=None, arc=before.arc[::-1], caption="x")
    found = unreadable(p, moved)
    assert any("below" in w for w in found) and any("not said" in w for w in found), found
    reversed_panel = replace(p, views=(replace(before, arc=before.arc[::-1]), p.views[1]))
    assert not _turn_sense_ok(plan, 2, reversed_panel)
    # the same arrow across the turning line (the old choice, towards the eye): it turns
    # the right way, but away from the run
    assert scene.off_the_run(turn, before.arc) <= 45 * turn.quarters + 22.5 + 1
    across = [scene._rotate(q, turn.origin, turn.direction, math.pi) for q in before.arc]
    assert scene.off_the_run(turn, across) >= 90
    assert turn.hold == p.hold


# -- printed in grey ---------------------------------------------------------------------------
GREY_CLASSES = {
    "held": "#ff0000",
    "turning": "#00ff00",
    "moving": "#0000ff",
    "arrow": "#ff00ff",
    "held end": "#00ffff",  # on the start
    "held end's ring": "#ffff00",
}
CLASS_CONTRAST = 0.15  # the least difference of mean grey (0 black .. 1 white) between classes
ARROW_CONTRAST = 0.5  # ... between the arrow and the band round it


@functools.cache
def default_plan(name: str) -> fold.FoldPlan:
    """The plan `snakecube fold NAME` makes and prints (its default solution)."""
    from snakecube.fold.choice import choose

    plan = choose(name).plan
    assert plan is not None
    return plan


def _classes_only(original):
    """``scene.drawing_of`` drawing each plan step's cubes in one flat colour per class
    (held, the turning cube, the moving cubes) and the arrow in its own, and the numbers as
    they are (white boxes: in no class): a map of which class each pixel of the real drawing
    shows."""

    def drawn(panel, view, *args, **kwargs):
        d = original(panel, view, *args, **kwargs)
        if panel.hold < 0:  # the start: the end held, its ring, the other cubes
            end = next(iter(panel.marks))
            shapes = []
            for s in d.shapes:
                if s.cube == end and not s.fill:
                    shapes.append(replace(s, stroke=GREY_CLASSES["held end's ring"]))
                elif s.cube >= 0 and s.fill:
                    c = GREY_CLASSES["held end" if s.cube == end else "held"]
                    shapes.append(replace(s, fill=c, stroke=c))
            return replace(d, shapes=tuple(shapes))
        moving = set(panel.moving)
        shapes = []
        for s in d.shapes:
            if s.cube >= 0 and s.fill:
                cls = (
                    "turning"
                    if s.cube == panel.step.pivot
                    else "moving"
                    if s.cube in moving
                    else "held"
                )
                shapes.append(replace(s, fill=GREY_CLASSES[cls], stroke=GREY_CLASSES[cls]))
            elif s.cube == -1 and s.stroke == scene.PLAN_ARROW:
                c = GREY_CLASSES["arrow"]
                shapes.append(replace(s, fill=c if s.fill else "", stroke=c))
        return replace(d, shapes=tuple(shapes))  # the numbers' boxes: in no class

    return drawn


def _pixels(fig, dpi: int = 72):
    import numpy as np

    fig.set_dpi(dpi)
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(float)
    pictures.plt.close(fig)
    return rgb


def grey_contrast(plan: fold.FoldPlan) -> list[dict[str, float]]:
    """Each step page of a plan's sheet, rendered as matplotlib draws it and made grey
    (luma: 0.299 R + 0.587 G + 0.114 B): the mean grey of each class's pixels (a pixel in
    from its edges, where every cube has a dark line), found by drawing the page again with
    each class in a flat colour of its own, and of the band two pixels round the arrow."""
    import numpy as np

    steps = 2 if pictures.plan_start_layout(plan).own_page else 1  # the first step page
    real = [_pixels(f) for f in pictures.plan_figures(plan)]
    original = scene.drawing_of
    try:
        scene.drawing_of = _classes_only(original)
        maps = [_pixels(f) for f in pictures.plan_figures(plan)]
    finally:
        scene.drawing_of = original
    out = []
    for rgb, where in zip(real[steps - 1 :], maps[steps - 1 :], strict=True):
        grey = (rgb @ np.array([0.299, 0.587, 0.114])) / 255
        page = {}
        for cls, hexa in GREY_CLASSES.items():
            colour = np.array([int(hexa[k : k + 2], 16) for k in (1, 3, 5)])
            mask = np.all(where == colour, axis=-1)
            inner = mask.copy()  # a pixel in from the class's edges (the cubes' edge lines)
            for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                inner &= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
            if cls not in ("arrow", "held end's ring"):  # lines: no inside
                mask = inner
            page[cls] = float(grey[mask].mean()) if mask.any() else float("nan")
            if cls == "arrow" and mask.any():
                near = mask.copy()
                for dy, dx in itertools.product(range(-2, 3), repeat=2):
                    near |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
                page["round the arrow"] = float(grey[near & ~mask].mean())
        out.append(page)
    return out


@pytest.mark.pictures
@pytest.mark.parametrize("name", ["king-b"])  # 17 step pages (the king's 18 took 50 s more)
def test_a_printed_plan_reads_in_grey(name):
    """Every step page of the plan `fold NAME --out plan.pdf` prints: held cubes, the cube
    that turns and the cubes that turn with it differ in grey by CLASS_CONTRAST or more, and
    the arrow from what is round it by ARROW_CONTRAST (besides the hatching and outlines that
    tell them apart in any colour vision); on the start picture, the ring round the end you
    hold from that cube by ARROW_CONTRAST (its red ring on dark wood printed as one grey)."""
    start, *pages = grey_contrast(default_plan(name))
    assert start["held end"] - start["held end's ring"] >= ARROW_CONTRAST, (name, start)
    assert len(pages) >= 5
    for k, page in enumerate(pages, 2):
        classes = [page[c] for c in ("held", "turning", "moving")]
        assert not any(math.isnan(v) for v in classes), (k, page)
        for a, b in itertools.combinations(classes, 2):
            assert abs(a - b) >= CLASS_CONTRAST, (name, f"page {k}", page)
        assert page["round the arrow"] - page["arrow"] >= ARROW_CONTRAST, (name, k, page)


@pytest.mark.pictures
def test_the_grey_check_can_fail(monkeypatch):
    """The old colours (red, green and blue print as one grey; the end held outlined in red
    on its dark wood) fail it."""
    monkeypatch.setattr(scene, "TURNING", "#d62728")
    monkeypatch.setattr(scene, "MOVING", "#1f9bde")
    monkeypatch.setattr(scene, "HOLD", "#2f9e44")
    monkeypatch.setattr(scene, "HELD_END", "#d62728")
    monkeypatch.setattr(scene, "pale", lambda colour, k=0.7: colour)
    plan = fold.plan(solution_of("standard"))
    start, *pages = grey_contrast(plan)
    assert any(abs(p["turning"] - p["moving"]) < CLASS_CONTRAST for p in pages)
    assert scene.cube_colour(0 if plan.held == "first" else len(plan.end) - 1) == "#7a4a22"
    assert start["held end"] - start["held end's ring"] < ARROW_CONTRAST, start


@pytest.mark.pictures
def test_a_gif_stopped_before_its_first_frame_says_it_stopped(tmp_path):
    """A time limit that runs out as the GIF starts: the stop, not matplotlib's IndexError
    from its writer finishing with no frames (`show king --seconds 2.26 --out k.gif` said
    "internal error: IndexError" now and then, when the limit fell before the first frame)."""
    from snakecube import stop

    anim = pictures.animation(next(sc.solutions("standard")))
    with stop.within(0.0, began=0.0), pytest.raises(stop.OutOfTime):
        pictures.write_pages(anim, tmp_path / "s.gif", ".gif")
    assert not (tmp_path / "s.gif").exists()
