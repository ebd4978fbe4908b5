"""What the pictures show, decided without any plotting library.

The table frame, the cameras, visibility and the display orientation live in
``snakecube.frame``, below this module and the fold planner alike; they are re-exported
here for the renderers.

**Steps.** Step k places segment k (step 1 places the first segment, cubes 1..L1), the same
numbering in every form. Each step's panel holds: the placed cubes, the new segment
(highlighted and numbered), the pivot cube where the turn happens (marked), an arrow along
the new segment, and the rest of the snake drawn lightly (the next segment at its place, or
the hanging tail of a fold plan when one is given).

**Numbers and second views.** A cube gets a number only on a face whose label area is
visible in that view. When a new cube is hidden from the camera, the panel adds a second
view that sees every new cube (labelled "seen from below", ...) or, if none does, draws the
cubes in the way as a cut-away (edges only).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from snakecube.explain.words import checkpoints, layer_blocks, start_words, step_words
from snakecube.fold import FoldPlan, steps_in_words
from snakecube.frame import (
    CAMERA,
    SECOND_VIEWS,
    Camera,
    Step,
    blocker,
    display,
    dot,
    facing,
    hidden_steps,
    in_the_way,
    is_flat,
    is_visible,
    label_face,
    label_point,
    lay_flat,
    oriented,
    steps,
)
from snakecube.shape import VECTORS, Coord
from snakecube.solution import Solution

ABOVE = Camera(89.0, -90.0, "seen from above")  # the flat start: a map, x right, y up
Tails = Sequence[Sequence[Coord]]  # per step, where the rest of the snake hangs

__all__ = [
    "CAMERA",
    "SECOND_VIEWS",
    "Camera",
    "Cover",
    "Panel",
    "Step",
    "Tails",
    "View",
    "blocker",
    "cover",
    "cover_colours",
    "cube_colour",
    "display",
    "dot",
    "facing",
    "fold_panels",
    "hidden_steps",
    "in_the_way",
    "is_flat",
    "is_visible",
    "label_face",
    "label_point",
    "lay_flat",
    "make_view",
    "oriented",
    "panels",
    "steps",
]

DARK, LIGHT, NEW, GHOST, PIVOT, ARROW = (
    "#7a4a22",
    "#f0d9b0",
    "#1f9bde",
    "#c8c8c8",
    "#d62728",
    "#d62728",
)

TAIL_MARGIN = 1  # cells around the target where a hanging tail is still drawn


def cube_colour(i: int) -> str:
    """Cube i (0-based) alternates dark and light, starting dark, like the wooden puzzle."""
    return DARK if i % 2 == 0 else LIGHT


# The cover's colours, one per segment (see cover_colours), readable numbers on each.
SEGMENT_COLOURS = (
    "#e6194b",
    "#3cb44b",
    "#ffe119",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#46f0f0",
    "#f032e6",
    "#bcf60c",
    "#fabebe",
    "#008080",
    "#e6beff",
    "#9a6324",
    "#aaffc3",
    "#808000",
    "#ffd8b1",
)


def cover_colours(solution: Solution) -> dict[int, str]:
    """A colour per cube, one per segment, such that segments that touch in the finished
    shape differ (with 16 colours and 46 segments, the king's, a colour per segment in turn
    would repeat beside itself). Each segment takes, from its turn's colour on, the first
    colour no touching segment before it has."""
    cells = solution.cells
    where = {c: i for i, c in enumerate(cells)}
    owner: dict[int, int] = {}
    chosen: list[int] = []
    for k, s in enumerate(steps(solution)):
        mine = range(max(s.first, s.pivot + 1 if s.pivot >= 0 else 0), s.last + 1)
        touching = {
            chosen[owner[j]]
            for i in mine
            for v in VECTORS
            if (j := where.get((cells[i][0] + v[0], cells[i][1] + v[1], cells[i][2] + v[2])))
            is not None
            and j in owner
        }
        count = len(SEGMENT_COLOURS)
        free = [c % count for c in range(k, k + count) if c % count not in touching]
        chosen.append(free[0] if free else k % count)
        owner |= dict.fromkeys(mine, k)
    return {i: SEGMENT_COLOURS[chosen[k]] for i, k in owner.items()}


@dataclass(frozen=True, slots=True)
class Cover:
    """A sheet's cover: the snake as the person typed it, the finished shape coloured by
    segment (a colour per cube, numbers where visible), the start in words, the layer map
    and the checks the steps make (step number -> words)."""

    typed: str
    target: str
    view: View
    colours: dict[int, str]
    start: str
    layers: tuple[str, ...]  # one block per layer, bottom first, far side at the top
    checks: dict[int, str]


def cover(solution: Solution, typed: str | None = None) -> Cover:
    """The cover of ``solution``'s sheet (in display orientation, see :func:`display`):
    ``typed`` is the snake as the person typed it (the turn string if not given)."""

    cells = solution.cells
    colours = cover_colours(solution)
    n = len(cells)
    view = make_view(CAMERA, cells, range(n), range(n))
    return Cover(
        (typed or solution.snake.turns()).strip(),
        solution.region.describe(),
        view,
        colours,
        start_words(solution),
        tuple(layer_blocks(solution)),
        checkpoints(solution),
    )


# -- panels ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class View:
    """One drawing of a panel: a camera, the cubes drawn whole and as edges only, and where
    each number goes (cube index -> point)."""

    camera: Camera
    solid: tuple[int, ...]  # cubes drawn as cubes (0-based)
    cutaway: tuple[int, ...]  # placed cubes drawn as edges only, so the new ones show
    labels: dict[int, tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class Panel:
    """Everything one step's picture shows. ``views`` are the drawings of a sheet's panel (the
    main view, and a labelled second view only where the main one hides a new cube);
    ``single`` is the one drawing for an animation frame (a cut-away where needed)."""

    step: Step
    title: str
    views: tuple[View, ...]
    single: View
    tail: tuple[Coord, ...]  # the rest of the snake, drawn lightly
    arrow: tuple[tuple[float, float, float], tuple[float, float, float]] | None
    bounds: tuple[Coord, Coord]  # what the axes must show: low corner, high corner
    notes: tuple[str, ...] = field(default=())
    cells: tuple[Coord, ...] | None = None  # where each cube is, if not the solution's cells
    colours: dict[int, str] | None = None  # a colour per cube, instead of new / dark / light
    box: tuple[Coord, Coord] | None = None  # the finished box's outline, drawn lightly


def make_view(
    camera: Camera,
    cells: Sequence[Coord],
    shown: Iterable[int],
    numbered: Iterable[int],
    cut_for: Iterable[int] = (),
) -> View:
    """A view of cubes ``shown`` with numbers on those of ``numbered`` whose label area is
    visible; placed cubes in the way of the cubes in ``cut_for`` are cut away."""
    eye = camera.eye
    shown = list(shown)
    filled = {cells[i] for i in shown}
    wanted = list(numbered)
    where = {c: i for i, c in enumerate(cells)}
    cut: set[int] = set()
    for i in cut_for:
        cut |= {where[c] for c in in_the_way(cells[i], eye, filled)}
    cut -= set(wanted)
    filled -= {cells[i] for i in cut}
    labels = {}
    for i in wanted:
        p = label_point(cells[i], eye, filled)
        if p is not None:
            labels[i] = (p[0], p[1], p[2])
    return View(camera, tuple(i for i in shown if i not in cut), tuple(sorted(cut)), labels)


def panels(solution: Solution, tails: Tails | None = None) -> list[Panel]:
    """One panel per step of a solution in display orientation (see :func:`display`).

    ``tails`` gives, per step, where the rest of the snake hangs (from a fold plan); without
    it the next segment is drawn at its place.
    """
    cells = solution.cells
    checks = checkpoints(solution)
    words = [
        w + (f". {checks[k]}" if k in checks else "") for k, w in enumerate(step_words(solution), 1)
    ]
    all_steps = steps(solution)
    out = []
    for s in all_steps:
        views, single, notes = _views_of(cells, s)
        tail = _tail_of(cells, s, all_steps, tails)
        out.append(
            Panel(
                step=s,
                title=words[s.number - 1],
                views=views,
                single=single,
                tail=tail,
                arrow=_arrow(cells, s),
                bounds=_bounds([*cells, *tail]),
                notes=notes,
            )
        )
    return out


def _views_of(cells: Sequence[Coord], s: Step) -> tuple[tuple[View, ...], View, tuple[str, ...]]:
    """A step's views (the main one, and a second where the main one hides a new cube), the
    single view that shows every new cube (cut away if need be), and notes for the page."""
    shown = range(s.last + 1)
    new = list(range(s.first, s.last + 1))
    numbered = [*new, *([s.pivot] if s.pivot >= 0 else [])]
    main = make_view(CAMERA, cells, shown, numbered)
    if all(i in main.labels for i in new):
        return (main,), main, ()
    missing = [i for i in new if i not in main.labels]
    single = make_view(CAMERA, cells, shown, numbered, cut_for=missing)
    for cam in SECOND_VIEWS:
        second = make_view(cam, cells, shown, new)
        if len(second.labels) == len(new):
            return (main, second), single, ()
    return (single,), single, ("dotted edges: cubes cut away so that the new ones show",)


def _tail_of(
    cells: Sequence[Coord], s: Step, all_steps: Sequence[Step], tails: Tails | None
) -> tuple[Coord, ...]:
    """Where the rest of the snake is drawn at step ``s``: where it hangs (``tails``, from a
    fold plan, cut to ``TAIL_MARGIN`` cells round the solution so the drawing keeps its
    scale), else the next segment at its place."""
    if tails is None:
        if s.number < len(all_steps):
            nxt = all_steps[s.number]
            return tuple(cells[nxt.first : nxt.last + 1])
        return ()
    lo = [min(c[a] for c in cells) - TAIL_MARGIN for a in range(3)]
    hi = [max(c[a] for c in cells) + TAIL_MARGIN for a in range(3)]
    return tuple(c for c in tails[s.number - 1] if all(lo[a] <= c[a] <= hi[a] for a in range(3)))


def _arrow(
    cells: Sequence[Coord], s: Step
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """From the pivot cube (or cube 1) to the step's last cube, through their centres."""
    start = cells[s.pivot] if s.pivot >= 0 else cells[0]
    end = cells[s.last]
    return (
        (start[0] + 0.5, start[1] + 0.5, start[2] + 0.5),
        (end[0] + 0.5, end[1] + 0.5, end[2] + 0.5),
    )


def _bounds(everything: Sequence[Coord]) -> tuple[Coord, Coord]:
    """The lowest corner and the highest far corner of the cells' unit cubes."""
    return (
        (min(c[0] for c in everything), min(c[1] for c in everything),
         min(c[2] for c in everything)),
        (max(c[0] for c in everything) + 1, max(c[1] for c in everything) + 1,
         max(c[2] for c in everything) + 1),
    )  # fmt: skip


LABEL_GAP = 0.75  # cube widths between two numbers on the page, or the later one is dropped


def apart(view: View, priority: Sequence[int]) -> View:
    """The view with numbers that would overlap on the page dropped, keeping the ones
    earlier in ``priority``."""
    kept: dict[int, tuple[float, float, float]] = {}
    spots: list[tuple[float, float]] = []
    for i in priority:
        if i not in view.labels or i in kept:
            continue
        u, v = view.camera.screen(view.labels[i])
        if all(math.hypot(u - a, v - b) >= LABEL_GAP for a, b in spots):
            kept[i] = view.labels[i]
            spots.append((u, v))
    return View(view.camera, view.solid, view.cutaway, kept)


def _corner(values: Iterable[int]) -> Coord:
    x, y, z = values
    return (x, y, z)


def fold_panels(plan: FoldPlan) -> list[Panel]:
    """One panel per state of a fold plan (``snakecube.fold.FoldPlan``): the flat start,
    then the snake after each quarter turn, the held end still. Cubes already where they
    end are wood, the cubes that just swung blue, the cube on the turning line red, and the
    rest of the snake (not yet in place) light grey."""
    lines = steps_in_words(plan)
    start = [w for w in lines if not w.startswith(("Step ", "  "))][:3]
    start[0] = start[0].replace("as the start picture shows:", "as this picture shows.")
    words = [" ".join(start), *(w for w in lines if w.startswith("Step "))]
    frames = plan.frames
    moves = plan.moves
    end = plan.end
    held = plan.held
    n = len(end)
    out = []
    for k, cells in enumerate(frames):
        placed = [i for i in range(n) if cells[i] == end[i]]
        swung = [] if k == 0 else [i for i in range(n) if cells[i] != frames[k - 1][i]]
        pivot = -1
        if k:
            joint = moves[k - 1][0]
            pivot = joint if held == "first" else joint - 1  # 0-based: the cube on the line
        solid = sorted(set(placed) | set(swung) | ({pivot} - {-1}))
        faint = tuple(cells[i] for i in range(n) if i not in solid)
        colours = {
            i: (NEW if i in swung else PIVOT if i == pivot else cube_colour(i)) for i in range(n)
        }
        if k == 0:
            solid, faint = list(range(n)), ()
        last_held = -1 if pivot < 0 else pivot - 1 if held == "first" else pivot + 1
        held_end = 0 if held == "first" else n - 1
        far_end = (swung[-1] if held == "first" else swung[0]) if swung else -1
        # only the cubes that matter, most important first: the cube you turn, the last
        # cube you hold, the end of what swings, the end you hold
        numbered = [i for i in (pivot, last_held, far_end, held_end) if i >= 0]
        if k == 0:  # the flat start, seen from straight above, every cube numbered
            numbered = list(range(n))
        view = make_view(ABOVE if k == 0 else CAMERA, cells, solid, numbered)
        if k:
            view = apart(view, numbered)
        views: tuple[View, ...] = (view,)
        if k and pivot not in view.labels:  # the cube to turn is hidden: a second view shows it
            for cam in SECOND_VIEWS:
                second = apart(make_view(cam, cells, solid, numbered), numbered)
                if pivot in second.labels:
                    views = (view, second)
                    break
        arrow = None
        if swung:
            i = swung[0] if held == "first" else swung[-1]
            a, b = frames[k - 1][i], cells[i]
            arrow = ((a[0] + 0.5, a[1] + 0.5, a[2] + 0.5), (b[0] + 0.5, b[1] + 0.5, b[2] + 0.5))
        bounds = (
            _corner(min(c[a] for c in cells) for a in range(3)),
            _corner(max(c[a] for c in cells) + 1 for a in range(3)),
        )
        step = Step(k, n, n - 1, pivot, 0)  # no cube counts as new: colours say it all
        title = words[k] if k < len(words) else ""
        out.append(
            Panel(
                step,
                title,
                views,
                view,
                faint,
                arrow,
                bounds,
                cells=tuple(cells),
                colours=colours,
            )
        )
    return out
