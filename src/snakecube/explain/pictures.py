"""Pictures with matplotlib: printable sheets (PDF pages, or PNG/SVG), the GIF, flat layouts.

Imported only when a picture is asked for; the core never imports this module. What each
picture shows is decided in ``explain.scene``; this module only draws it.

Sheets are pages of real paper size (A4 by default, or Letter), two panels across and three
down, one step (one segment) per panel, every number at least 9 pt on the printed page.
PDF files get one page per sheet page; PNG and SVG files hold the pages one under another.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; no screen needed

import matplotlib.pyplot as plt
from matplotlib.animation import FuncAnimation, PillowWriter
from matplotlib.backends.backend_pdf import PdfPages
from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection

from snakecube import frame
from snakecube.explain import scene
from snakecube.explain.scene import ARROW, GHOST, NEW, PIVOT, Panel, Tails, View, cube_colour
from snakecube.fold import FoldPlan
from snakecube.shape import Coord
from snakecube.solution import Solution

TAIL = "#4f7cac"  # the rest of the snake: dashed, never drawn over a solid cube
BOX = "#c4c4c4"  # the finished box's outline: thin and light
PAPERS = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}  # inches, portrait
COLUMNS, ROWS = 2, 3
MARGIN = 0.45  # inches
NUMBER_PT = 9.0  # cube numbers on paper
TEXT_PT = 9.0  # step words on paper
ZOOM = 1.4  # matplotlib leaves a wide margin round a 3D box: the drawing fills its panel


# -- cubes ------------------------------------------------------------------------------------
def _faces(cell: Coord, eye: Sequence[float]) -> list[list[tuple[float, float, float]]]:
    """The three faces of a unit cube that look towards the eye, as corner lists."""
    out = []
    for axis, sign in scene.facing(eye):
        fixed = cell[axis] + (1 if sign > 0 else 0)
        u, v = [a for a in range(3) if a != axis]
        quad = []
        for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
            p = [0.0, 0.0, 0.0]
            p[axis], p[u], p[v] = fixed, cell[u] + du, cell[v] + dv
            quad.append((p[0], p[1], p[2]))
        out.append(quad)
    return out


def _edges(cell: Coord) -> list[list[tuple[int, int, int]]]:
    c = frame.corners(cell)
    return [[c[a], c[b]] for a, b in frame.CUBE_EDGES]


# The drawing of one view, layer by layer (box, rest of the snake, cubes, numbers, arrow):
# matplotlib calls in the order they are painted.
def _draw_view(
    ax: Any, solution: Solution, panel: Panel, view: View, flat_bounds: Any, zoom: float = 0.0
) -> None:
    """One 3D view of a panel: cubes far to near (painter's order, exact for unit cubes seen
    orthographically), then the pivot's outline, the arrow and the numbers on top."""
    cells = panel.cells or solution.cells
    eye = view.camera.eye
    step = panel.step
    ax.computed_zorder = False
    items: list[tuple[float, str, Any]] = []
    for i in view.solid:
        items.append((scene.dot(cells[i], eye), "solid", i))
    for i in view.cutaway:
        items.append((scene.dot(cells[i], eye), "cut", cells[i]))
    for cell in panel.tail:
        items.append((scene.dot(cell, eye), "tail", cell))
    items.sort(key=lambda t: t[0])
    for z, (_, kind, what) in enumerate(items):
        if kind == "solid":
            new = what >= step.first
            colour = NEW if new else cube_colour(what)
            if panel.colours is not None:
                colour = panel.colours[what]
            ax.add_collection3d(
                Poly3DCollection(
                    _faces(cells[what], eye),
                    facecolors=colour,
                    edgecolors="#333333",
                    linewidths=0.5,
                    zorder=z,
                )
            )
            if what == step.pivot:
                outline = [
                    [q[k], q[(k + 1) % 4]] for q in _faces(cells[what], eye) for k in range(4)
                ]
                ax.add_collection3d(
                    Line3DCollection(outline, colors=PIVOT, linewidths=2.2, zorder=z + 0.5)
                )
        elif kind == "cut":
            ax.add_collection3d(
                Line3DCollection(
                    _edges(what), colors="#999999", linewidths=0.6, linestyles="dotted", zorder=z
                )
            )
        else:  # the rest of the snake: dashed blue-grey edges, under every solid cube
            ax.add_collection3d(
                Line3DCollection(
                    _edges(what), colors=TAIL, linewidths=0.8, linestyles=(0, (3, 2)), zorder=-1
                )
            )
    if panel.box is not None:  # the box's outline, drawn lightly, under everything
        lo_b, hi_b = panel.box
        ends = [
            tuple(float(lo_b[k] if not (c >> k) & 1 else hi_b[k]) for k in range(3))
            for c in range(8)
        ]
        box_lines: list[list[Any]] = [[ends[c], ends[d]] for c, d in frame.CUBE_EDGES]
        ax.add_collection3d(Line3DCollection(box_lines, colors=BOX, linewidths=0.6, zorder=-2))
    top = len(items) + 10
    if panel.arrow is not None:
        (x0, y0, z0), (x1, y1, z1) = panel.arrow
        ax.quiver(
            x0,
            y0,
            z0,
            x1 - x0,
            y1 - y0,
            z1 - z0,
            color=ARROW,
            linewidth=2.0,
            arrow_length_ratio=0.25,
            zorder=top,
        )
    for i, point in view.labels.items():
        ax.text(
            *point,
            str(i + 1),
            ha="center",
            va="center",
            fontsize=NUMBER_PT,
            color="black",
            zorder=top + 1,
            fontweight="bold" if i >= step.first else "normal",
            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85},
        )
    lo, hi = panel.bounds
    ax.set_proj_type("ortho")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(
        (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]),
        zoom=zoom or (1.0 if view.camera is scene.ABOVE else ZOOM),
    )
    ax.view_init(elev=view.camera.elev, azim=view.camera.azim)
    ax.set_axis_off()
    if view.camera.name:
        ax.set_title(view.camera.name, fontsize=TEXT_PT, pad=0)


def _draw_flat(ax: Any, solution: Solution, panel: Panel) -> None:
    """A one-layer target from above, x to the right and 'away from you' up the page."""
    cells = solution.cells
    step = panel.step
    for cell in panel.tail:
        ax.add_patch(
            plt.Rectangle(cell[:2], 1, 1, facecolor=GHOST, alpha=0.45, edgecolor="#aaaaaa")
        )
    for i in range(step.last + 1):
        x, y, _ = cells[i]
        new = i >= step.first
        colour = NEW if new else cube_colour(i)
        ax.add_patch(
            plt.Rectangle(
                (x, y),
                1,
                1,
                facecolor=colour,
                edgecolor=PIVOT if i == step.pivot else "#333333",
                linewidth=2.2 if i == step.pivot else 0.6,
            )
        )
        if new or i == step.pivot:
            ax.text(
                x + 0.5,
                y + 0.5,
                str(i + 1),
                ha="center",
                va="center",
                fontsize=NUMBER_PT,
                fontweight="bold" if new else "normal",
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85},
            )
    if panel.arrow is not None:
        (x0, y0, _), (x1, y1, _) = panel.arrow
        ax.annotate(
            "", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "->", "color": ARROW, "lw": 2}
        )
    lo, hi = panel.bounds
    ax.set_xlim(lo[0] - 0.1, hi[0] + 0.1)
    ax.set_ylim(lo[1] - 0.1, hi[1] + 0.1)
    ax.set_aspect("equal")
    ax.set_axis_off()


def draw_panel(
    fig: Any, rect: tuple[float, float, float, float], solution: Solution, panel: Panel
) -> None:
    """Draw ``panel`` into ``rect`` (left, bottom, width, height, in figure fractions)."""
    left, bottom, width, height = rect
    fig_w, fig_h = fig.get_size_inches()
    chars = max(20, int(width * fig_w * 72 / (TEXT_PT * 0.55)))
    lines = textwrap.wrap(panel.title, chars) + [
        n for note in panel.notes for n in textwrap.wrap(note, chars)
    ]
    text_h = (len(lines) * TEXT_PT * 1.3 / 72) / fig_h
    fig.text(
        left,
        bottom + height,
        "\n".join(lines),
        ha="left",
        va="top",
        fontsize=TEXT_PT,
        linespacing=1.25,
    )
    body_h = height - text_h - 0.012  # a margin: a turned box reaches past its axes
    flat = scene.is_flat(solution)
    views = panel.views[:1] if flat else panel.views
    for j, view in enumerate(views):
        w = width / len(views)
        box = (left + j * w, bottom, w, body_h)
        if flat:
            _draw_flat(fig.add_axes(box), solution, panel)
        else:
            _draw_view(fig.add_axes(box, projection="3d"), solution, panel, view, None)


# -- sheets ------------------------------------------------------------------------------------
Slot = tuple[int, int, int, int]  # panel number, row, column, columns spanned


def _place(panels: list[Panel], columns: int, rows: int, first_rows: int) -> list[list[Slot]]:
    """Where each panel goes: pages of ``columns`` x ``rows`` (the first page has
    ``first_rows``); a panel with a second view takes a whole row, so both views are as
    large as a panel's."""
    pages: list[list[Slot]] = [[]]
    r, c = 0, 0
    for k, p in enumerate(panels):
        span = columns if len(p.views) > 1 and columns > 1 else 1
        if c + span > columns:
            r, c = r + 1, 0
        if r >= (first_rows if len(pages) == 1 else rows):
            pages.append([])
            r, c = 0, 0
        pages[-1].append((k, r, c, span))
        c += span
        if c >= columns:
            r, c = r + 1, 0
    return [p for p in pages if p]


INSTRUCTIONS_KEY = (
    " Each step places one segment: its new cubes are blue and numbered, the cube it turns "
    "at is outlined in red, the red arrow shows where the segment goes, and dashed blue "
    "outlines show where the rest of the snake hangs (as a fold plan has it); thin grey lines "
    "are the finished box. Earlier "
    "cubes alternate dark and light, like the wooden puzzle."
)
NEXT_KEY = (
    " Each step places one segment: its new cubes are blue and numbered, the cube it turns "
    "at is outlined in red, the red arrow shows where the segment goes, and dashed blue "
    "outlines show the next segment at its place; thin grey lines are the finished box. "
    "Earlier cubes alternate dark and light, like the wooden puzzle."
)


def _key(tails: Tails | None) -> str:
    return NEXT_KEY if tails is None else INSTRUCTIONS_KEY


PLAN_KEY = (
    " Each picture shows the whole snake after one step, the end you hold kept still: cubes "
    "already where they end are wood, the red cube is the one you turn (it spins in place on "
    "the joint, next to the last cube you hold, which is numbered too), the cubes that swung "
    "with it are blue (the last of them numbered), the red arrow shows the swing, "
    "and dashed blue outlines show the rest of the snake; the end you hold is numbered in "
    "every picture; the first picture is the start seen from above."
)


def _header(fig: Any, top: float, page_h: float, title: str, page: int, pages: int) -> None:
    fig_w, fig_h = fig.get_size_inches()
    mx, my = MARGIN / fig_w, MARGIN / fig_h
    fig.text(mx, top - my, title, ha="left", va="top", fontsize=TEXT_PT + 1, family="monospace")
    fig.text(
        0.5,
        top - page_h + my * 0.6,
        f"page {page} of {pages}",
        ha="center",
        va="bottom",
        fontsize=TEXT_PT,
    )


def _title(typed: str, solution: Solution) -> str:
    """The header: the snake as typed (wrapped), and the target."""
    text = f"{typed}  in the {solution.region.describe()}"
    return "\n".join(textwrap.wrap(text, 100))


def _draw_page(
    fig: Any,
    top: float,
    page_h: float,
    solution: Solution,
    panels: list[Panel],
    slots: list[Slot],
    grid: tuple[int, int],
    intro: str,
    title: str,
) -> None:
    """The panels of one page, its top at figure fraction ``top``, ``page_h`` tall, in a
    grid of ``grid`` (columns, rows); ``intro`` (if any) above them."""
    fig_w, fig_h = fig.get_size_inches()
    mx, my = MARGIN / fig_w, MARGIN / fig_h
    head = (0.15 + 0.17 * (title.count("\n") + 1)) / fig_h
    grid_top = top - my - head
    columns, rows = grid
    if intro:
        chars = int((fig_w - 2 * MARGIN) * 72 / (TEXT_PT * 0.52))
        lines = textwrap.wrap(intro, chars)
        fig.text(
            mx,
            grid_top,
            "\n".join(lines),
            ha="left",
            va="top",
            fontsize=TEXT_PT,
            linespacing=1.25,
        )
        grid_top -= (len(lines) * TEXT_PT * 1.3 / 72 + 0.15) / fig_h
    cell_w = (1 - 2 * mx) / columns
    cell_h = (grid_top - (top - page_h + my)) / rows
    for k, r, c, span in slots:
        rect = (
            mx + c * cell_w + 0.01,
            grid_top - (r + 1) * cell_h + 0.01,
            span * cell_w - 0.02,
            cell_h - 0.02,
        )
        draw_panel(fig, rect, solution, panels[k])


def _draw_cover(
    fig: Any, top: float, page_h: float, shown: Solution, cover: scene.Cover, key: str
) -> None:
    """The cover: the snake as typed, the finished shape coloured by segment, the start, the
    layer map and the checks."""
    fig_w, fig_h = fig.get_size_inches()
    mx, my = MARGIN / fig_w, MARGIN / fig_h
    y = top - my
    head = _title(cover.typed, shown)
    fig.text(mx, y, head, ha="left", va="top", fontsize=TEXT_PT + 3, family="monospace")
    y -= (0.25 + 0.22 * (head.count("\n") + 1)) / fig_h
    chars = int((fig_w - 2 * MARGIN) * 72 / (TEXT_PT * 0.52))
    lines = textwrap.wrap(
        f"The finished shape, each segment in its own colour, cube numbers where they show. "
        f"{cover.start}{key}",
        chars,
    )
    fig.text(mx, y, "\n".join(lines), ha="left", va="top", fontsize=TEXT_PT, linespacing=1.25)
    y -= (len(lines) * TEXT_PT * 1.3 / 72 + 0.1) / fig_h
    blocks = [b.replace(" (far side at the top)", "") for b in cover.layers]
    per_row = max(1, min(len(blocks), int((fig_w - 2 * MARGIN) // max(map(_block_width, blocks)))))
    line_h = TEXT_PT * 1.25 / 72 / fig_h
    block_h = (max(b.count("\n") for b in blocks) + 1.6) * line_h
    map_h = 0.25 / fig_h + math.ceil(len(blocks) / per_row) * block_h
    checks = [f"after step {k}: {w.removeprefix('Check: ')}" for k, w in cover.checks.items()]
    check_lines = [
        line for c in checks for line in textwrap.wrap(c, chars, subsequent_indent="    ")
    ]
    checks_h = (len(check_lines) + 1) * line_h if check_lines else 0.0
    room = y - (top - page_h + my + 0.3 / fig_h)  # above the page number
    pic_h = max(0.2 * page_h, min(0.42 * page_h, room - map_h - checks_h - 0.02))
    n = len(shown.cells)
    last = scene.steps(shown)[-1]
    panel = Panel(
        scene.Step(last.number, n, n - 1, -1, last.direction),
        "",
        (cover.view,),
        cover.view,
        (),
        None,
        ((0, 0, 0), shown.region.dims),
        colours=cover.colours,
        box=((0, 0, 0), shown.region.dims),
    )
    ax_box = (mx + 0.1, y - pic_h, 1 - 2 * mx - 0.2, pic_h)
    if scene.is_flat(shown):
        flat = replace(panel, step=scene.Step(last.number, 0, n - 1, -1, 0))
        _draw_flat(fig.add_axes(ax_box), shown, flat)
    else:
        _draw_view(fig.add_axes(ax_box, projection="3d"), shown, panel, cover.view, None, 1.0)
    y -= pic_h + 0.02
    fig.text(
        mx,
        y,
        "Layer map: each layer seen from above, the side away from you at the top.",
        ha="left",
        va="top",
        fontsize=TEXT_PT,
    )
    y -= 0.25 / fig_h
    for j, block in enumerate(blocks):
        r, c = divmod(j, per_row)
        fig.text(
            mx + c * (1 - 2 * mx) / per_row,
            y - r * block_h,
            block,
            ha="left",
            va="top",
            fontsize=TEXT_PT,
            family="monospace",
            linespacing=1.25,
        )
    y -= math.ceil(len(blocks) / per_row) * block_h
    if check_lines:
        fig.text(
            mx,
            y,
            "Checks on the way (also in the steps):\n" + "\n".join(check_lines),
            ha="left",
            va="top",
            fontsize=TEXT_PT,
            linespacing=1.25,
        )


def _block_width(block: str) -> float:
    """Inches a layer-map block takes on paper, with a gap."""
    chars = max(len(line) for line in block.splitlines())
    return max(chars, 18) * TEXT_PT * 0.62 / 72 + 0.35


def _cube_round(lo: Coord, hi: Coord) -> tuple[Coord, Coord]:
    """A cube of whole cells, one wider than the box lo..hi, with the box at its centre (a
    drawing of the box alone, at ZOOM, would touch its panel's edges)."""
    side = max(hi[a] - lo[a] for a in range(3)) + 1
    low = _xyz(lo[a] - (side - (hi[a] - lo[a])) // 2 for a in range(3))
    return low, _xyz(low[a] + side for a in range(3))


def _xyz(values: Any) -> Coord:
    x, y, z = values
    return (x, y, z)


def _pages(
    solution: Solution,
    panels: list[Panel],
    paper: str,
    intro: str,
    stacked: bool,
    cover: scene.Cover | None = None,
    typed: str | None = None,
) -> list[Any]:
    """The pages as Figures of the paper's size, or (``stacked``) one Figure of them all.
    Instructions (with a ``cover``) start with the cover and put two panels across and three
    down, at one zoom; fold plans one panel across and two down, at one zoom a page."""
    size = PAPERS[paper]
    panels = list(panels)  # zoomed below, the caller's list unchanged
    plan = bool(panels) and panels[0].colours is not None
    grid = (1, 2) if plan else (COLUMNS, ROWS)
    first_rows = grid[1] if cover is not None or plan else grid[1] - 1
    layout = _place(panels, grid[0], grid[1], first_rows)
    # One zoom for the panels drawn together: the whole sheet of instructions (the box stays
    # put), each page of a plan (the snake spreads differently at every quarter turn, and a
    # zoom for the whole plan drew the king's cubes at a third of the size); a plan's start,
    # seen from above, keeps its own.
    groups = [[k for k, *_ in slots] for slots in layout] if plan else [list(range(len(panels)))]
    box = None if plan else ((0, 0, 0), solution.region.dims)
    for group in groups:
        zoomed = [k for k in group if not (plan and panels[k].step.pivot < 0)]
        if not zoomed:
            continue
        lo = _xyz(min(panels[k].bounds[0][a] for k in zoomed) for a in range(3))
        hi = _xyz(max(panels[k].bounds[1][a] for k in zoomed) for a in range(3))
        if plan:  # as a cube round the snake: ZOOM fits a cube's drawing to its panel
            lo, hi = _cube_round(lo, hi)
        for k in zoomed:
            panels[k] = replace(panels[k], bounds=(lo, hi), box=box)
    shown = cover.typed if cover is not None else (typed or solution.snake.turns())
    title = _title(shown, solution)
    covers = 1 if cover is not None else 0
    total = len(layout) + covers
    pages: list[tuple[int, Any]] = []  # page number, what goes on it
    if cover is not None:
        pages.append((1, cover))
    pages += [(covers + j + 1, slots) for j, slots in enumerate(layout)]

    def draw(fig: Any, top: float, page_h: float, number: int, what: Any) -> None:
        _header(fig, top, page_h, "" if number == 1 and cover else title, number, total)
        if isinstance(what, scene.Cover):
            _draw_cover(fig, top, page_h, solution, what, intro)
            return
        first = number == 1
        _draw_page(
            fig,
            top,
            page_h,
            solution,
            panels,
            what,
            grid,
            intro if first and cover is None else "",
            title,
        )

    if stacked:
        fig = plt.figure(figsize=(size[0], size[1] * total), dpi=110)
        for number, what in pages:
            draw(fig, 1 - (number - 1) / total, 1 / total, number, what)
        return [fig]
    figs = []
    for number, what in pages:
        fig = plt.figure(figsize=size, dpi=150)
        draw(fig, 1.0, 1.0, number, what)
        figs.append(fig)
    return figs


def sheet_figures(
    solution: Solution, paper: str = "a4", tails: Tails | None = None, typed: str | None = None
) -> list[Any]:
    """The instructions as one matplotlib Figure per page, of the paper's real size: a
    cover (``typed``: the snake as the person typed it), then the steps."""
    shown = scene.display(solution)
    return _pages(
        shown,
        scene.panels(shown, tails),
        paper,
        _key(tails),
        stacked=False,
        cover=scene.cover(shown, typed),
    )


def sheet(solution: Solution, paper: str = "a4", tails: Tails | None = None) -> Any:
    """The instructions as one Figure, the pages one under another (for PNG and SVG)."""
    shown = scene.display(solution)
    return _pages(
        shown,
        scene.panels(shown, tails),
        paper,
        _key(tails),
        stacked=True,
        cover=scene.cover(shown),
    )[0]


def plan_figures(
    plan: FoldPlan, paper: str = "a4", stacked: bool = False, typed: str | None = None
) -> list[Any]:
    """A fold plan's sheet: the flat start, then the snake after each quarter turn; the
    header shows the snake as ``typed`` (else its turn string)."""
    return _pages(
        plan.solution,
        scene.fold_panels(plan),
        paper,
        f"A plan of {plan.quarter_turns} quarter turns." + PLAN_KEY,
        stacked,
        typed=typed,
    )


# -- the GIF ----------------------------------------------------------------------------------
SECONDS_PER_STEP = 1.5


def _animate(solution: Solution, panels: list[Panel], done: str) -> Any:
    """One panel a frame (1.5 s each), the camera fixed; ends on two frames of the result."""
    fig = plt.figure(figsize=(5.5, 6.0), dpi=90)
    frames = [*range(len(panels)), len(panels) - 1, len(panels) - 1]

    def frame(k: int) -> None:
        fig.clear()
        p = panels[frames[k]]
        if k >= len(panels):  # the finished shape: no arrow, nothing hanging
            one = replace(p, title=done, views=(p.single,), tail=(), arrow=None, notes=())
        else:  # one picture a frame: a cut-away rather than a second view
            one = replace(p, views=(p.single,), notes=p.notes if p.single.cutaway else ())
        draw_panel(fig, (0.04, 0.03, 0.92, 0.93), solution, one)

    anim = FuncAnimation(fig, frame, frames=len(frames), interval=1000 * SECONDS_PER_STEP)
    anim.frames_count = len(frames)  # type: ignore[attr-defined]
    anim.fps = 1 / SECONDS_PER_STEP  # type: ignore[attr-defined]
    return anim


def animation(solution: Solution, tails: Tails | None = None) -> Any:
    """The fold, one step a frame, the camera fixed, new cubes numbered."""
    shown = scene.display(solution)
    return _animate(shown, scene.panels(shown, tails), f"Done: all {len(shown.cells)} cubes placed")


def plan_animation(plan: FoldPlan) -> Any:
    """A fold plan, one quarter turn a frame, the held end still."""
    return _animate(
        plan.solution, scene.fold_panels(plan), f"Done: {plan.quarter_turns} quarter turns"
    )


# -- files ------------------------------------------------------------------------------------
def _write(figs_or_anim: Any, path: Path, kind: str) -> Path:
    if kind == ".gif":
        figs_or_anim.save(path, writer=PillowWriter(fps=figs_or_anim.fps))
        plt.close(figs_or_anim._fig)
    elif kind == ".pdf":
        with PdfPages(path) as pdf:
            for fig in figs_or_anim:
                pdf.savefig(fig)
                plt.close(fig)
    else:
        fig = figs_or_anim[0]
        fig.savefig(path, format=kind.lstrip("."))
        plt.close(fig)
    return path


def save(
    solution: Solution,
    path: str | Path,
    kind: str | None = None,
    paper: str = "a4",
    tails: Tails | None = None,
    typed: str | None = None,
) -> Path:
    """Write a sheet (.pdf pages, or .png/.svg) or an animation (.gif), chosen by ``kind``
    or the extension; ``typed`` is the snake as the person typed it, for the cover."""
    path = Path(path)
    kind = (kind or path.suffix).lower()
    if kind == ".gif":
        return _write(animation(solution, tails), path, kind)
    shown = scene.display(solution)
    panels = scene.panels(shown, tails)
    figs = _pages(
        shown, panels, paper, _key(tails), kind != ".pdf", cover=scene.cover(shown, typed)
    )
    return _write(figs, path, kind)


def save_plan(
    plan: FoldPlan,
    path: str | Path,
    kind: str | None = None,
    paper: str = "a4",
    typed: str | None = None,
) -> Path:
    """Write a fold plan's sheet (.pdf, .png, .svg) or animation (.gif)."""
    path = Path(path)
    kind = (kind or path.suffix).lower()
    if kind == ".gif":
        return _write(plan_animation(plan), path, kind)
    return _write(plan_figures(plan, paper, stacked=kind != ".pdf", typed=typed), path, kind)


def single(solution: Solution, size: float = 4.0) -> Any:
    """The finished solution from the table camera, cubes coloured by position in the snake."""
    shown = scene.display(solution)
    last = scene.steps(shown)[-1]
    fig = plt.figure(figsize=(size, size), dpi=100)
    n = len(shown.cells)
    view = View(scene.CAMERA, tuple(range(n)), (), {})
    panel = Panel(
        scene.Step(last.number, n, n - 1, -1, last.direction),
        "",
        (view,),
        view,
        (),
        None,
        ((0, 0, 0), shown.region.dims),
    )
    _draw_view(fig.add_axes((0, 0, 1, 1), projection="3d"), shown, panel, view, None, 1.0)
    return fig


def png_bytes(solution: Solution) -> bytes:
    """One picture of the solution as PNG bytes (for notebooks)."""
    fig = single(solution)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def flat_sheet(result: Any, path: str | Path) -> Path:
    """Draw the most compact flat layouts (one per class up to the square's symmetries),
    cubes numbered and alternately coloured, the first cube outlined."""
    path = Path(path)
    shown = result.examples[:12]
    cols = min(4, max(1, len(shown)))
    rows = max(1, math.ceil(len(shown) / cols))
    cols = max(cols, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.4 * rows + 0.6), squeeze=False)
    fig.suptitle(
        f"{result.snake.turns()}\n{result.layouts} flat layouts; the {result.most_compact} most "
        f"compact fit {result.bounding_box[0]}x{result.bounding_box[1]} "
        f"({result.most_compact_distinct} up to symmetry); cube 1 outlined",
        fontsize=9,
    )
    for ax in axes.flat:
        ax.set_axis_off()
    for ax, layout in zip(axes.flat, shown, strict=False):
        for i, (x, y) in enumerate(layout):
            ax.add_patch(
                plt.Rectangle(
                    (x, y),
                    1,
                    1,
                    facecolor=cube_colour(i),
                    edgecolor="black",
                    linewidth=2.0 if i == 0 else 0.6,
                )
            )
            ax.text(
                x + 0.5,
                y + 0.5,
                str(i + 1),
                ha="center",
                va="center",
                fontsize=7,
                bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none"},
            )
        xs = [p[0] for p in layout]
        ys = [p[1] for p in layout]
        ax.plot([x + 0.5 for x in xs], [y + 0.5 for y in ys], color="#1f9bde", linewidth=1.2)
        ax.set_xlim(min(xs) - 0.2, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 0.2, max(ys) + 1.2)
        ax.set_aspect("equal")
    fig.savefig(path)
    plt.close(fig)
    return path
