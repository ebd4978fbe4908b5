"""The table frame and what a camera sees: geometry shared by fold plans and pictures.

Below both ``fold`` and ``explain`` (neither imports the other for this): the words for the
six directions, the cameras, exact visibility through the voxel grid, the steps of a
solution, and the display orientation that every form uses.

**The table frame.** One frame fixed to the table the person works on: x to the right, y
away from the person, z up (right-handed, so pictures are never mirror images). The finished
cube stands on the table; the camera looks from the front, a little to the right and above
(``CAMERA``), the same for every step of a solution.

**The display orientation.** A solution can be turned by any symmetry of its target and stay
a solution, so every form uses the orientation in which the fixed camera sees the most:
fewest steps with a new cube hidden, then cube 1 low, in front and on the left, then the
first segment lying on the table (:func:`display`).

**Visibility.** The camera is orthographic, so a point is visible when the ray from it
towards the eye meets no cube; rays are traced through the voxel grid exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from snakecube.shape import Box, Coord, Region
from snakecube.solution import Solution
from snakecube.vector import WAYS, dot

# The six ways in a sentence's words ("up" and "down" as they are).
_SAID = {
    "right": "to the right",
    "left": "to the left",
    "away": "away from you",
    "towards": "towards you",
}
TABLE: dict[Coord, str] = {v: _SAID.get(way, way) for v, way in WAYS.items()}

# The 12 edges of a unit cube over its 8 corners (corner i = bits x, y, z of i).
CUBE_EDGES = (
    (0, 1),
    (1, 3),
    (3, 2),
    (2, 0),
    (4, 5),
    (5, 7),
    (7, 6),
    (6, 4),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
)


def corners(cell: Coord) -> list[Coord]:
    """The 8 corners of the unit cube at ``cell`` (corner i = bits x, y, z of i)."""
    x, y, z = cell
    return [(x + (i & 1), y + (i >> 1 & 1), z + (i >> 2 & 1)) for i in range(8)]


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
        return (dot(v, right), dot(v, up))


CAMERA = Camera(28.0, -62.0)  # front, a little right, above: the person at the table
SECOND_VIEWS = (
    Camera(-28.0, -62.0, "seen from below (left and right as in the main view)"),
    Camera(28.0, 118.0, "seen from behind: left and right are swapped"),
    Camera(-28.0, 118.0, "seen from behind and below: left and right are swapped"),
)


# -- visibility ---------------------------------------------------------------------------------
Bounds = tuple[list[int], list[int]]


def bounds(filled: set[Coord]) -> Bounds:
    """The corners of the box around ``filled`` (not empty): where a ray can stop looking."""
    return [min(c[a] for c in filled) for a in range(3)], [
        max(c[a] for c in filled) + 1 for a in range(3)
    ]


def blocker(
    point: Sequence[float], eye: Sequence[float], filled: set[Coord], box: Bounds | None = None
) -> Coord | None:
    """The first filled cell that the ray from ``point`` towards ``eye`` enters, or None.

    Cells are unit cubes [x, x+1] x [y, y+1] x [z, z+1]. The ray is traced cell by cell
    (Amanatides and Woo), starting just off ``point`` so that a point on a face does not see
    its own cube. ``box`` is ``bounds(filled)``, when the caller traces many rays through
    the same cells.
    """
    if not filled:
        return None
    lo, hi = bounds(filled) if box is None else box
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
    box = bounds(filled) if filled else None
    for axis, sign in facing(eye):
        spots = [_face_point(cell, axis, sign, du, dv) for du, dv in LABEL_SPOTS]
        if all(blocker(s, eye, filled, box) is None for s in spots):
            return axis, sign
    return None


def label_point(cell: Coord, eye: Sequence[float], filled: set[Coord]) -> list[float] | None:
    """Where to write the cube's number: the centre of its :func:`label_face`, or None."""
    face = label_face(cell, eye, filled)
    return None if face is None else _face_point(cell, face[0], face[1], 0.0, 0.0)


def is_visible(
    cell: Coord, eye: Sequence[float], filled: set[Coord], box: Bounds | None = None
) -> bool:
    """True when the centre of one of the cube's eye-facing faces is visible."""
    box = bounds(filled) if box is None and filled else box
    return any(
        blocker(_face_point(cell, a, s, 0.0, 0.0), eye, filled, box) is None for a, s in facing(eye)
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


# -- the display orientation -----------------------------------------------------------------
def oriented(solution: Solution, perm: Sequence[int]) -> Solution:
    return Solution(
        solution.snake, solution.region, tuple(perm[c] for c in solution.path), solution.start_class
    )


def hidden_steps(solution: Solution, camera: Camera = CAMERA) -> list[int]:
    """For each step, how many of its new cubes the camera cannot see."""
    cells = solution.cells
    eye = camera.eye
    out = []
    filled: set[Coord] = set()  # the cubes placed so far, and the box around them: grown a
    lo, hi = list(cells[0]), list(cells[0])  # step at a time (a 1,000-cube snake took seconds)
    for s in steps(solution):
        for c in cells[s.first : s.last + 1]:
            filled.add(c)
            lo, hi = (
                [min(a, b) for a, b in zip(lo, c, strict=True)],
                [max(a, b) for a, b in zip(hi, c, strict=True)],
            )
        box = (lo, [v + 1 for v in hi])
        out.append(sum(not is_visible(c, eye, filled, box) for c in cells[s.first : s.last + 1]))
    return out


def lay_flat(solution: Solution) -> Solution:
    """A one-layer solution turned (a rotation: the axes taken in cyclic order, never a
    mirror) so that its layer is horizontal, its longer side along x."""

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
        turned = oriented(solution, perm)
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
