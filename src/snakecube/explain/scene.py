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
visible in that view. When a key cube (a new one, or the cube the step turns at) is hidden
from the camera, the panel adds a second view that numbers every key cube (labelled "seen
from below", ...) or, if none does, draws the cubes in the way as a cut-away (edges only).

**Fold plans.** Each quarter turn is a panel of two pictures, before and after, framed on
the joint and the cubes that turn (:func:`fold_panels`); :class:`Turn` is the turn itself
(the cubes held and turning, the turning line, the sign), which the page animates.

**Flat shapes.** :func:`drawing_of` turns one view into the shapes of ``explain.drawing``:
what the matplotlib renderer draws and the tests check.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from snakecube import stop
from snakecube.explain import drawing
from snakecube.explain.prose import checkpoints, layer_blocks, start_words, step_words
from snakecube.fold import FoldPlan
from snakecube.fold.guide import Check, guide
from snakecube.fold.words import HIDDEN, StepWords, order_words, pointer_words
from snakecube.fold.words import start_words as plan_start_words
from snakecube.fold.words import step_words as plan_step_words
from snakecube.frame import (
    CAMERA,
    CUBE_EDGES,
    SECOND_VIEWS,
    Camera,
    Step,
    blocker,
    bounds,
    display,
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
from snakecube.snake import End
from snakecube.solution import Solution
from snakecube.vector import dot

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
    "Turn",
    "View",
    "blocker",
    "cover",
    "cover_colours",
    "cube_colour",
    "display",
    "dot",
    "drawing_of",
    "facing",
    "fold_panels",
    "hidden_steps",
    "in_the_way",
    "is_flat",
    "is_visible",
    "key_cubes",
    "label_face",
    "label_point",
    "lay_flat",
    "make_view",
    "oriented",
    "panels",
    "question_panel",
    "steps",
    "turn_of",
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
Point3 = tuple[float, float, float]
Point = tuple[float, float]  # on the page
Window = tuple[float, float, float, float]  # left, bottom, right, top on the page


@dataclass(frozen=True, slots=True)
class View:
    """One drawing of a panel: a camera, the cubes drawn whole and as edges only, and where
    each number goes (cube index -> a point on a face of its cube the camera sees).

    A fold plan's pictures also give the cubes' places (``cells``, else the panel's), a
    ``caption`` ("before", "after"), the ``window`` of the page they show (the same for a
    step's two pictures), the ``arc`` the turning cubes follow and the ``seam``: the joint,
    as the axis across it (0, 1, 2) and where along that axis it lies."""

    camera: Camera
    solid: tuple[int, ...]  # cubes drawn as cubes (0-based)
    cutaway: tuple[int, ...]  # placed cubes drawn as edges only, so the new ones show
    labels: dict[int, tuple[float, float, float]]
    cells: tuple[Coord, ...] | None = None
    caption: str = ""
    window: Window | None = None
    arc: tuple[Point3, ...] | None = None
    seam: tuple[int, float] | None = None
    inset: Window | None = None  # a rectangle of the page outlined on it: the close-up's
    # cubes that turn and stand in front of the joint: drawn see-through (never cut away)
    ghost: tuple[int, ...] = ()
    # a plan step's pointers: (tail, tip, words) on the page, to the cube to count from and
    # to the end you hold (:func:`pointers`)
    pointers: tuple[tuple[tuple[float, float], tuple[float, float], str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Panel:
    """Everything one step's picture shows. ``views`` are the drawings of a sheet's panel (the
    main view, and a labelled second view only where the main one hides a new cube; a fold
    plan's step: before and after); ``single`` is the one drawing for an animation frame (a
    cut-away where needed)."""

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
    marks: dict[int, str] | None = None  # cubes outlined in a colour (default: the pivot, red)
    hold: int = -1  # a fold plan's step: the cube you hold at the joint
    moving: tuple[int, ...] = ()  # ... the cubes that turn, from the joint outwards
    spin: tuple[Point3, Point3, int] | None = None  # ... the turning line and the turn's sign
    quarters: int = 1  # ... how far: 1 a quarter turn, 2 a half turn
    # ... the whole snake, small, before and after (one per view), with the close-up's window
    overviews: tuple[View, ...] = ()
    patterns: dict[int, str] | None = None  # cubes drawn with a pattern ("hatch")
    heading: str = ""  # the title as a form that shows one step at a time says it ("Step 3 of 9")
    words: StepWords | None = None  # a fold plan's step: its words, part by part
    lines: tuple[str, ...] = ()  # a fold plan's start: its lines (the runs indented)


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
        if i not in shown:
            continue
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
    words, counted = (
        [w + (f". {checks[k]}" if k in checks else "") for k, w in enumerate(said, 1)]
        for said in (step_words(solution), step_words(solution, counted=True))
    )
    all_steps = steps(solution)
    out = []
    for s in all_steps:
        stop.on_time()  # a time limit (stop.within) ends the pictures between steps
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
                heading=counted[s.number - 1],
            )
        )
    return out


def key_cubes(s: Step) -> list[int]:
    """The cubes a step's picture must number: its new cubes, and the cube it turns at."""
    return [*range(s.first, s.last + 1), *([s.pivot] if s.pivot >= 0 else [])]


def _views_of(cells: Sequence[Coord], s: Step) -> tuple[tuple[View, ...], View, tuple[str, ...]]:
    """A step's views (the main one, and a second where the main one hides a key cube), the
    single view that numbers every key cube (cut away if need be), and notes for the page."""
    shown = range(s.last + 1)
    key = key_cubes(s)
    main = make_view(CAMERA, cells, shown, key)
    if all(i in main.labels for i in key):
        return (main,), main, ()
    missing = [i for i in key if i not in main.labels]
    single = make_view(CAMERA, cells, shown, key, cut_for=missing)
    for cam in SECOND_VIEWS:
        second = make_view(cam, cells, shown, key)
        if len(second.labels) == len(key):
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
    return (_centre(start), _centre(end))


def _centre(c: Sequence[float]) -> Point3:
    return (c[0] + 0.5, c[1] + 0.5, c[2] + 0.5)


def _bounds(everything: Sequence[Coord]) -> tuple[Coord, Coord]:
    """The lowest corner and the highest far corner of the cells' unit cubes."""
    return (
        (
            min(c[0] for c in everything),
            min(c[1] for c in everything),
            min(c[2] for c in everything),
        ),
        (
            max(c[0] for c in everything) + 1,
            max(c[1] for c in everything) + 1,
            max(c[2] for c in everything) + 1,
        ),
    )


LABEL_GAP = 0.75  # cube widths between two numbers on the page, or the later one is dropped


def apart(view: View, priority: Sequence[int], keep: Iterable[int] = ()) -> View:
    """The view with numbers that would overlap on the page dropped, keeping the ones
    earlier in ``priority`` (and those of ``keep`` always)."""
    kept: dict[int, tuple[float, float, float]] = {}
    spots: list[tuple[float, float]] = []
    always = set(keep)
    for i in priority:
        if i not in view.labels or i in kept:
            continue
        u, v = view.camera.screen(view.labels[i])
        if i in always or all(math.hypot(u - a, v - b) >= LABEL_GAP for a, b in spots):
            kept[i] = view.labels[i]
            spots.append((u, v))
    return replace(view, labels=kept)


# -- a fold plan's pictures ----------------------------------------------------------------------
# A plan's classes of cubes read apart in colour, in grey and for red-green colour blindness:
# by lightness first (held cubes pale, the turning cube nearly black-red, the cubes that turn
# with it a middle blue) and by pattern and line as well: the moving cubes hatched, the cube
# you hold at the joint outlined thick, the arrow black in a white halo.
HOLD = "#bfe3c4"  # the cube you hold at the joint: pale green, ...
HOLD_MARK = "#1b5e20"  # ... outlined thick in dark green
TURNING = "#6e1414"  # the cube that turns on the joint: dark red
MOVING = "#5aa7e0"  # the cubes that turn with it: blue, hatched (``drawing.HATCH``)
PLAN_ARROW = "#111111"  # the turn's arrow, drawn in a white halo
HELD_END = "#000000"  # the end you hold, outlined
COUNT_MARK = "#0d3b8c"  # the corner (or loose end) a step counts from: outlined dark blue
PALE = 0.7  # the other held cubes: their colour this far towards white
# A step's picture shows this much of the page, in cube widths (wide, high): the joint, the
# turn's arrow and the cubes near it, then all the cubes that turn, or every cube, when that
# fits in MAX (so that the joint's cubes stay large: on a phone's 374 x 330 px picture a cube
# is then 41 px across, its shortest edge seen from any PLAN_VIEWS camera over 24 px); at
# least MIN, so a small turn keeps its surroundings; MAX's shape, wider than high.
PLAN_MIN = (7.0, 5.6)
PLAN_MAX = (9.0, 7.2)
FOCUS = 3  # cubes on each side of the joint that a step's picture holds when they fit
# The cameras of a plan's steps: places a person at the table has, in front of it and above,
# named in words on every picture (the first is the main one). A step uses the first that
# shows both joint cubes well (JOINT_SEEN, each number on its most frontal face); else the
# main one with the cubes in front of the joint's front faces cut away; never from below or
# behind (a person cannot look from under the table).
PLAN_VIEWS = (
    Camera(28.0, -62.0, "seen from the front-right, above the table"),
    Camera(28.0, -118.0, "seen from the front-left, above the table"),
    Camera(50.0, -62.0, "seen from the front-right, high above the table"),
    Camera(50.0, -118.0, "seen from the front-left, high above the table"),
    Camera(72.0, -62.0, "seen from the front-right, standing over the table"),
    Camera(72.0, -118.0, "seen from the front-left, standing over the table"),
)
JOINT_SEEN = 0.5  # a joint cube shows at least half a cube face (projected, cube widths^2)
SAMPLES = 5  # sample points on a face, each way, to measure how much of it shows
CUT_NOTE = (
    "dotted edges: cubes cut away so that the joint and the arrow show; see-through: cubes "
    "that turn, in front of the joint"
)
ARC_STEPS = 12  # points along the turn's arrow
ARC_RADII = (1.0, 1.3, 1.6)  # cube widths from the turning line to the arrow: beside the red cube
ARC_WIDER = (1.9, 2.2)  # ... and for a half turn, these as well
ARC_FAR = (2.5,)  # ... and, to pass clear of the cubes held still, this one
ARC_ALONG = (0.0, 0.45)  # ... and along it from the red cube's centre, away from the joint
ARC_FURTHER = (0.9,)  # ... and further along, to pass clear of the cubes held still
ARC_CLEAR = 0.15  # cube widths on the page between the arrow and a number's box
ARC_STARTS = (0, 1, -1)  # the arrow starts at the first cube that turns, or an eighth either side
TEXT_BOX = (0.26, 0.17)  # half the width and height of a two-digit number, in cube widths


def pale(colour: str, k: float = PALE) -> str:
    """``colour`` mixed ``k`` of the way towards white."""
    v = int(colour[1:], 16)
    rgb = [round(((v >> s) & 255) + (255 - ((v >> s) & 255)) * k) for s in (16, 8, 0)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _rotate(p: Sequence[float], origin: Sequence[float], d: Sequence[int], angle: float) -> Point3:
    """``p`` turned by ``angle`` radians about the line through ``origin`` along the unit
    axis ``d`` (right-handed)."""
    v = [p[a] - origin[a] for a in range(3)]
    c, s = math.cos(angle), math.sin(angle)
    cr = (d[1] * v[2] - d[2] * v[1], d[2] * v[0] - d[0] * v[2], d[0] * v[1] - d[1] * v[0])
    dv = dot(d, v)
    out = [origin[a] + v[a] * c + cr[a] * s + d[a] * dv * (1 - c) for a in range(3)]
    return (out[0], out[1], out[2])


@dataclass(frozen=True, slots=True)
class Turn:
    """One quarter turn of a plan as the pictures show it (0-based cubes): the cube held at
    the joint, the cube that turns on it, every cube that turns (from the joint outwards),
    the states before and after, the turning line (a point on it and its unit direction,
    from the held cube to the turning one) and the turn's sign about that direction."""

    hold: int
    turn: int
    moving: tuple[int, ...]
    before: tuple[Coord, ...]
    after: tuple[Coord, ...]
    origin: Point3
    direction: Coord
    sign: int
    quarters: int = 1  # 2: a half turn (two quarter turns of the joint in a row)

    def at(self, fraction: float) -> list[Point3]:
        """Every cube's centre ``fraction`` of the way through the turn."""
        moving = set(self.moving)
        angle = self.sign * fraction * self.quarters * math.pi / 2
        return [
            _rotate(_centre(c), self.origin, self.direction, angle) if i in moving else _centre(c)
            for i, c in enumerate(self.before)
        ]

    def arc(
        self, start: float = 0.0, radius: float = ARC_RADII[0], along: float = 0.0
    ) -> tuple[Point3, ...]:
        """An arrow of the turn: a quarter circle (a half circle for a half turn) about the
        turning line, ``radius`` from it round the turning cube (``along`` the line from its
        centre, away from the joint), from the angle ``start`` (radians, from the first cube
        that moves, about the turning direction) on in the turn's sense."""
        first = next(i for i in self.moving if self.before[i] != self.after[i])
        d = self.direction
        centre = tuple(_centre(self.before[self.turn])[a] + along * d[a] for a in range(3))
        v = [_centre(self.before[first])[a] - centre[a] for a in range(3)]
        along = dot(v, d)
        out = [v[a] - along * d[a] for a in range(3)]
        r = math.sqrt(dot(out, out))
        edge = [centre[a] + out[a] * radius / r for a in range(3)]
        begin = _rotate(edge, centre, d, start)
        count = ARC_STEPS * self.quarters
        return tuple(
            _rotate(begin, centre, d, self.sign * k * math.pi / 2 / ARC_STEPS)
            for k in range(count + 1)
        )

    def seam(self) -> tuple[int, float]:
        """The joint: the axis across it, and where along that axis the two joint cubes'
        shared face lies."""
        a = next(k for k in range(3) if self.direction[k])
        return a, self.origin[a] + 0.5 * self.direction[a]


def turn_of(plan: FoldPlan, k: int) -> Turn:
    """Step ``k`` (1-based, among ``plan.steps()``: a half turn is one step) of a plan: held
    and turning cubes from the plan's grip, the turn's sign from the states themselves
    (checked: every turning cube lands where the state after the step has it)."""
    step = guide(plan).steps[k - 1]
    quarters = abs(step.quarter_turns)
    before, after = step.before, step.after
    t, h = step.corner - 1, step.hold - 1
    n = len(before)
    order = list(range(t, n)) if plan.held == End.FIRST else list(range(t, -1, -1))
    d = tuple(before[t][a] - before[h][a] for a in range(3))
    direction: Coord = (d[0], d[1], d[2])
    origin = _centre(before[h])
    for sign in (1, -1):
        turned_cells = [
            _rotate(_centre(before[i]), origin, direction, sign * quarters * math.pi / 2)
            for i in order
        ]
        if all(
            max(abs(p[a] - after[i][a] - 0.5) for a in range(3)) < 1e-6
            for p, i in zip(turned_cells, order, strict=True)
        ):
            return Turn(h, t, tuple(order), before, after, origin, direction, sign, quarters)
    raise ValueError(f"step {k} of the plan is not a turn about its joint")


def _window(focus: list[list[Point]], more: list[list[Point]]) -> Window:
    """The page rectangle a step's pictures show: round the first of ``focus`` (largest
    first; points on the page) that fits in PLAN_MAX, widened to the first of ``more`` that
    still fits, then to PLAN_MIN and the ratio."""
    for points in focus:
        box = drawing.box_of(points, 0.3)
        if box[2] - box[0] <= PLAN_MAX[0] and box[3] - box[1] <= PLAN_MAX[1]:
            break
    for extra in more:
        grown = drawing.box_of([*extra, box[:2], box[2:]], 0.3)
        if grown[2] - grown[0] <= PLAN_MAX[0] and grown[3] - grown[1] <= PLAN_MAX[1]:
            box = grown
            break
    w, h = box[2] - box[0], box[3] - box[1]
    ratio = PLAN_MAX[0] / PLAN_MAX[1]
    w = max(w, PLAN_MIN[0], h * ratio)
    h = max(h, PLAN_MIN[1], w / ratio)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _corner_points(cells: Sequence[Coord], cubes: Iterable[int], camera: Camera) -> list[Point]:
    """The corners of the cubes ``cubes`` on the page (``drawing.silhouette``, kept per cell)."""
    return [p for i in cubes for p in drawing.silhouette(cells[i], camera)]


def _face_grid(cell: Coord, axis: int, sign: int) -> list[Point3]:
    """SAMPLES x SAMPLES points spread over a cube's face (axis, sign)."""
    u, v = [a for a in range(3) if a != axis]
    out = []
    for j in range(SAMPLES):
        for k in range(SAMPLES):
            p = [cell[0] + 0.5, cell[1] + 0.5, cell[2] + 0.5]
            p[axis] += 0.5 * sign
            p[u] += (j + 0.5) / SAMPLES - 0.5
            p[v] += (k + 0.5) / SAMPLES - 0.5
            out.append((p[0], p[1], p[2]))
    return out


def seen_area(view: View, i: int) -> float:
    """How much of cube ``i`` a view shows, in cube faces seen square on: each face towards
    the eye, its projected area (the eye's component across it) times the share of its
    sample points that no drawn cube hides."""
    if view.cells is None:
        raise ValueError("the view has no cells")
    cells = view.cells
    filled = {cells[j] for j in view.solid}
    eye = view.camera.eye
    total = 0.0
    box = bounds(filled) if filled else None
    for axis, sign in facing(eye):
        grid = _face_grid(cells[i], axis, sign)
        free = sum(blocker(p, eye, filled, box) is None for p in grid)
        total += abs(eye[axis]) * free / len(grid)
    return total


def _reads(view: View, joint: Sequence[int]) -> bool:
    """True when both joint cubes show at least JOINT_SEEN and carry their numbers on their
    most frontal face (where a number fits)."""
    front = facing(view.camera.eye)[0]
    cells = view.cells or ()
    return all(
        i in view.labels
        and drawing.face_of(cells[i], view.labels[i]) == front
        and seen_area(view, i) >= JOINT_SEEN
        for i in joint
    )


def _in_front(
    cells: Sequence[Coord], camera: Camera, joint: Sequence[int], shown: Sequence[int]
) -> set[int]:
    """The drawn cubes in front of the joint cubes' most frontal faces (every sample point),
    the joint cubes themselves kept."""
    eye = camera.eye
    where = {cells[i]: i for i in shown}
    box = bounds(set(where)) if where else None  # of them all: a ray may stop later, not sooner
    axis, sign = facing(eye)[0]
    out: set[int] = set()
    for i in joint:
        for p in _face_grid(cells[i], axis, sign):
            rest = set(where)
            while (hit := blocker(p, eye, rest, box)) is not None and where[hit] not in joint:
                out.add(where[hit])
                rest.discard(hit)
    return out


def _arc_for(turn: Turn, view: View) -> tuple[Point3, ...]:
    """The turn's arrow in ``view`` (the picture before): of the quarter circles round the
    turning cube (ARC_RADII, ARC_ALONG), one that follows the cubes that turn from where they
    are (it starts at the first of them, or an eighth of a turn to either side), so that it
    lies on their side of the turning line and shows where the run goes; inside the window,
    clear of the joint cubes' numbers, over no cube held still (:func:`crossings`), over as
    few other numbers as may be, and long on the page. The nearer arrows are tried first;
    the farther ones (ARC_FURTHER, ARC_FAR) only when none of those stays inside, clear of
    the joint's numbers, over no held cube and no other number (half the work, on most
    steps)."""
    near_first = _best_arc(turn, view, ARC_ALONG, _radii(turn, False))
    if near_first[0][:4] == (True, True, 0, True):
        return near_first[1]
    everything = _best_arc(turn, view, ARC_ALONG + ARC_FURTHER, _radii(turn))
    return everything[1]


def _best_arc(
    turn: Turn, view: View, alongs: Sequence[float], radii: Sequence[float]
) -> tuple[tuple[Any, ...], tuple[Point3, ...]]:
    """The best arrow of those ``alongs`` and ``radii`` give (:func:`_arc_for`), and its
    key: (inside, clear of the joint's numbers, -numbers covered, over no held cube, ...)."""
    project = drawing.projector(view.camera)
    window = view.window or (-math.inf, -math.inf, math.inf, math.inf)
    spots = [project(view.labels[i]) for i in (turn.hold, turn.turn) if i in view.labels]
    others = [project(p) for i, p in view.labels.items() if i not in (turn.hold, turn.turn)]
    held = _faces(turn, view)
    first = []  # what is cheap to measure, for every arrow: inside, clear of the joint
    for radius, along, k in itertools.product(radii, alongs, ARC_STARTS):
        arc = turn.arc(k * math.pi / 8, radius, along)
        flat = [project(p) for p in arc]
        near = _arrow_points(flat)
        clear = min((_off_text(p, q) for p in near for q in spots), default=9.0)
        inside = drawing.inside(
            [(x + dx, y + dy) for x, y in flat for dx in (-0.3, 0.3) for dy in (-0.3, 0.3)],
            window,
        )
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(flat))
        first.append(((inside, clear >= ARC_CLEAR), (min(length, 1.2), -abs(k), clear), arc, near))
    top = max(f[0] for f in first)
    best: tuple[tuple[Any, ...], tuple[Point3, ...]] | None = None
    for ok, rest, arc, near in (f for f in first if f[0] == top):  # then the dearer measures
        over = crossings(near, held)
        # the numbers of other cubes it would cover (they are then left off)
        covered = sum(1 for q in others if min(_off_text(p, q) for p in near) < ARC_CLEAR)
        key = (*ok, -covered, over == 0, -over, *rest)
        if best is None or key > best[0]:
            best = (key, arc)
    assert best is not None
    return best


Face2 = tuple[int, bool, tuple[float, float, float, float], list[tuple[float, float]]]


def _faces(turn: Turn, view: View) -> list[Face2]:
    """The faces ``view`` draws of its solid cubes, on the page, nearest the eye first: for
    each, its cube, whether that is held still, its box and its corners."""
    project = drawing.projector(view.camera)
    eye = view.camera.eye
    cells = view.cells or turn.before
    moving = set(turn.moving)
    out = []
    for i in sorted(view.solid, key=lambda i: -dot(_centre(cells[i]), eye)):
        for axis, sign in facing(eye):
            quad = [project(q) for q in drawing.face_quad(cells[i], axis, sign)]
            xs, ys = [q[0] for q in quad], [q[1] for q in quad]
            out.append((i, i not in moving, (min(xs), min(ys), max(xs), max(ys)), quad))
    return out


def _front(faces: Sequence[Face2], p: tuple[float, float]) -> Face2 | None:
    """The face drawn nearest the eye at page point ``p`` (None: no cube is there)."""
    for face in faces:
        box, quad = face[2], face[3]
        if box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3] and _in_convex(p, quad):
            return face
    return None


def arc_crossings(turn: Turn, view: View) -> int:
    """How many points of ``view``'s turn arrow lie over a cube held still (0: none)."""
    if view.arc is None:
        return 0
    project = drawing.projector(view.camera)
    return crossings(_arrow_points([project(p) for p in view.arc]), _faces(turn, view))


def crossings(points: Sequence[tuple[float, float]], faces: Sequence[Face2]) -> int:
    """How many of ``points`` (an arrow's, on the page) lie over a cube held still: the
    nearest of ``faces`` (:func:`_faces`) there is a held cube's. An arrow over a held cube
    reads as turning it; over a turning cube in front of a held one it does not. (Only the
    faces that meet the arrow's box are looked at.)"""
    if not points:
        return 0
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    x1, y1 = max(p[0] for p in points), max(p[1] for p in points)
    near = [f for f in faces if f[2][0] <= x1 and x0 <= f[2][2] and f[2][1] <= y1 and y0 <= f[2][3]]
    return sum(1 for p in points if (f := _front(near, p)) is not None and f[1])


def _in_convex(p: tuple[float, float], shape: Sequence[tuple[float, float]]) -> bool:
    """``p`` strictly inside the convex polygon ``shape`` (its points in order)."""
    sides = []
    for a, b in itertools.pairwise([*shape, shape[0]]):
        sides.append((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))
    return all(v > 1e-9 for v in sides) or all(v < -1e-9 for v in sides)


def off_the_run(turn: Turn, arc: Sequence[Point3]) -> float:
    """How far (degrees about the turning line) the arrow ``arc`` strays from the path of
    the first cube that turns: the largest angle between a point of it and the middle of
    that path. An arrow along the path strays at most half the turn and an eighth; one on
    the other side of the line (read as the run going the other way) strays 90 or more."""
    first = next(i for i in turn.moving if turn.before[i] != turn.after[i])
    d = turn.direction
    o = _centre(turn.before[turn.turn])

    def out(p: Sequence[float]) -> list[float]:
        v = [p[a] - o[a] for a in range(3)]
        t = dot(v, d)
        w = [v[a] - t * d[a] for a in range(3)]
        size = math.sqrt(dot(w, w)) or 1.0
        return [x / size for x in w]

    half = turn.sign * turn.quarters * math.pi / 4
    mid = out(_rotate(_centre(turn.before[first]), o, d, half))
    return max(math.degrees(math.acos(max(-1.0, min(1.0, dot(out(p), mid))))) for p in arc)


def _radii(turn: Turn, far: bool = True) -> tuple[float, ...]:
    """The arrow's radii tried: a half turn's half circle gets wider ones too; ``far``:
    ARC_FAR as well (not for framing the picture: only to pass clear of held cubes)."""
    return ARC_RADII + (ARC_WIDER if turn.quarters > 1 else ()) + (ARC_FAR if far else ())


def _arrow_points(flat: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points along an arrow on the page (a quarter of each segment apart) and round its
    head: what must stay clear of the numbers."""
    dense = [
        (a[0] + (b[0] - a[0]) * t / 4, a[1] + (b[1] - a[1]) * t / 4)
        for a, b in itertools.pairwise(flat)
        for t in range(4)
    ]
    head = drawing.arrow_shapes(flat, PLAN_ARROW)[-1].points
    edges = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in itertools.pairwise(head)]
    middle = (sum(x for x, _ in head) / 3, sum(y for _, y in head) / 3)
    return [*dense, *head, *edges, middle]


def _off_text(p: tuple[float, float], at: tuple[float, float]) -> float:
    """How far page point ``p`` is from a number's box written at ``at`` (TEXT_BOX)."""
    dx = max(abs(p[0] - at[0]) - TEXT_BOX[0], 0.0)
    dy = max(abs(p[1] - at[1]) - TEXT_BOX[1], 0.0)
    return math.hypot(dx, dy)


def _turn_views(
    turn: Turn, camera: Camera, numbered: list[int], cut: bool = False
) -> tuple[View, View]:
    """A step's pictures, before and after, seen by ``camera`` in one window framed on the
    joint and its arrow (then the turning cubes, then all, where they fit); the numbers of
    ``numbered`` where they show, the cubes in front of the joint cubes cut away when
    ``cut``. Without the arrow: :func:`_with_arrow` adds it to the pair a step shows."""
    n = len(turn.before)
    held_side = [i for i in range(n) if i not in set(turn.moving)]
    project = drawing.projector(camera)
    ring = [
        project(p)
        for r in _radii(turn, False)
        for k in range(4)
        for p in turn.arc(k * math.pi / 2, r)
    ]
    joint = [turn.hold, turn.turn]
    focus = []
    for size in (FOCUS, 1, 0):
        near_held = sorted(held_side, key=lambda i: abs(i - turn.hold))[: max(size, 1)]
        near_moving = list(turn.moving[: size + 1])
        focus.append(
            [
                *_corner_points(turn.before, [*near_held, *near_moving], camera),
                *_corner_points(turn.after, near_moving, camera),
                *ring,
            ]
        )
    everything = [
        *_corner_points(turn.before, range(n), camera),
        *_corner_points(turn.after, range(n), camera),
    ]
    moving = [
        *_corner_points(turn.before, turn.moving, camera),
        *_corner_points(turn.after, turn.moving, camera),
    ]
    window = _window(focus, [everything, moving])
    out = []
    for cells, caption in ((turn.before, "before"), (turn.after, "after")):
        shown = attached(
            [i for i in range(n) if drawing.inside(drawing.silhouette(cells[i], camera), window)]
        )
        view = apart(make_view(camera, cells, shown, numbered), numbered, joint)
        if cut and not _reads(replace(view, cells=tuple(cells)), joint):  # only where needed
            gone = _in_front(cells, camera, joint, shown)
            see = gone & set(turn.moving)  # a cube that turns is never cut away: see-through
            view = make_view(camera, cells, [i for i in shown if i not in gone], numbered)
            cut_away = tuple(sorted(gone - see))
            view = apart(replace(view, cutaway=cut_away, ghost=tuple(sorted(see))), numbered, joint)
        out.append(
            replace(
                view,
                cells=tuple(cells),
                caption=f"{caption}, {camera.name}" if camera.name else caption,
                window=window,
                seam=turn.seam(),
            )
        )
    return out[0], out[1]


def attached(shown: Sequence[int]) -> list[int]:
    """The cubes of ``shown`` (in snake order) that have a neighbour along the chain among
    them: a cube drawn with neither of its neighbours would float, detached from the chain
    (the chain leaves the window at both its sides)."""
    have = set(shown)
    return [i for i in shown if i - 1 in have or i + 1 in have]


def _with_arrow(turn: Turn, pair: tuple[View, View]) -> tuple[View, View]:
    """A step's pictures with the turn's arrow drawn before, the numbers of cubes other
    than the joint's only clear of it and on whole front faces. (Which camera a step uses
    does not depend on this: :func:`_reads` looks at the joint cubes' numbers only, which
    are always kept; so only the chosen pair gets its arrow, the dearest part.)"""
    before, after = pair
    joint = [turn.hold, turn.turn]
    arc = _arc_for(turn, before)
    project = drawing.projector(before.camera)
    path = _arrow_points([project(p) for p in arc])
    labels = {
        i: p
        for i, p in before.labels.items()
        if i in joint or min(_off_text(q, project(p)) for q in path) >= ARC_CLEAR
    }
    return _whole_faces(replace(before, arc=arc, labels=labels), joint), _whole_faces(after, joint)


def _whole_faces(view: View, joint: Sequence[int]) -> View:
    """The view with the numbers of cubes other than the joint's only on their most frontal
    face, showing whole (a number written across a cube's edge reads as the next cube's)."""
    cells = view.cells or ()
    filled = {cells[j] for j in view.solid}
    box = bounds(filled) if filled else None
    eye = view.camera.eye
    keep = {}
    for i, p in view.labels.items():
        axis, sign = drawing.face_of(cells[i], p)
        if i in joint or (
            (axis, sign) == facing(eye)[0]
            and all(blocker(q, eye, filled, box) is None for q in _face_grid(cells[i], axis, sign))
        ):
            keep[i] = p
    return replace(view, labels=keep)


def fold_panels(plan: FoldPlan) -> list[Panel]:
    """A fold plan's pictures (``snakecube.fold.FoldPlan``): the flat start from above, every
    cube numbered; then each step (a quarter turn, or a half turn of one joint), before and
    after, framed on the joint and the cubes that turn, each beside the whole snake drawn
    small (``Panel.overviews``) with the close-up's window outlined. The held cubes are pale,
    the one held at the joint pale green outlined thick, the one that turns on the joint dark
    red and the rest that turn with it blue and hatched; the two joint cubes carry their
    numbers, the seam between them is drawn thick, and a black arrow in a white halo round
    the red cube shows the turn. Each step is seen from the first of PLAN_VIEWS (in front of
    the table and above it) that shows both joint cubes well, else with the cubes in front of
    them cut away (:func:`_joint_views`); a cube that turns is never cut away."""
    g = guide(plan)
    lifted = g.start.lift_before
    count = len(g.steps)
    n = len(plan.end)
    held_end = 0 if plan.held == End.FIRST else n - 1
    out = [start_panel(plan)]
    for k in range(1, count + 1):
        stop.on_time()  # a time limit (stop.within) ends the pictures between steps
        turn = turn_of(plan, k)
        said = plan_step_words(g, k)
        colours = {i: pale(cube_colour(i)) for i in range(n)}
        colours |= dict.fromkeys(turn.moving, MOVING)
        colours[turn.turn], colours[turn.hold] = TURNING, HOLD
        ends = [turn.moving[-1], held_end]
        segment_end = next(
            (i for i in turn.moving[1:] if _is_corner(turn.after, i)), turn.moving[-1]
        )
        # the cubes the words say the swing passes close to, to check by, where they show
        close = [c - 1 for c in g.steps[k - 1].close]
        numbered = list(dict.fromkeys([turn.turn, turn.hold, segment_end, *ends, *close]))
        views, notes = _joint_views(turn, numbered)
        step = g.steps[k - 1]
        counted = step.counted_from - 1
        aims = _aims(step.find.origin, counted, held_end)
        views = (
            replace(views[0], pointers=pointers(views[0], aims, turn.moving)),
            replace(views[1], pointers=pointers(views[1], _aims("", -1, held_end), turn.moving)),
        )
        if lifted and k >= lifted:  # the snake is in the air: not "above the table"
            views = (
                replace(views[0], caption=in_the_air(views[0].caption)),
                replace(views[1], caption=in_the_air(views[1].caption)),
            )
        out.append(
            Panel(
                Step(k, n, n - 1, turn.turn, 0),
                said.text(),
                views,
                views[0],
                (),
                None,
                _bounds(turn.after),
                notes=notes,
                cells=turn.after,
                colours=colours,
                marks={counted: COUNT_MARK, turn.hold: HOLD_MARK, held_end: HELD_END},
                hold=turn.hold,
                moving=turn.moving,
                spin=(turn.origin, turn.direction, turn.sign),
                quarters=turn.quarters,
                overviews=tuple(_overview(v) for v in views),
                patterns=dict.fromkeys(turn.moving[1:], "hatch"),
                heading=plan_step_words(g, k, of=count).text(),
                words=said,
            )
        )
    return out


def finished_panel(
    solution: Solution, view: View, colours: dict[int, str], box: bool = True
) -> Panel:
    """The finished shape of ``solution`` (in display orientation) as ``view`` draws it,
    each cube in its colour of ``colours``, with the box's outline (``box``)."""
    n = len(solution.cells)
    last = steps(solution)[-1]
    whole = ((0, 0, 0), solution.region.dims)
    return Panel(
        Step(last.number, n, n - 1, -1, last.direction),
        "",
        (view,),
        view,
        (),
        None,
        whole,
        colours=colours,
        box=whole if box else None,
    )


def start_panel(plan: FoldPlan) -> Panel:
    """A fold plan's start: its words and the snake flat from above, every cube numbered,
    the end held marked."""
    g = guide(plan)
    start = plan_start_words(g, picture="this picture")
    first = plan.frames[0]
    n = len(plan.end)
    held_end = 0 if plan.held == End.FIRST else n - 1
    top = make_view(ABOVE, first, range(n), range(n))
    top = replace(top, cells=tuple(first), caption="seen from above")
    return Panel(
        Step(0, n, n - 1, -1, 0),
        "\n".join(start),
        (top,),
        top,
        (),
        None,
        _bounds(first),
        cells=tuple(first),
        # the end held as on every step: pale, outlined thick in black (a red outline on
        # dark wood printed as one grey)
        colours={i: pale(cube_colour(i)) if i == held_end else cube_colour(i) for i in range(n)},
        marks={held_end: HELD_END},
        patterns={held_end: "ring"},
        heading="\n".join(start),
        lines=(*start, order_words(g)),
    )


def in_the_air(caption: str) -> str:
    """A step's caption once the snake is lifted off the table: the camera is where it was,
    the snake no longer on the table."""
    said = caption.replace("high above the table", "from high above").replace(
        "above the table", "from above"
    )
    return f"{said}; the snake in the air, off the table"


def _overview(close: View) -> View:
    """The whole snake in the state of a close-up, from its camera, small: no numbers, no
    cut-away, the close-up's window outlined on it."""
    cells = close.cells or ()
    return View(
        close.camera,
        tuple(range(len(cells))),
        (),
        {},
        cells=cells,
        caption="the whole snake",
        inset=close.window,
    )


def _joint_views(turn: Turn, numbered: list[int]) -> tuple[tuple[View, View], tuple[str, ...]]:
    """A step's two pictures, from the first of PLAN_VIEWS in which both joint cubes read
    (:func:`_reads`) before and after; else the main camera with the cubes in front of the
    joint cut away when that is at most CUT_FEW cubes, else the first camera that reads with
    a cut-away (the main one if none); and the notes they need. The turn's arrow is drawn
    clear of the cubes held still where it can be (:func:`_arc_for`); the held cubes it still
    runs over are cut away (:func:`_clear_the_arrow`), and where it runs over the cube held
    at the joint (which stays), another camera is taken (no higher than CLEAR_UP_TO: higher
    ones draw the joint's cubes too small on a phone) whose arrow runs over none and which
    numbers every cube the first did. Rejected: the first camera whose arrow runs over no
    held cube (it numbered fewer of the cubes the words name, and trying every camera made
    King B's plan in the page's Pyodide 1.7 times as slow)."""
    joint = (turn.hold, turn.turn)

    def reads(pair: tuple[View, View]) -> bool:
        return all(_reads(v, joint) for v in pair)

    pair, notes = _joint_pair(turn, numbered, reads)
    drawn = _with_arrow(turn, pair)
    # an arrow over a held cube: that cube cut away, unless the words name it
    before = _clear_the_arrow(turn, drawn[0], numbered)
    if arc_crossings(turn, before):  # over the cube held at the joint: another camera
        named = set(drawn[0].labels) | set(drawn[1].labels)
        for camera in PLAN_VIEWS:
            if camera.elev > CLEAR_UP_TO or camera == pair[0].camera:
                continue
            other = _turn_views(turn, camera, numbered)
            if not reads(other):
                continue
            again = _with_arrow(turn, other)
            if arc_crossings(turn, again[0]) == 0 and named <= set(again[0].labels) | set(
                again[1].labels
            ):
                return again, ()
    if before is not drawn[0]:
        notes = (CUT_NOTE,)
    return (before, drawn[1]), notes


def _joint_pair(
    turn: Turn, numbered: list[int], reads: Any
) -> tuple[tuple[View, View], tuple[str, ...]]:
    for camera in PLAN_VIEWS:
        pair = _turn_views(turn, camera, numbered)
        if reads(pair):
            return pair, ()
    main = _turn_views(turn, PLAN_VIEWS[0], numbered, cut=True)
    if reads(main) and max(len(v.cutaway) + len(v.ghost) for v in main) <= CUT_FEW:
        return main, (CUT_NOTE,)
    for camera in PLAN_VIEWS:
        pair = _turn_views(turn, camera, numbered, cut=True)
        if reads(pair):
            return pair, (CUT_NOTE,)
    return main, (CUT_NOTE,)


def _clear_the_arrow(turn: Turn, view: View, keep: Sequence[int] = ()) -> View:
    """``view`` with the held cubes its arrow runs over cut away (dotted edges), nearest
    first, until it runs over none (the cube held at the joint stays, and those of
    ``keep``: the cubes the words name)."""
    project = drawing.projector(view.camera)
    points = _arrow_points([project(p) for p in view.arc or ()])
    for _ in range(4):
        faces = _faces(turn, view)
        gone = {
            f[0]
            for p in points
            if (f := _front(faces, p)) is not None
            and f[1]
            and f[0] != turn.hold
            and f[0] not in keep
        }
        if not gone:
            break
        view = replace(
            view,
            solid=tuple(i for i in view.solid if i not in gone),
            cutaway=tuple(sorted({*view.cutaway, *gone})),
            labels={i: q for i, q in view.labels.items() if i not in gone},
        )
    return view


CUT_FEW = 3  # the main camera's cut-away wins over another camera's up to this many cubes
CLEAR_UP_TO = 50.0  # degrees: a camera higher than this is not taken to clear the arrow


def _is_corner(cells: Sequence[Coord], i: int) -> bool:
    """True when the snake turns at cube ``i`` (an end is not a corner)."""
    if i <= 0 or i >= len(cells) - 1:
        return False
    a, b, c = cells[i - 1], cells[i], cells[i + 1]
    return any(b[k] - a[k] != c[k] - b[k] for k in range(3))


# -- a view as flat shapes ---------------------------------------------------------------------
BOX = "#c4c4c4"  # the finished box's outline: thin and light
TAIL = "#4f7cac"  # the rest of the snake: dashed, never drawn over a solid cube


def drawing_of(
    panel: Panel, view: View, cells: Sequence[Coord] | None = None, *, arrows: bool = True
) -> drawing.Drawing:
    """One view of a panel as shapes on the page (``explain.drawing``): its cubes in the
    panel's colours (new cubes blue, the rest dark and light wood, unless the panel gives
    colours) and patterns, the cube it turns at outlined, cut-aways dotted, the rest of the
    snake and the box's outline thin under everything; the arrow (or a plan's arc, in a
    white halo) and the numbers on top, and the close-up's window outlined on an overview.
    ``cells`` are the cubes' places when neither the view nor the panel gives them (a
    solution's cells)."""
    where = view.cells or panel.cells or cells
    if where is None:
        raise ValueError("the view has no cells")
    step = panel.step
    marks = panel.marks if panel.marks is not None else {step.pivot: PIVOT}
    cubes = []
    for cell in panel.tail:
        cubes.append(drawing.Cube(-1, cell, "tail", TAIL))
    for i in view.solid:
        colour = (
            panel.colours[i]
            if panel.colours is not None
            else NEW
            if i >= step.first
            else cube_colour(i)
        )
        seam = view.seam if i in (panel.hold, step.pivot) and panel.hold >= 0 else None
        pattern = (panel.patterns or {}).get(i, "")
        cubes.append(drawing.Cube(i, where[i], "solid", colour, marks.get(i, ""), seam, pattern))
    for i in view.cutaway:
        cubes.append(drawing.Cube(i, where[i], "cut"))
    for i in view.ghost:  # see-through, in their colour and pattern
        colour = (panel.colours or {}).get(i, NEW)
        pattern = (panel.patterns or {}).get(i, "")
        cubes.append(drawing.Cube(i, where[i], "ghost", colour, pattern=pattern))
    under = []
    if panel.box is not None:
        lo, hi = panel.box
        ends = [tuple(float(hi[k] if c >> k & 1 else lo[k]) for k in range(3)) for c in range(8)]
        under = [((ends[a], ends[b]), BOX, 0.6, "") for a, b in CUBE_EDGES]
    arrow_list = []
    if arrows:
        if view.arc is not None:
            arrow_list.append((view.arc, PLAN_ARROW))
        elif panel.arrow is not None and panel.hold < 0:
            arrow_list.append((panel.arrow, ARROW))
    bold = (
        {panel.hold, step.pivot}
        if panel.hold >= 0
        else set(range(step.first, step.last + 1))
        if step.first < len(where)
        else set()
    )
    return drawing.draw(
        view.camera,
        cubes,
        view.labels,
        bold=bold,
        under=under,
        arrows=arrow_list,
        window=view.window,
        caption=view.caption or view.camera.name,
        outline=view.inset,
        halo=panel.hold >= 0,
        pointers=view.pointers,
    )


# -- the way back's questions --------------------------------------------------------------------
ASKED = "#1f9bde"  # the run a question asks about: blue, hatched, with an arrow the way it points
COUNTED = "#1b5e20"  # the corner a question counts to: outlined thick in dark green


def question_panel(plan: FoldPlan, check: Check, cells: Sequence[Coord], title: str) -> Panel:
    """A 'Something doesn't match?' question's picture: the snake as it is when the answer
    is yes (``cells``, the table frame), the run asked about blue and hatched with an arrow
    the way it points, the corner counted to outlined in dark green, the end you hold in its
    black ring, the rest pale; seen from the first of PLAN_VIEWS that shows the run."""
    g = guide(plan)
    chain = g.chain
    n = len(cells)
    if check.kind == "end":
        run, corner = len(chain.runs) - 1, -1
    else:
        assert check.at is not None
        rank = chain.rank(check.at)
        run, corner = rank + check.run, chain.corners[rank]
    cubes = chain.runs[run]
    held_end = chain.held_cube
    colours = {i: pale(cube_colour(i)) for i in range(n)}
    colours |= dict.fromkeys(cubes, ASKED)
    marks = {held_end: HELD_END}
    if corner >= 0:
        marks[corner] = COUNTED
    camera = next(
        (
            cam
            for cam in PLAN_VIEWS
            if all(is_visible(cells[i], cam.eye, set(cells)) for i in cubes)
        ),
        PLAN_VIEWS[0],
    )
    numbered = list(dict.fromkeys([held_end, *([corner] if corner >= 0 else []), cubes[-1]]))
    view = replace(
        apart(make_view(camera, cells, range(n), numbered), numbered, numbered),
        cells=tuple(cells),
        caption=camera.name,
    )
    return Panel(
        Step(0, n, n - 1, -1, 0),
        title,
        (view,),
        view,
        (),
        (_centre(cells[cubes[0]]), _centre(cells[cubes[-1]])),
        _bounds(cells),
        cells=tuple(cells),
        colours=colours,
        marks=marks,
        patterns={**dict.fromkeys(cubes, "hatch"), held_end: "ring"},
        heading=title,
    )


# -- pointers: where to count from, where the end you hold is ------------------------------------
POINTER_LONG = 1.5  # cube widths: a pointer's arrow on the page
POINTER_OFF = 0.45  # ... its tip this far from the centre of the cube it points at
POINTER_EDGE = 0.45  # ... or this far inside the window's edge, pointing off the picture
POINTER_APART = 1.3  # two pointers' tips at least this far apart (else the second moves aside)


def _aims(origin: str, counted: int, held_end: int) -> list[tuple[int, str]]:
    """The cubes a step's picture points to, with the words: the cube it counts from (an
    end, or the corner turned last; -1 for none) and the end you hold."""
    if counted < 0:
        return [(held_end, pointer_words("held", counted=False))]
    if counted == held_end:
        return [(held_end, pointer_words("held", counted=True))]
    return [
        (counted, pointer_words(origin, counted=True)),
        (held_end, pointer_words("held", counted=False)),
    ]


def pointers(
    view: View, aims: Sequence[tuple[int, str]], avoid: Iterable[int] = ()
) -> tuple[tuple[tuple[float, float], tuple[float, float], str, str], ...]:
    """Arrows on a close-up (``view``, framed by its window) to each cube of ``aims``: a short
    arrow onto the cube where it is drawn, else an arrow at the edge of the picture pointing
    the way to it, each with its words at the tail ("left": they start at the tail;
    "right": they end there; POINTER_TEXT high, about POINTER_CHAR a letter). Of the places
    tried, one with the arrow and its words inside the picture, clear of the numbers and of
    the turn's arrow and of the other pointers, its arrow off the cubes of ``avoid`` (those
    that turn: an arrow on them reads as pointing at them), with the fewest cubes under its
    words."""
    if view.window is None or view.cells is None:
        return ()
    project = drawing.projector(view.camera)
    x0, y0, x1, y1 = view.window
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    drawn = set(view.solid) | set(view.ghost) | set(view.cutaway)
    spots = [project(q) for q in view.labels.values()]
    arc = [project(q) for q in view.arc or ()]
    cubes = [project(_centre(view.cells[i])) for i in view.solid]
    shun = [project(_centre(view.cells[i])) for i in avoid if i in set(view.solid)]
    out: list[tuple[tuple[float, float], tuple[float, float], str, str]] = []
    taken: list[tuple[float, float, float, float]] = []  # the words' boxes placed
    lines: list[tuple[float, float]] = []  # points along the arrows placed

    def key(
        tail: tuple[float, float], tip: tuple[float, float], words: str, shift: float
    ) -> tuple[Any, ...]:
        align = "right" if tail[0] > centre[0] else "left"
        b = _words_box(tail, words, align)
        line = _along(tail, tip)
        inside = all(x0 + 0.3 < x < x1 - 0.3 and y0 + 0.3 < y < y1 - 0.3 for x, y in line) and (
            x0 < b[0] and b[2] < x1 and y0 < b[1] and b[3] < y1
        )
        clear = min((_off_text(q, at) for q in line for at in spots), default=9.0)
        away = min((math.dist(q, a) for q in line for a in arc), default=9.0)
        apart = min((math.dist(tip, o[1]) for o in out), default=9.0)
        numbers = [
            (q[0] - TEXT_BOX[0], q[1] - TEXT_BOX[1], q[0] + TEXT_BOX[0], q[1] + TEXT_BOX[1])
            for q in spots
        ]
        covered = sum(1 for n in numbers if _boxes_meet(b, n)) + sum(
            1 for q in arc if _in_box(q, b, 0.1)
        )
        covered += sum(1 for t in taken if _boxes_meet(b, t))
        covered += sum(1 for q in lines if _in_box(q, b, 0.1))  # over another arrow
        covered += sum(1 for q in line for t in taken if _in_box(q, t, 0.05))  # across words
        onto = sum(1 for q in line[1:] for c in shun if math.dist(q, c) < 0.45)
        crowd = sum(1 for q in cubes if _in_box(q, b, 0.3))
        good = clear >= ARC_CLEAR and away >= 0.3 and apart >= POINTER_APART and not onto
        return (inside, good, -covered, min(clear, ARC_CLEAR), -crowd, -shift)

    filled = {view.cells[i] for i in view.solid}
    for cube, words in aims:
        p = project(_centre(view.cells[cube]))
        tried = []
        if cube in drawn and not is_visible(
            view.cells[cube], view.camera.eye, filled - {view.cells[cube]}
        ):
            words = f"{words} {HIDDEN}"
        for tail, tip, shift in _pointer_places(p, cube in drawn, view.window):
            tried.append((key(tail, tip, words, shift), tail, tip))
        _key, tail, tip = max(tried, key=lambda c: c[0])
        align = "right" if tail[0] > centre[0] else "left"
        taken.append(_words_box(tail, words, align))
        lines += _along(tail, tip)
        out.append((tail, tip, words, align))
    return tuple(out)


def _pointer_places(
    p: Point, drawn: bool, window: tuple[float, float, float, float]
) -> list[tuple[Point, Point, float]]:
    """The places :func:`pointers` tries for an arrow to a cube at ``p``: (tail, tip, shift).
    A cube that is drawn: short arrows onto it from 16 directions, of three lengths. One that
    is not: arrows at the picture's edge the way to it, shifted along the edge."""
    if drawn:
        places = []
        for k, long in itertools.product(range(16), (1.0, 0.7, 0.45)):
            a = k * math.pi / 8 + math.pi / 16
            long *= POINTER_LONG
            u = (math.cos(a), math.sin(a))
            tip = (p[0] + POINTER_OFF * u[0], p[1] + POINTER_OFF * u[1])
            places.append(((tip[0] + long * u[0], tip[1] + long * u[1]), tip, 0.0))
        return places
    x0, y0, x1, y1 = window
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    size = math.hypot(dx, dy) or 1.0
    u = (dx / size, dy / size)
    half = ((x1 - x0) / 2 - POINTER_EDGE, (y1 - y0) / 2 - POINTER_EDGE)
    t = min(half[0] / abs(u[0]) if u[0] else math.inf, half[1] / abs(u[1]) if u[1] else math.inf)
    base = (centre[0] + t * u[0], centre[1] + t * u[1])
    places = []
    for shift in (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 2.5, -2.5):
        tip = (base[0] - u[1] * shift, base[1] + u[0] * shift)
        places.append(
            ((tip[0] - POINTER_LONG * u[0], tip[1] - POINTER_LONG * u[1]), tip, abs(shift))
        )
    return places


def _words_box(tail: Point, words: str, align: str) -> tuple[float, float, float, float]:
    """The box a pointer's words take at its tail (a space either side, as drawn)."""
    w = POINTER_CHAR * (len(words) + 2)
    left = tail[0] if align == "left" else tail[0] - w
    return (left, tail[1] - POINTER_TEXT / 2 - 0.05, left + w, tail[1] + POINTER_TEXT / 2 + 0.05)


def _along(tail: Point, tip: Point) -> list[Point]:
    """Nine points along an arrow, tail to tip."""
    return [
        (tail[0] + (tip[0] - tail[0]) * t / 8, tail[1] + (tip[1] - tail[1]) * t / 8)
        for t in range(9)
    ]


POINTER_TEXT = 0.3  # cube widths: a pointer's words are this high on every form
POINTER_CHAR = 0.18  # ... and at most about this wide a letter


def _in_box(p: tuple[float, float], b: tuple[float, float, float, float], pad: float) -> bool:
    return b[0] - pad <= p[0] <= b[2] + pad and b[1] - pad <= p[1] <= b[3] + pad


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
