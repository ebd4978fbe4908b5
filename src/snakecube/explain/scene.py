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

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from snakecube.explain import drawing
from snakecube.explain.words import checkpoints, layer_blocks, start_words, step_words
from snakecube.fold import FoldPlan, grip, steps_in_words
from snakecube.frame import (
    CAMERA,
    CUBE_EDGES,
    SECOND_VIEWS,
    Camera,
    Step,
    blocker,
    corners,
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
        (min(c[0] for c in everything), min(c[1] for c in everything),
         min(c[2] for c in everything)),
        (max(c[0] for c in everything) + 1, max(c[1] for c in everything) + 1,
         max(c[2] for c in everything) + 1),
    )  # fmt: skip


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
HOLD = "#2f9e44"  # the cube you hold at the joint: green
PALE = 0.6  # the other held cubes: their colour this far towards white
# A step's picture shows this much of the page, in cube widths (wide, high): the joint and the
# cubes near it, then all the cubes that turn, or every cube, when that fits in MAX (so that
# the joint's cubes stay large: on a phone 390 px wide a cube is then over 24 px across); at
# least MIN, so a small turn keeps its surroundings; MAX's shape, wider than high.
PLAN_MIN = (7.8, 6.0)
PLAN_MAX = (13.0, 10.0)
FOCUS = 3  # cubes on each side of the joint that a step's picture always holds
# A step whose joint the table camera hides is seen as the person would see it after moving a
# little (the same side of the table, left and right unchanged); else the few cubes in the way
# are cut away (CUT_FEW at most); else it is seen from below or behind (``SECOND_VIEWS``);
# else cut away, however many.
NEAR_VIEWS = (
    CAMERA,
    Camera(28.0, -118.0, "seen from the front, a little to the left"),
    Camera(62.0, -62.0, "seen from higher up"),
    Camera(62.0, -118.0, "seen from higher up, a little to the left"),
)
CUT_FEW = 3
CUT_NOTE = "dotted edges: cubes cut away so that the joint shows"
ARC_STEPS = 12  # points along the turn's arrow
ARC_RADIUS = 1.45  # cube widths from the turning line to the arrow


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

    def at(self, fraction: float) -> list[Point3]:
        """Every cube's centre ``fraction`` of the way through the turn."""
        moving = set(self.moving)
        angle = self.sign * fraction * math.pi / 2
        return [
            _rotate(_centre(c), self.origin, self.direction, angle) if i in moving else _centre(c)
            for i, c in enumerate(self.before)
        ]

    def arc(self) -> tuple[Point3, ...]:
        """The arrow of the turn: the path round the turning line of the first cube that
        moves (nearest the joint), ARC_RADIUS from the line, so it passes beside the cube."""
        first = next(i for i in self.moving if self.before[i] != self.after[i])
        centre = _centre(self.before[first])
        d = self.direction
        v = [centre[a] - self.origin[a] for a in range(3)]
        along = dot(v, d)
        foot = [self.origin[a] + along * d[a] for a in range(3)]
        r = math.sqrt(sum((centre[a] - foot[a]) ** 2 for a in range(3)))
        start = tuple(foot[a] + (centre[a] - foot[a]) * ARC_RADIUS / r for a in range(3))
        return tuple(
            _rotate(start, self.origin, d, self.sign * k * math.pi / 2 / ARC_STEPS)
            for k in range(ARC_STEPS + 1)
        )

    def seam(self) -> tuple[int, float]:
        """The joint: the axis across it, and where along that axis the two joint cubes'
        shared face lies."""
        a = next(k for k in range(3) if self.direction[k])
        return a, self.origin[a] + 0.5 * self.direction[a]


def turn_of(plan: FoldPlan, k: int) -> Turn:
    """Move ``k`` (1-based) of a plan: held and turning cubes from the plan's grip, the
    turn's sign from the states themselves (checked: every turning cube lands where the
    next state has it)."""
    frames = plan.frames
    before, after = tuple(frames[k - 1]), tuple(frames[k])
    joint, _ = plan.moves[k - 1]
    _, turned, moving = grip(plan, joint)
    t = turned - 1
    h = joint - 1 if plan.held == "first" else joint
    order = [i - 1 for i in moving]
    if plan.held == "last":
        order.reverse()  # from the joint outwards
    d = tuple(before[t][a] - before[h][a] for a in range(3))
    direction: Coord = (d[0], d[1], d[2])
    origin = _centre(before[h])
    for sign in (1, -1):
        turned_cells = [
            _rotate(_centre(before[i]), origin, direction, sign * math.pi / 2) for i in order
        ]
        if all(
            max(abs(p[a] - after[i][a] - 0.5) for a in range(3)) < 1e-6
            for p, i in zip(turned_cells, order, strict=True)
        ):
            return Turn(h, t, tuple(order), before, after, origin, direction, sign)
    raise ValueError(f"step {k} of the plan is not a quarter turn about its joint")


def _window(camera: Camera, focus: list[Point3], more: list[list[Point3]]) -> Window:
    """The page rectangle a step's pictures show: round the ``focus`` points, widened to the
    first of ``more`` that still fits in PLAN_MAX, then to PLAN_MIN and the RATIO."""
    project = drawing.projector(camera)
    box = drawing.box_of((project(p) for p in focus), 0.3)
    for extra in more:
        grown = drawing.box_of([*(project(p) for p in extra), box[:2], box[2:]], 0.3)
        if grown[2] - grown[0] <= PLAN_MAX[0] and grown[3] - grown[1] <= PLAN_MAX[1]:
            box = grown
            break
    w, h = box[2] - box[0], box[3] - box[1]
    ratio = PLAN_MAX[0] / PLAN_MAX[1]
    w = max(w, PLAN_MIN[0], h * ratio)
    h = max(h, PLAN_MIN[1], w / ratio)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _corner_points(cells: Sequence[Coord], cubes: Iterable[int]) -> list[Point3]:
    return [(float(x), float(y), float(z)) for i in cubes for x, y, z in corners(cells[i])]


def _turn_views(
    turn: Turn, camera: Camera, numbered: list[int], cut: bool = False
) -> tuple[View, View]:
    """A step's pictures, before and after, seen by ``camera`` in one window; the numbers of
    ``numbered`` where they show (the two joint cubes kept), cubes in their way cut away
    when ``cut``."""
    n = len(turn.before)
    held_side = [i for i in range(n) if i not in set(turn.moving)]
    near_held = sorted(held_side, key=lambda i: abs(i - turn.hold))[:FOCUS]
    near_moving = list(turn.moving[: FOCUS + 1])
    focus = [
        *_corner_points(turn.before, [*near_held, *near_moving]),
        *_corner_points(turn.after, near_moving),
        *turn.arc(),
    ]
    everything = [*_corner_points(turn.before, range(n)), *_corner_points(turn.after, range(n))]
    moving = [
        *_corner_points(turn.before, turn.moving),
        *_corner_points(turn.after, turn.moving),
    ]
    window = _window(camera, focus, [everything, moving])
    out = []
    for cells, caption in ((turn.before, "before"), (turn.after, "after")):
        shown = [
            i for i in range(n) if drawing.inside(drawing.silhouette(cells[i], camera), window)
        ]
        keep = [turn.turn, turn.hold]
        # a cut-away keeps only the joint's cubes whole: any other cube may be in their way
        view = make_view(
            camera, cells, shown, keep if cut else numbered, cut_for=keep if cut else ()
        )
        view = apart(view, numbered, keep)
        name = f"{caption}, {camera.name}" if camera.name else caption
        out.append(
            replace(
                view,
                cells=tuple(cells),
                caption=name,
                window=window,
                arc=turn.arc() if caption == "before" else None,
                seam=turn.seam(),
            )
        )
    return out[0], out[1]


def fold_panels(plan: FoldPlan) -> list[Panel]:
    """A fold plan's pictures (``snakecube.fold.FoldPlan``): the flat start from above, every
    cube numbered; then each quarter turn, before and after, framed on the joint and the
    cubes that turn. The held cubes are pale, the one held at the joint green, the one that
    turns on the joint red and the rest that turn with it blue; the two joint cubes carry
    their numbers, the turning line is drawn through them, and an arrow shows the quarter
    turn. A step whose joint cubes the table camera hides uses the first second view that
    numbers both, else a cut-away."""
    lines = steps_in_words(plan)
    start = [w for w in lines if not w.startswith("Step ")][:-1]  # the last: the order
    start[0] = start[0].replace("as the start picture shows:", "as this picture shows:")
    words = ["\n".join(start), *(w for w in lines if w.startswith("Step "))]
    frames = plan.frames
    n = len(plan.end)
    held_end = 0 if plan.held == "first" else n - 1
    first = frames[0]
    wood = {i: cube_colour(i) for i in range(n)}
    top = make_view(ABOVE, first, range(n), range(n))
    top = replace(top, cells=tuple(first), caption="seen from above")
    out = [
        Panel(
            Step(0, n, n - 1, -1, 0),
            words[0],
            (top,),
            top,
            (),
            None,
            _bounds(first),
            cells=tuple(first),
            colours=wood,
            marks={held_end: PIVOT},
        )
    ]
    for k in range(1, len(frames)):
        turn = turn_of(plan, k)
        colours = {i: pale(cube_colour(i)) for i in range(n)}
        colours |= dict.fromkeys(turn.moving, NEW)
        colours[turn.turn], colours[turn.hold] = PIVOT, HOLD
        ends = [turn.moving[-1], held_end]
        segment_end = next(
            (i for i in turn.moving[1:] if _is_corner(turn.after, i)), turn.moving[-1]
        )
        numbered = list(dict.fromkeys([turn.turn, turn.hold, segment_end, *ends]))
        views, notes = _joint_views(turn, numbered)
        out.append(
            Panel(
                Step(k, n, n - 1, turn.turn, 0),
                words[k] if k < len(words) else "",
                views,
                views[0],
                (),
                None,
                _bounds(frames[k]),
                notes=notes,
                cells=tuple(frames[k]),
                colours=colours,
                marks={},
                hold=turn.hold,
                moving=turn.moving,
                spin=(turn.origin, turn.direction, turn.sign),
            )
        )
    return out


def _joint_views(turn: Turn, numbered: list[int]) -> tuple[tuple[View, View], tuple[str, ...]]:
    """A step's two pictures, from a view in which both joint cubes carry their numbers
    before and after (see NEAR_VIEWS: the table camera unless another of them shows the
    joint cubes much more, SEEN_MORE times), and the notes they need."""

    def numbers_both(pair: tuple[View, View]) -> bool:
        return all(i in v.labels for v in pair for i in (turn.hold, turn.turn))

    near = [
        pair for camera in NEAR_VIEWS if numbers_both(pair := _turn_views(turn, camera, numbered))
    ]
    if near:
        seen = [_joint_seen(turn, pair) for pair in near]
        first = 0 if near[0][0].camera == CAMERA else None
        best = max(range(len(near)), key=lambda k: (seen[k], -k))
        if first is not None and seen[first] * SEEN_MORE >= seen[best]:
            best = first
        return near[best], ()
    cut = _turn_views(turn, CAMERA, numbered, cut=True)
    if numbers_both(cut) and max(len(v.cutaway) for v in cut) <= CUT_FEW:
        return cut, (CUT_NOTE,)
    for camera in SECOND_VIEWS:
        pair = _turn_views(turn, camera, numbered)
        if numbers_both(pair):
            return pair, ()
    for camera in (*NEAR_VIEWS[1:], *SECOND_VIEWS):
        other = _turn_views(turn, camera, numbered, cut=True)
        if numbers_both(other):
            return other, (CUT_NOTE,)
    return cut, (CUT_NOTE,)


SEEN_MORE = 1.6  # another near view wins over the table camera when it shows this much more
GRID = (-0.35, 0.0, 0.35)  # sample points on a face, each way


def _joint_seen(turn: Turn, pair: tuple[View, View]) -> int:
    """How much of the two joint cubes a step's pictures show: the sample points on their
    faces towards the eye that no drawn cube hides, before and after."""
    count = 0
    for view in pair:
        cells = view.cells or turn.before
        filled = {cells[i] for i in view.solid}
        eye = view.camera.eye
        for i in (turn.hold, turn.turn):
            for axis, sign in facing(eye):
                for du in GRID:
                    for dv in GRID:
                        p = [cells[i][0] + 0.5, cells[i][1] + 0.5, cells[i][2] + 0.5]
                        p[axis] += 0.5 * sign
                        u, v = [a for a in range(3) if a != axis]
                        p[u] += du
                        p[v] += dv
                        count += blocker(p, eye, filled) is None
    return count


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
    colours), the cube it turns at outlined, cut-aways dotted, the rest of the snake and the
    box's outline thin under everything; the arrow (or a plan's arc and turning line) and
    the numbers on top. ``cells`` are the cubes' places when neither the view nor the panel
    gives them (a solution's cells)."""
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
        cubes.append(drawing.Cube(i, where[i], "solid", colour, marks.get(i, ""), seam))
    for i in view.cutaway:
        cubes.append(drawing.Cube(i, where[i], "cut"))
    under = []
    if panel.box is not None:
        lo, hi = panel.box
        ends = [tuple(float(hi[k] if c >> k & 1 else lo[k]) for k in range(3)) for c in range(8)]
        under = [((ends[a], ends[b]), BOX, 0.6, "") for a, b in CUBE_EDGES]
    arrow_list = []
    if arrows:
        if view.arc is not None:
            arrow_list.append((view.arc, ARROW))
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
    )
