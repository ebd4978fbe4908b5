"""Pictures with matplotlib: the assembly sheet (PNG, SVG, PDF), the animated GIF, one view.

Imported only when a picture is asked for; the core never imports this module.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; no screen needed

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.animation import FuncAnimation, PillowWriter

from snakecube.explain.scene import (
    GHOST,
    NEW,
    Step,
    angles,
    best_views,
    cube_colour,
    steps,
)
from snakecube.solution import Solution

STEPS_PER_ROW = 4


def _draw(ax: Any, solution: Solution, upto: int, new_from: int, view: tuple, numbers: bool):
    """Cubes 0..upto on a 3D axis; cubes from new_from on are highlighted and numbered."""
    dims = solution.region.dims
    filled = np.zeros(dims, dtype=bool)
    colours = np.empty(dims, dtype=object)
    for i, (x, y, z) in enumerate(solution.cells[: upto + 1]):
        filled[x, y, z] = True
        colours[x, y, z] = NEW if i >= new_from else cube_colour(i)
    ax.voxels(filled, facecolors=colours, edgecolor="#333333", linewidth=0.3, shade=True)
    _outline(ax, dims)
    if numbers:
        for i in _labelled(solution, new_from, upto):
            _number(ax, solution.cells[i], i, fontsize=6)
    elev, azim = angles(view)
    ax.view_init(elev=elev, azim=azim)
    ax.set_box_aspect(dims)
    ax.set_axis_off()


def _number(ax: Any, cell: tuple[int, ...], i: int, fontsize: float) -> None:
    """Cube i's number (1-based) on a white label at the centre of its cell, 2-D or 3-D;
    drawn above everything, including the depth-sorted cubes of a 3-D axis."""
    centre = [v + 0.5 for v in cell]
    ax.text(
        *centre, str(i + 1), ha="center", va="center", fontsize=fontsize, color="black",
        zorder=10_000, bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none"},
    )  # fmt: skip


def _labelled(solution: Solution, first: int, last: int) -> list[int]:
    """The new cubes to number: all of them, or for long steps only the segment ends."""
    if last - first < 4:
        return list(range(first, last + 1))
    ends, at = {first, last}, 0
    for n in solution.snake.lengths:
        at += n - 1
        if first <= at <= last:
            ends.add(at)
    return sorted(ends)


def _outline(ax: Any, dims: tuple[int, int, int]) -> None:
    """The target's bounding box as thin grey edges, for orientation."""
    a, b, c = dims
    for s, t in (((0, 0), (a, 0)), ((a, 0), (a, b)), ((a, b), (0, b)), ((0, b), (0, 0))):
        for z in (0, c):
            ax.plot([s[0], t[0]], [s[1], t[1]], [z, z], color=GHOST, linewidth=0.6)
    for x, y in ((0, 0), (a, 0), (a, b), (0, b)):
        ax.plot([x, x], [y, y], [0, c], color=GHOST, linewidth=0.6)


def sheet(solution: Solution, max_steps: int = 24) -> Any:
    """The assembly sheet as a matplotlib Figure: one panel per step, two views each."""
    plan = steps(solution, max_steps)
    big = max(solution.region.dims) > 4
    per_row = STEPS_PER_ROW - 1 if big else STEPS_PER_ROW
    scale = 1.25 if big else 1.0  # bigger panels for bigger boxes, so labels stay readable
    rows = math.ceil(len(plan) / per_row)
    fig = plt.figure(figsize=(per_row * 4.0 * scale, rows * 2.3 * scale + 0.6), dpi=110)
    halves: Any = fig.subfigures(2, 1, height_ratios=[0.6, rows * 2.3 * scale])
    head, body = halves[0], halves[1]
    head.suptitle(
        f"{solution.snake.turns()} in the {solution.region.describe()}\n"
        "each step from two sides: new cubes blue and numbered, earlier cubes alternate dark "
        "and light; 'up', 'right', ... as in the text instructions",
        fontsize=10,
    )
    subs = body.subfigures(rows, per_row, squeeze=False)
    for i, step in enumerate(plan):
        _panel(subs[i // per_row][i % per_row], solution, step)
    for j in range(len(plan), rows * per_row):
        subs[j // per_row][j % per_row].set_visible(False)
    return fig


def _panel(sub: Any, solution: Solution, step: Step) -> None:
    placed = set(solution.cells[: step.first])
    new = list(solution.cells[step.first : step.last + 1])
    views = best_views(placed, new)
    sub.suptitle(f"{step.number}. {step.words}", fontsize=8, y=0.98)
    for j, view in enumerate(views):
        ax = sub.add_subplot(1, len(views), j + 1, projection="3d")
        _draw(ax, solution, step.last, step.first, view, numbers=True)


def single(solution: Solution, size: float = 4.0) -> Any:
    """The folded solution from its best corner, every cube numbered."""
    fig = plt.figure(figsize=(size, size), dpi=100)
    ax = fig.add_subplot(projection="3d")
    view = best_views(set(), list(solution.cells), count=1)[0]
    _draw(ax, solution, len(solution.cells) - 1, len(solution.cells), view, numbers=False)
    return fig


def animation(solution: Solution, max_steps: int = 60, fps: float = 2.0) -> Any:
    """The fold, one step a frame, turning slowly; ends on three frames of the whole."""
    plan = steps(solution, max_steps)
    fig = plt.figure(figsize=(5, 5), dpi=90)
    ax = fig.add_subplot(projection="3d")
    frames = [*range(len(plan)), *[len(plan) - 1] * 3]

    def frame(k: int) -> None:
        ax.clear()
        step = plan[frames[k]]
        azim = 30 + 360 * k / len(frames)
        _draw(ax, solution, step.last, step.first, (1, 1, 1), numbers=False)
        ax.view_init(elev=28, azim=azim)
        ax.set_title(f"{step.number}/{len(plan)}  {step.words}", fontsize=8)

    anim = FuncAnimation(fig, frame, frames=len(frames), interval=1000 / fps)
    anim.frames_count = len(frames)  # type: ignore[attr-defined]
    anim.fps = fps  # type: ignore[attr-defined]
    return anim


def save(
    solution: Solution, path: str | Path, max_steps: int | None = None, kind: str | None = None
) -> Path:
    """Write a sheet (.png, .svg, .pdf) or an animation (.gif), chosen by ``kind`` or the
    extension."""
    path = Path(path)
    kind = (kind or path.suffix).lower()
    if kind == ".gif":
        anim = animation(solution, max_steps or 60)
        anim.save(path, writer=PillowWriter(fps=anim.fps))
        plt.close(anim._fig)
        return path
    fig = sheet(solution, max_steps or 24)
    fig.savefig(path, format=kind.lstrip("."))
    plt.close(fig)
    return path


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
            _number(ax, (x, y), i, fontsize=7)
        xs = [p[0] for p in layout]
        ys = [p[1] for p in layout]
        ax.plot([x + 0.5 for x in xs], [y + 0.5 for y in ys], color="#1f9bde", linewidth=1.2)
        ax.set_xlim(min(xs) - 0.2, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 0.2, max(ys) + 1.2)
        ax.set_aspect("equal")
    fig.savefig(path)
    plt.close(fig)
    return path
