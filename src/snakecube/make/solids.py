"""The three pieces as solids, each in the way it lies on the print plate, built with
manifold3d (the ``make`` extra): a cube with its edges chamfered, less its channel.

How each lies, so that it prints without supports (docs/make.md):

* a **straight** lies on one of its two cord faces: its channel is upright, a plain
  polygon;
* an **end** lies on its cord face: the channel rises to the centre, and the knot's pocket
  above it opens on the top face, so nothing hangs over;
* a **corner** lies on one of its two cord faces: the channel rises LEG, bends through a
  quarter circle of radius ``bend`` and runs out of a side face. Its cross-section is a
  teardrop (its sides TEARDROP degrees from the vertical) whose point is always away from
  the bend's centre: upright it points sideways, lying flat it points up, and in between
  no surface of it faces down more steeply than TEARDROP degrees (the same profile, swept
  by ``Manifold.revolve``, is the legs' too, so the channel is one smooth surface).

The chamfers on the bottom edges face down at 45 degrees: the steepest a printer takes
without support. Rejected: rounded edges (below the equator a round faces down more steeply
than 45 degrees), a corner lying on a face with no hole (its channel then bends in a plane
across the layers, and the teardrop's point would have to turn with it).

A body is returned as arrays (``vertices`` in mm, ``faces`` as vertex indices), its centre
at x = y = 0, lying on z = 0; :mod:`snakecube.make.files` places them on the plate.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from snakecube.make.pieces import CHANNEL_SIDES, LEG, POCKET_SIDES, TEARDROP, Kind, Settings

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Body", "body"]

BEND_SEGMENTS = 64  # the bend's segments for a whole turn (16 for its quarter)


@dataclass(frozen=True, slots=True)
class Body:
    """A watertight triangle mesh: ``vertices`` (n x 3, mm) and ``faces`` (m x 3)."""

    vertices: np.ndarray
    faces: np.ndarray


@functools.lru_cache(maxsize=16)
def body(kind: Kind, settings: Settings) -> Body:
    """Piece ``kind`` as ``settings`` make it, lying as it prints."""
    import numpy as np

    solid = _cube(settings) - _channel(kind, settings)
    mesh = solid.to_mesh()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    faces = np.asarray(mesh.tri_verts, dtype=np.int64)
    vertices.setflags(write=False)
    faces.setflags(write=False)
    return Body(vertices, faces)


def _m3() -> Any:
    import manifold3d

    return manifold3d


def _polygon(radius: float, sides: int) -> list[tuple[float, float]]:
    """A regular polygon with a corner on +x (and, for a multiple of 8 sides, at 45
    degrees), its corners ``radius`` from the centre."""
    return [
        (radius * math.cos(2 * math.pi * k / sides), radius * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    ]


def _cube(s: Settings) -> Any:
    """The cube with every edge chamfered: the cube met with three square prisms turned 45
    degrees, one along each axis, each cutting ``chamfer`` off its four edges."""
    m3 = _m3()
    side = s.size
    solid = m3.Manifold.cube((side, side, side), True)
    diamond = m3.CrossSection.square(((side - s.chamfer) * math.sqrt(2),) * 2, True).rotate(45)
    prism = m3.Manifold.extrude(diamond, 2 * side).translate((0, 0, -side))
    for turn in ((0, 0, 0), (0, 90, 0), (90, 0, 0)):
        solid = solid ^ prism.rotate(turn)
    return solid.translate((0, 0, side / 2))


def _teardrop(s: Settings) -> Any:
    """The channel's cross-section: its polygon and a point at +y, the sides from the point
    TEARDROP degrees from the vertical."""
    m3 = _m3()
    r = s.channel_radius
    tip = (0.0, r / math.sin(math.radians(TEARDROP)))  # its sides tangent to the polygon
    return m3.CrossSection.hull_points([*_polygon(r, CHANNEL_SIDES), tip])


def _channel(kind: Kind, s: Settings) -> Any:
    """The hole of piece ``kind``, in the cube lying on z = 0 (its cord face down)."""
    m3 = _m3()
    side = s.size
    ring = m3.CrossSection([_polygon(s.channel_radius, CHANNEL_SIDES)])
    if kind is Kind.STRAIGHT:
        return m3.Manifold.extrude(ring, side + 2).translate((0, 0, -1))
    if kind is Kind.END:
        up = m3.Manifold.extrude(ring, side / 2 + 1).translate((0, 0, -1))
        wide = s.pocket / 2 / math.cos(math.pi / POCKET_SIDES)
        pocket = m3.Manifold.extrude(m3.CrossSection([_polygon(wide, POCKET_SIDES)]), side / 2 + 1)
        return up + pocket.translate((0, 0, side - s.pocket_depth))
    # a corner: up LEG from the bottom face, a quarter bend, out through the +x face
    tear, bend = _teardrop(s), s.bend
    rise = m3.Manifold.extrude(tear.rotate(90), LEG + 1).translate((0, 0, -1))  # point at -x
    # the bend: the profile (its point away from the axis) swept a quarter turn about the
    # y axis through (bend, 0, LEG), from the top of the rise to the start of the run
    swept = m3.Manifold.revolve(tear.rotate(-90).translate((bend, 0)), BEND_SEGMENTS, 90)
    swept = swept.transform([[-1, 0, 0, bend], [0, 0, 1, 0], [0, 1, 0, LEG]])
    run = m3.Manifold.extrude(tear, LEG + 1)  # along z, point at +y: turned to +x, point up
    run = run.transform([[0, 0, 1, bend], [1, 0, 0, 0], [0, 1, 0, side / 2]])
    return rise + swept + run
