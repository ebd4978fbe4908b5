"""A view projected onto the page: what a flat renderer draws, in the order it paints it.

``explain.scene`` decides what a picture shows (which cubes, colours, numbers, arrows, the
camera); this module turns one view of it into plain 2D shapes with no drawing library:
polygons and lines in paint order (far to near: exact for unit cubes on a grid seen
orthographically), the numbers on top, each on a face of its own cube, and the rectangle
that holds everything drawn. The matplotlib renderer (``explain.pictures``) only draws these
shapes, and the tests check them with their own geometry (tests/test_pictures.py): every
number lies on a face of its own cube that no shape painted after that cube covers, and every
cube lies inside its picture.

Page coordinates are cube widths: x to the right, y up (``Camera.screen``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from snakecube.frame import CUBE_EDGES, LABEL_SPOTS, Camera, corners, facing
from snakecube.vector import dot

Point = tuple[float, float]
Point3 = tuple[float, float, float]

# Light on the faces across x, y and z (the top is brightest): the same in every renderer.
FACE_SHADE = (0.78, 0.64, 1.0)
EDGE = "#333333"
PAD = 0.25  # cube widths of white round everything drawn
SEAM = "#111111"  # a plan step's joint: the seam between its two cubes


@dataclass(frozen=True, slots=True)
class Shape:
    """One thing painted: a filled polygon (``fill``), or lines through ``points`` (no fill;
    ``closed`` for an outline). ``cube`` is the cube it belongs to, -1 for none; ``width``
    is in units of a cube edge's line."""

    points: tuple[Point, ...]
    fill: str = ""
    stroke: str = EDGE
    width: float = 1.0
    dash: str = ""  # "", "dotted", "dashed" or "dashdot"
    closed: bool = True
    cube: int = -1
    alpha: float = 1.0  # below 1: see-through (it hides nothing)


@dataclass(frozen=True, slots=True)
class Label:
    """A cube's number, written at ``at`` on the face ``face`` (axis, sign) of its own cube;
    ``spots`` are the face's label area (its centre and four points round it) on the page."""

    cube: int
    text: str
    at: Point
    spots: tuple[Point, ...]
    face: tuple[int, int]
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """Words written on a picture at ``at`` (a pointer's label), ``align`` "left" (the words
    start there) or "right" (they end there)."""

    at: Point
    text: str
    align: str = "left"


@dataclass(frozen=True, slots=True)
class Drawing:
    """One picture: ``shapes`` in paint order (far first), then the ``labels`` on top;
    ``bounds`` (left, bottom, right, top) holds everything drawn, with a margin; ``order``
    gives, for each cube drawn solid, the index in ``shapes`` of its first face."""

    shapes: tuple[Shape, ...]
    labels: tuple[Label, ...]
    bounds: tuple[float, float, float, float]
    order: dict[int, int]
    caption: str = ""
    notes: tuple[Note, ...] = ()  # words on the picture: the pointers' labels

    @property
    def width(self) -> float:
        return self.bounds[2] - self.bounds[0]

    @property
    def height(self) -> float:
        return self.bounds[3] - self.bounds[1]


@dataclass(frozen=True, slots=True)
class Cube:
    """A cube to draw: its cell, how (``solid``, ``ghost``: see-through, ``cut``: dotted
    edges, ``tail``: dashed edges, drawn under everything), its colour, and an outline colour
    to mark it ("")."""

    cube: int
    cell: tuple[int, int, int]
    kind: str = "solid"
    colour: str = "#7a4a22"
    mark: str = ""
    seam: tuple[int, float] | None = None  # a joint on this cube: axis across it, where
    pattern: str = ""  # "hatch": lines across its faces, so it reads apart in grey too;
    # "ring": its mark drawn twice, one ring inside the other (the end held, on the start)


def shade(colour: str, k: float) -> str:
    """``colour`` (#rrggbb) lit by ``k`` (0..1: darker), as #rrggbb."""
    v = int(colour[1:], 16)
    rgb = [min(255, round(((v >> s) & 255) * k)) for s in (16, 8, 0)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def basis(camera: Camera) -> tuple[Point3, Point3]:
    """The page's right and up as vectors of the table frame."""
    ex, ey, ez = camera.eye
    norm = math.hypot(ex, ey) or 1.0
    right = (-ey / norm, ex / norm, 0.0)
    up = (
        ey * right[2] - ez * right[1],
        ez * right[0] - ex * right[2],
        ex * right[1] - ey * right[0],
    )
    return right, up


Projector = Callable[[Sequence[float]], Point]


@functools.lru_cache(maxsize=256)
def projector(camera: Camera) -> Projector:
    """A function from a point of the table frame to its place on the page (one per camera:
    a plan's pictures ask for it some 15,000 times)."""
    (rx, ry, rz), (ux, uy, uz) = basis(camera)

    def project(p: Sequence[float]) -> Point:
        x, y, z = p[0], p[1], p[2]
        return (x * rx + y * ry + z * rz, x * ux + y * uy + z * uz)

    return project


def face_quad(cell: Sequence[int], axis: int, sign: int) -> list[Point3]:
    """The four corners of a cube's face (axis, sign), in order round it."""
    fixed = cell[axis] + (1 if sign > 0 else 0)
    u, v = [a for a in range(3) if a != axis]
    quad = []
    for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
        p = [0.0, 0.0, 0.0]
        p[axis], p[u], p[v] = fixed, cell[u] + du, cell[v] + dv
        quad.append((p[0], p[1], p[2]))
    return quad


def face_spots(point: Sequence[float], axis: int) -> list[Point3]:
    """The label area round a point on a face across ``axis``: the point and four around."""
    u, v = [a for a in range(3) if a != axis]
    out = []
    for du, dv in LABEL_SPOTS:
        p = [float(point[0]), float(point[1]), float(point[2])]
        p[u] += du
        p[v] += dv
        out.append((p[0], p[1], p[2]))
    return out


def face_of(cell: Sequence[int], point: Sequence[float]) -> tuple[int, int]:
    """The face (axis, sign) of the cube at ``cell`` that ``point`` lies on."""
    for a in range(3):
        if abs(point[a] - cell[a] - 1) < 1e-6:
            return a, 1
        if abs(point[a] - cell[a]) < 1e-6:
            return a, -1
    raise ValueError(f"{tuple(point)} is not on a face of the cube at {tuple(cell)}")


def silhouette(cell: Sequence[int], camera: Camera) -> tuple[Point, ...]:
    """The eight corners of a cube on the page."""
    return _silhouette((cell[0], cell[1], cell[2]), camera)


@functools.lru_cache(maxsize=1 << 12)  # about 5 MB when full
def _silhouette(cell: tuple[int, int, int], camera: Camera) -> tuple[Point, ...]:
    """:func:`silhouette`, kept: a step's pictures try the same cubes in several cameras, and
    the steps of a plan share most of their cubes' places."""
    project = projector(camera)
    return tuple(project(c) for c in corners(cell))


def box_of(points: Iterable[Point], pad: float = 0.0) -> tuple[float, float, float, float]:
    pts = list(points)
    return (
        min(p[0] for p in pts) - pad,
        min(p[1] for p in pts) - pad,
        max(p[0] for p in pts) + pad,
        max(p[1] for p in pts) + pad,
    )


def inside(points: Iterable[Point], window: Sequence[float]) -> bool:
    """True when every point lies in the rectangle (left, bottom, right, top)."""
    x0, y0, x1, y1 = window
    eps = 1e-9
    return all(x0 - eps <= x <= x1 + eps and y0 - eps <= y <= y1 + eps for x, y in points)


def draw(
    camera: Camera,
    cubes: Sequence[Cube],
    labels: Mapping[int, Sequence[float]],
    *,
    bold: Iterable[int] = (),
    under: Sequence[tuple[Sequence[Sequence[float]], str, float, str]] = (),
    lines: Sequence[tuple[Sequence[Sequence[float]], str, float, str]] = (),
    arrows: Sequence[tuple[Sequence[Sequence[float]], str]] = (),
    window: Sequence[float] | None = None,
    caption: str = "",
    outline: Sequence[float] | None = None,
    halo: bool = False,
    pointers: Sequence[tuple[Point, Point, str, str]] = (),
) -> Drawing:
    """The drawing of ``cubes`` seen by ``camera``: tails and lines under everything, cubes
    far to near (each solid one's three faces that look towards the eye, then its mark),
    the ``lines`` (points, colour, width, dash; ``under``: beneath everything) and
    ``arrows`` (points, colour; in a white ``halo`` if asked) on top, a rectangle of the page
    (left, bottom, right, top) dashed on top when ``outline`` is given (a close-up's window
    on an overview), and the numbers: ``labels`` maps a cube to the point on its face where
    its number goes. ``window`` (left, bottom, right, top) fixes the picture's rectangle;
    otherwise it holds everything drawn. ``pointers`` (tail, tip, words, align; page
    points) are thin arrows in a white halo with their words at the tail: a cube to count
    from, or the way to a cube off the picture."""
    eye = camera.eye
    project = projector(camera)
    faces = facing(eye)
    shapes: list[Shape] = []
    order: dict[int, int] = {}
    for points, colour, width, dash in under:
        shapes.append(Shape(tuple(project(p) for p in points), "", colour, width, dash, False))
    for c in cubes:
        if c.kind == "tail":
            shapes.extend(_edges(c, project, c.colour, 0.8, "dashed"))
    for c in cubes:  # cut away: under every solid cube, so no dotted line crosses one
        if c.kind == "cut":
            shapes.extend(_edges(c, project, "#999999", 0.7, "dotted"))
    near = sorted(
        (c for c in cubes if c.kind != "tail"),
        key=lambda c: dot((c.cell[0] + 0.5, c.cell[1] + 0.5, c.cell[2] + 0.5), eye),
    )
    for c in near:
        if c.kind == "cut":
            continue
        if c.kind == "solid":
            order[c.cube] = len(shapes)
        shapes += _cube_shapes(c, faces, project)
    for points, colour, width, dash in lines:
        shapes.append(Shape(tuple(project(p) for p in points), "", colour, width, dash, False))
    for points, colour in arrows:
        shapes.extend(arrow_shapes([project(p) for p in points], colour, halo))
    notes = []
    for tail, tip, words, align in pointers:
        shapes.extend(arrow_shapes([tail, tip], POINTER, True, 2.5))
        notes.append(Note(tail, words, align))
    if outline is not None:
        x0, y0, x1, y1 = outline
        corners_2d = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        shapes.append(Shape(corners_2d, "", OUTLINE, 2.0, "dashed", True))
    bold_set = set(bold)
    where = {c.cube: c.cell for c in cubes if c.kind == "solid"}
    out_labels = []
    for i, point in labels.items():
        face = face_of(where[i], point)
        spots = tuple(project(p) for p in face_spots(point, face[0]))
        out_labels.append(Label(i, str(i + 1), project(point), spots, face, i in bold_set))
    if window is None:
        drawn = [p for s in shapes for p in s.points]
        bounds = box_of(drawn, PAD) if drawn else (0.0, 0.0, 1.0, 1.0)
    else:
        bounds = (window[0], window[1], window[2], window[3])
    return Drawing(tuple(shapes), tuple(out_labels), bounds, order, caption, tuple(notes))


def _cube_shapes(c: Cube, faces: Sequence[tuple[int, int]], project: Projector) -> list[Shape]:
    """One cube's shapes, far to near with the others: its faces that look towards the eye,
    a see-through cube's hatching, its mark and its seam."""
    out: list[Shape] = []
    alpha = GHOST_ALPHA if c.kind == "ghost" else 1.0
    for axis, sign in faces:
        quad = tuple(project(p) for p in face_quad(c.cell, axis, sign))
        fill = shade(c.colour, FACE_SHADE[axis])
        out.append(Shape(quad, fill, EDGE, 1.0, cube=c.cube, alpha=alpha))
    if c.pattern == "hatch" and c.kind == "solid":  # see-through: tinted, no lines
        for axis, sign in faces:
            out.extend(_hatch(c, face_quad(c.cell, axis, sign), project))
    if c.mark:  # inside the faces' edges, so the next cubes' edges leave it whole
        for axis, sign in faces:
            ring = [project(p) for p in face_quad(c.cell, axis, sign)]
            mx, my = sum(q[0] for q in ring) / 4, sum(q[1] for q in ring) / 4
            for k in (0.88, 0.66) if c.pattern == "ring" else (0.88,):  # "ring": two
                inset = tuple((mx + (q[0] - mx) * k, my + (q[1] - my) * k) for q in ring)
                out.append(Shape(inset, "", c.mark, 3.0, cube=c.cube))
    if c.seam is not None:
        axis, at = c.seam
        for a, sign in faces:
            if a == axis:
                continue
            edge = [p for p in face_quad(c.cell, a, sign) if abs(p[axis] - at) < 1e-9]
            if len(edge) == 2:
                pts = (project(edge[0]), project(edge[1]))
                out.append(Shape(pts, "", SEAM, 5.0, "", False, c.cube))
    return out


def _edges(c: Cube, project: Projector, colour: str, width: float, dash: str) -> list[Shape]:
    k = corners(c.cell)
    return [
        Shape((project(k[a]), project(k[b])), "", colour, width, dash, False, c.cube)
        for a, b in CUBE_EDGES
    ]


HEAD = 0.42  # an arrowhead's length, in cube widths
HALO = "#ffffff"  # round a plan's arrow, so that it reads over any cube, in grey too
GHOST_ALPHA = 0.3  # a see-through cube's faces: a cube that turns, in front of the joint
HATCH = "#0b3558"  # a hatched cube's lines
HATCH_LINES = 4  # lines across a hatched face
OUTLINE = "#222222"  # a close-up's window on an overview
POINTER = "#0d3b8c"  # a pointer's arrow: dark blue, thin, in a white halo


def _hatch(c: Cube, quad: Sequence[Point3], project: Projector) -> list[Shape]:
    """Lines across one face of a cube, parallel to a diagonal of it (a pattern that reads
    in grey)."""
    p0, p1, _, p3 = (project(q) for q in quad)
    out = []
    for k in range(1, 2 * HATCH_LINES):
        t = k / HATCH_LINES  # the line u + v = t across the face, u and v in [0, 1]
        a = (t, 0.0) if t <= 1 else (1.0, t - 1)
        b = (0.0, t) if t <= 1 else (t - 1, 1.0)
        ends = tuple(
            (
                p0[0] + (p1[0] - p0[0]) * u + (p3[0] - p0[0]) * v,
                p0[1] + (p1[1] - p0[1]) * u + (p3[1] - p0[1]) * v,
            )
            for u, v in (a, b)
        )
        out.append(Shape(ends, "", HATCH, 0.8, "", False, c.cube))
    return out


def arrow_shapes(
    points: Sequence[Point], colour: str, halo: bool = False, width: float = 4.5
) -> list[Shape]:
    """An arrow along ``points`` on the page: the line (``width``, stopping short of the
    tip) and a filled head at the last point; with ``halo``, each drawn first wider in
    white."""
    if len(points) < 2:
        return []
    tip = points[-1]
    back = points[-2]
    k = len(points) - 2
    while k > 0 and math.dist(points[k], tip) < HEAD:  # aim the head along the last HEAD
        k -= 1
        back = points[k]
    dx, dy = tip[0] - back[0], tip[1] - back[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * HEAD, tip[1] - uy * HEAD)
    head = (
        tip,
        (base[0] - uy * HEAD * 0.45, base[1] + ux * HEAD * 0.45),
        (base[0] + uy * HEAD * 0.45, base[1] - ux * HEAD * 0.45),
    )
    line = [p for p in points[:-1] if math.dist(p, tip) >= HEAD * 0.8] or [points[0]]
    line.append((tip[0] - ux * HEAD * 0.8, tip[1] - uy * HEAD * 0.8))
    out = [
        Shape(tuple(line), "", colour, width, "", False),
        Shape(head, colour, colour, 1.0),
    ]
    if halo:
        out = [
            Shape(tuple(line), "", HALO, 2 * width, "", False),
            Shape(head, HALO, HALO, 5.0),
            *out,
        ]
    return out
