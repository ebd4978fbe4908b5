"""Pictures people fold from: numbers only on faces that show, nothing cut off, every form.

The checks here share no code with what draws: a number's label area must lie on a face of
its own cube and under no shape painted after that cube (the drawing's own paint order), and
every cube's outline and every word must lie inside its picture and its page as matplotlib
actually placed them.
"""

from __future__ import annotations

import functools

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
        later = [s for s in d.shapes[own[-1] + 1 :] if s.fill and s.cube not in (-1, label.cube)]
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
    panel = scene.Panel(scene.steps(shown)[-1], "", (cover.view,), cover.view, (), None,
                        ((0, 0, 0), shown.region.dims), colours=cover.colours)  # fmt: skip
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
            to_page = coll.get_transform()
            for path in coll.get_paths():
                for x, y in to_page.transform(path.vertices):
                    if not (box.x0 - 1 <= x <= box.x1 + 1 and box.y0 - 1 <= y <= box.y1 + 1):
                        out.append(f"a shape at ({x:.0f}, {y:.0f}) outside its picture {box}")
                        break
        for text in ax.texts:
            if not _within(text.get_window_extent(renderer), box, 2.0):
                out.append(f"number {text.get_text()} outside its picture")
    for text in fig.texts:
        if text.get_text() and not _within(text.get_window_extent(renderer), page):
            out.append(f"words {text.get_text()[:40]!r} outside the page")
    return out


@pytest.mark.pictures
@pytest.mark.slow
def test_nothing_is_cut_off_in_the_kings_sheets_and_gifs(tmp_path):
    """Every page of the king's sheets: the served page's PDF (no plan), `show --out` PNG and
    SVG (the pages stacked, the rest of the snake hanging as the plan has it) and the plan's
    PDF; and every frame of its two GIFs. Each is written too, as `show` and `fold` do."""
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
        if name == "show.png":
            figures[0].savefig(tmp_path / "show.svg")
        pictures._write(figures, tmp_path / name, name[-4:])
    for name, anim in (("show.gif", pictures.animation(sol, tails)),
                       ("fold.gif", pictures.plan_animation(plan))):  # fmt: skip
        for k in range(anim.frames_count):
            anim._func(k)
            assert cut_off(anim._fig) == [], (name, k)
        pictures._write(anim, tmp_path / name, ".gif")
    for name in ("served.pdf", "show.png", "show.svg", "fold.pdf", "show.gif", "fold.gif"):
        assert (tmp_path / name).read_bytes()[:4] == MAGIC[name[-4:]][:4], name


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
    items = [line for line in fold.start_words(plan) if line.startswith("  ")]
    for item in items:  # one line each, not run together
        assert f"• {item.strip()}" in start.split("\n"), item
    assert "Cube 1 is the end" in start or "either end is cube 1" in start
    captions = [t.get_text() for fig in figs[1:] for t in fig.texts if t.get_style() == "italic"]
    assert sum(c.startswith("before") for c in captions) == len(plan.moves)
    assert sum(c.startswith("after") for c in captions) == len(plan.moves)
    for fig in figs:
        pictures.plt.close(fig)


# -- every form, every puzzle ----------------------------------------------------------------------


WRITTEN = ("standard", "king-b")  # every form written; the king's: just above


@pytest.mark.pictures
@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in CATALOG if n != "king"])
def test_every_form_for_every_catalog_puzzle(name, tmp_path):
    """What `show NAME --out F` and `fold NAME --out F` make: every page of both sheets (one
    by one, for PDF, and stacked, for PNG and SVG) and every GIF frame laid out with nothing
    cut off, and the viewer; for the standard snake and King B every form written as the
    commands write it."""
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
    for form in FORMS:
        sheet = explain.save(shown, tmp_path / f"show{form}", tails=tails, typed=name)
        plan_file = explain.save_plan(plan, tmp_path / f"fold{form}", typed=name)
        for path in (sheet, plan_file):
            data = path.read_bytes()
            assert data[: len(MAGIC[form])] == MAGIC[form], path
