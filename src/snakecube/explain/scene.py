"""What the pictures show, decided without any plotting library.

**The table frame.** Every picture and the default words use one frame fixed to the table the
person works on: x to the right, y away from the person, z up (right-handed, so pictures are
never mirror images). The finished cube stands on the table; the camera looks from the front,
a little to the right and above (``CAMERA``), the same for every step of a solution.

**The display orientation.** A solution can be turned by any symmetry of its target and stay
a solution, so the pictures use the orientation in which the fixed camera sees the most:
fewest steps with a new cube hidden, then cube 1 low, in front and on the left, then the
first segment lying on the table. Text, sheets, the GIF and the viewer all show this
orientation (:func:`display`), so their words and pictures agree.

**Steps.** Step k places segment k (step 1 places the first segment, cubes 1..L1), the same
numbering in every form. Each step's panel holds: the placed cubes, the new segment
(highlighted and numbered), the pivot cube where the turn happens (marked), an arrow along
the new segment, and the rest of the snake drawn lightly (the next segment at its place, or
the hanging tail of a fold plan when one is given).

**Visibility.** The camera is orthographic, so a point is visible when the ray from it
towards the eye meets no cube; rays are traced through the voxel grid exactly. A cube gets a
number only on a face whose label area is visible in that view. When a new cube is hidden
from the camera, the panel adds a second view that sees every new cube (labelled "seen from
below", ...) or, if none does, draws the cubes in the way as a cut-away (edges only).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from snakecube.shape import VECTORS, Coord
from snakecube.solution import Solution

DARK, LIGHT, NEW, GHOST, PIVOT, ARROW = (
    "#7a4a22",
    "#f0d9b0",
    "#1f9bde",
    "#c8c8c8",
    "#d62728",
    "#d62728",
)
SEGMENT_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)


@dataclass(frozen=True, slots=True)
class Camera:
    """An orthographic view: elevation and azimuth in degrees (matplotlib's convention),
    and a name for people ("" for the main view)."""

    elev: float
    azim: float
    name: str = ""

    @property
    def eye(self) -> tuple[float, float, float]:
        """The unit vector from the scene towards the eye."""
        e, a = math.radians(self.elev), math.radians(self.azim)
        return (math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e))

    def screen(self, v: Sequence[float]) -> tuple[float, float]:
        """Where the vector ``v`` points on the page: (right, up)."""
        ex, ey, ez = self.eye
        right = (-ey, ex, 0.0)  # z x eye, horizontal
        norm = math.hypot(right[0], right[1])
        right = (right[0] / norm, right[1] / norm, 0.0)
        up = (  # eye x right: the page's up
            ey * right[2] - ez * right[1],
            ez * right[0] - ex * right[2],
            ex * right[1] - ey * right[0],
        )
        return (_dot(v, right), _dot(v, up))


TAIL_MARGIN = 1  # cells around the target where a hanging tail is still drawn
CAMERA = Camera(28.0, -62.0)  # front, a little right, above: the person at the table
SECOND_VIEWS = (
    Camera(-28.0, -62.0, "seen from below"),
    Camera(28.0, 118.0, "seen from behind"),
    Camera(-28.0, 118.0, "seen from behind and below"),
)


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


# -- visibility ---------------------------------------------------------------------------------
def blocker(point: Sequence[float], eye: Sequence[float], filled: set[Coord]) -> Coord | None:
    """The first filled cell that the ray from ``point`` towards ``eye`` enters, or None.

    Cells are unit cubes [x, x+1] x [y, y+1] x [z, z+1]. The ray is traced cell by cell
    (Amanatides and Woo), starting just off ``point`` so that a point on a face does not see
    its own cube.
    """
    if not filled:
        return None
    lo = [min(c[a] for c in filled) for a in range(3)]
    hi = [max(c[a] for c in filled) + 1 for a in range(3)]
    p = [point[a] + 1e-6 * eye[a] for a in range(3)]
    cell = [math.floor(p[a]) for a in range(3)]
    step, t_max, t_delta = [0, 0, 0], [math.inf] * 3, [math.inf] * 3
    for a in range(3):
        if eye[a] > 0:
            step[a], t_max[a], t_delta[a] = 1, (cell[a] + 1 - p[a]) / eye[a], 1 / eye[a]
        elif eye[a] < 0:
            step[a], t_max[a], t_delta[a] = -1, (cell[a] - p[a]) / eye[a], -1 / eye[a]
    while True:
        here = (cell[0], cell[1], cell[2])
        if here in filled:
            return here
        a = min(range(3), key=lambda i: t_max[i])
        cell[a] += step[a]
        t_max[a] += t_delta[a]
        if (step[a] > 0 and cell[a] >= hi[a]) or (step[a] < 0 and cell[a] < lo[a]):
            return None


def facing(eye: Sequence[float]) -> list[tuple[int, int]]:
    """The three face normals (axis, sign) of a cube that look towards the eye, most
    frontal first."""
    faces = [(a, 1 if eye[a] > 0 else -1) for a in range(3) if eye[a] != 0]
    return sorted(faces, key=lambda f: -abs(eye[f[0]]))


def _face_point(cell: Coord, axis: int, sign: int, du: float, dv: float) -> list[float]:
    p = [cell[0] + 0.5, cell[1] + 0.5, cell[2] + 0.5]
    p[axis] += 0.5 * sign
    others = [a for a in range(3) if a != axis]
    p[others[0]] += du
    p[others[1]] += dv
    return p


LABEL_SPOTS = ((0.0, 0.0), (0.2, 0.2), (-0.2, 0.2), (0.2, -0.2), (-0.2, -0.2))


def label_face(cell: Coord, eye: Sequence[float], filled: set[Coord]) -> tuple[int, int] | None:
    """The cube's most frontal face (axis, sign) whose label area (the centre and four
    points around it) is visible; None if no face has one."""
    for axis, sign in facing(eye):
        spots = [_face_point(cell, axis, sign, du, dv) for du, dv in LABEL_SPOTS]
        if all(blocker(s, eye, filled) is None for s in spots):
            return axis, sign
    return None


def label_point(cell: Coord, eye: Sequence[float], filled: set[Coord]) -> list[float] | None:
    """Where to write the cube's number: the centre of its :func:`label_face`, or None."""
    face = label_face(cell, eye, filled)
    return None if face is None else _face_point(cell, face[0], face[1], 0.0, 0.0)


def is_visible(cell: Coord, eye: Sequence[float], filled: set[Coord]) -> bool:
    """True when the centre of one of the cube's eye-facing faces is visible."""
    return any(
        blocker(_face_point(cell, a, s, 0.0, 0.0), eye, filled) is None for a, s in facing(eye)
    )


def in_the_way(cell: Coord, eye: Sequence[float], filled: set[Coord]) -> set[Coord]:
    """The fewest filled cells to cut away so that one of the cube's eye-facing faces shows
    its label area: every cell between that face's label spots and the eye."""
    best: set[Coord] | None = None
    for axis, sign in facing(eye):
        out: set[Coord] = set()
        for du, dv in LABEL_SPOTS:
            rest = set(filled)
            p = _face_point(cell, axis, sign, du, dv)
            while (hit := blocker(p, eye, rest)) is not None:
                out.add(hit)
                rest.discard(hit)
        if best is None or len(out) < len(best):
            best = out
    return best or set()


# -- steps -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Step:
    """One step: segment ``number - 1`` placed. Cubes are 0-based, in snake order."""

    number: int
    first: int  # the first cube this step adds (0 for step 1, which adds cube 1 too)
    last: int  # the last cube this step adds
    pivot: int  # the cube it turns at (-1 for step 1)
    direction: int  # 0..5 in the display frame


def steps(solution: Solution) -> list[Step]:
    """One step per segment, numbered from 1, as every form shows them."""
    out, at = [], 0
    for k, (n, d) in enumerate(zip(solution.snake.lengths, solution.directions, strict=True)):
        out.append(Step(k + 1, 0 if k == 0 else at + 1, at + n - 1, -1 if k == 0 else at, d))
        at += n - 1
    return out


def cube_colour(i: int) -> str:
    """Cube i (0-based) alternates dark and light, starting dark, like the wooden puzzle."""
    return DARK if i % 2 == 0 else LIGHT


# -- the display orientation -----------------------------------------------------------------
def _oriented(solution: Solution, perm: Sequence[int]) -> Solution:
    return Solution(
        solution.snake, solution.region, tuple(perm[c] for c in solution.path), solution.start_class
    )


def hidden_steps(solution: Solution, camera: Camera = CAMERA) -> list[int]:
    """For each step, how many of its new cubes the camera cannot see."""
    cells = solution.cells
    eye = camera.eye
    out = []
    for s in steps(solution):
        filled = set(cells[: s.last + 1])
        out.append(sum(not is_visible(c, eye, filled) for c in cells[s.first : s.last + 1]))
    return out


def lay_flat(solution: Solution) -> Solution:
    """A one-layer solution turned (a rotation: the axes taken in cyclic order, never a
    mirror) so that its layer is horizontal, its longer side along x."""
    from snakecube.shape import Box, Region

    dims = solution.region.dims
    if 1 not in dims or (dims[2] == 1 and dims[0] >= dims[1]):
        return solution
    turns = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]  # new axis a takes old axis t[a]
    best = min(turns, key=lambda t: (dims[t[2]] != 1, -dims[t[0]]))
    a = dims[best[0]]
    quarter = a < dims[best[1]]  # then a quarter turn about z puts the longer side along x

    def turn(c: Coord) -> Coord:
        x, y, z = (c[best[0]], c[best[1]], c[best[2]])
        return (y, a - 1 - x, z) if quarter else (x, y, z)

    cells = [turn(c) for c in solution.region.cells]
    region = (
        Box(*(max(c[i] for c in cells) + 1 for i in range(3)))
        if isinstance(solution.region, Box)
        else Region(cells)
    )
    path = tuple(region.index[turn(c)] for c in solution.cells)
    return Solution(solution.snake, region, path, solution.start_class)


def display(solution: Solution) -> Solution:
    """The solution turned (by a symmetry of its target) so that the fixed camera sees the
    most, cube 1 sits low, in front and on the left, and the first segment lies on the table;
    flat targets are first laid flat (x, y). Deterministic."""
    solution = lay_flat(solution)
    region = solution.region
    best: tuple[tuple[int, ...], Solution] | None = None
    for perm in region.symmetries:
        turned = _oriented(solution, perm)
        hidden = hidden_steps(turned)
        x, y, z = turned.cells[0]
        d = turned.directions[0]
        score = (sum(1 for h in hidden if h), sum(hidden), z, y, x, (0, 2, 3, 1, 4, 5)[d])
        if best is None or score < best[0]:
            best = (score, turned)
    assert best is not None  # a region always has the identity
    return best[1]


def is_flat(solution: Solution) -> bool:
    """True for one-layer targets, drawn top-down in two dimensions."""
    return solution.region.dims[2] == 1


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


def panels(solution: Solution, tails: Sequence[Sequence[Coord]] | None = None) -> list[Panel]:
    """One panel per step of a solution in display orientation (see :func:`display`).

    ``tails`` gives, per step, where the rest of the snake hangs (from a fold plan); without
    it the next segment is drawn at its place.
    """
    from snakecube.explain.words import step_words

    cells = solution.cells
    words = step_words(solution)
    out = []
    all_steps = steps(solution)
    for s in all_steps:
        shown = range(s.last + 1)
        new = list(range(s.first, s.last + 1))
        numbered = [*new, *([s.pivot] if s.pivot >= 0 else [])]
        main = make_view(CAMERA, cells, shown, numbered)
        missing = [i for i in new if i not in main.labels]
        views: tuple[View, ...] = (main,)
        single = main
        notes: tuple[str, ...] = ()
        if missing:
            single = make_view(CAMERA, cells, shown, numbered, cut_for=missing)
            views = (single,)
            notes = ("dotted edges: cubes cut away so that the new ones show",)
            for cam in SECOND_VIEWS:
                second = make_view(cam, cells, shown, new)
                if len(second.labels) == len(new):
                    views, notes = (main, second), ()
                    break
        if tails is not None:
            tail = tuple(tails[s.number - 1])
        elif s.number < len(all_steps):
            nxt = all_steps[s.number]
            tail = tuple(cells[nxt.first : nxt.last + 1])
        else:
            tail = ()
        start = cells[s.pivot] if s.pivot >= 0 else cells[0]
        end = cells[s.last]
        arrow = (
            (start[0] + 0.5, start[1] + 0.5, start[2] + 0.5),
            (end[0] + 0.5, end[1] + 0.5, end[2] + 0.5),
        )
        if tails is not None:  # keep the drawing's scale: what hangs far away is not drawn
            lo_box = [min(c[a] for c in cells) - TAIL_MARGIN for a in range(3)]
            hi_box = [max(c[a] for c in cells) + TAIL_MARGIN for a in range(3)]
            tail = tuple(c for c in tail if all(lo_box[a] <= c[a] <= hi_box[a] for a in range(3)))
        everything = [*cells, *tail]
        bounds = (
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
        out.append(Panel(s, words[s.number - 1], views, single, tail, arrow, bounds, notes))
    return out


def angles(camera: Camera) -> tuple[float, float]:
    """(elevation, azimuth) in degrees, as matplotlib wants them."""
    return camera.elev, camera.azim


def direction_vector(d: int) -> Coord:
    """The unit vector of direction ``d``."""
    return VECTORS[d]


def fold_panels(plan: object) -> list[Panel]:
    """One panel per state of a fold plan (``snakecube.fold.FoldPlan``): the flat start,
    then the snake after each quarter turn, the held end still. Cubes already where they
    end are wood, the cubes that just swung blue, the cube on the turning line red, and the
    rest of the snake (not yet in place) light grey."""
    from snakecube.fold import steps_in_words

    words = steps_in_words(plan)  # type: ignore[arg-type]
    frames = plan.frames  # type: ignore[attr-defined]
    moves = plan.moves  # type: ignore[attr-defined]
    end = plan.end  # type: ignore[attr-defined]
    held = plan.held  # type: ignore[attr-defined]
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
        numbered = [*([pivot] if pivot >= 0 else []), *(swung[:1] + swung[-1:] if swung else [])]
        if k == 0:
            numbered = [0, n - 1]
        view = make_view(CAMERA, cells, solid, numbered)
        arrow = None
        if swung:
            i = swung[0] if held == "first" else swung[-1]
            a, b = frames[k - 1][i], cells[i]
            arrow = ((a[0] + 0.5, a[1] + 0.5, a[2] + 0.5), (b[0] + 0.5, b[1] + 0.5, b[2] + 0.5))
        bounds = (
            tuple(min(c[a] for c in cells) for a in range(3)),
            tuple(max(c[a] for c in cells) + 1 for a in range(3)),
        )
        step = Step(k, n, n - 1, pivot, 0)  # no cube counts as new: colours say it all
        title = words[k] if k < len(words) else ""
        out.append(
            Panel(
                step,
                title,
                (view,),
                view,
                faint,
                arrow,
                bounds,
                cells=tuple(cells),
                colours=colours,
            )
        )
    return out
