"""The folding model: a snake's configurations, the moves between them, and swept volumes.

Exactly the model of the fold-plan issue, so that plans can be checked by independent code:

* cube k (1..n) sits at ``cells[k - 1]``, a unit cube centred on an integer point;
* a configuration is **valid** when consecutive cubes are face neighbours, no two share a
  cell, every straight cube has its neighbours on opposite sides and every corner turns 90°;
* a **move** ``(joint i, quarter_turns q)`` turns cubes i+1..n by q x 90° about the line
  through the centres of cubes i and i+1, right-handed about the direction from cube i to
  cube i+1 (counter-clockwise when that direction points at you).

Cube i+1 lies on the axis, so a move at joint i changes one thing only: the **dihedral** of
the first corner at or after cube i+1. The dihedral of corner s (between segment s and
segment s+1, for s >= 1) is the number of quarter turns, right-handed about segment s, from
segment s-1's direction to segment s+1's: 0 and 2 keep the three segments in one plane, 1
and 3 leave it. A configuration is the first two segments' directions plus the dihedrals;
cubes 1 and 2 never move, so neither does the first segment.

**Sweeps.** During a quarter turn the moving cubes swing along circular arcs. Cubes are
modelled as balls of diameter 1 centred on the cube centres: a swing is *clear* when no
moving ball comes closer than 1 (centre to centre) to a ball that stays put. Cubes on the
axis do not move. Adjacent balls touch (distance 1), which is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Vec = tuple[int, int, int]

UNITS: tuple[Vec, ...] = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def rotate(v: Vec, axis: Vec, q: int) -> Vec:
    """``v`` turned q quarter turns, right-handed, about the unit vector ``axis`` (one of
    the six directions). About +a, with (a, u, w) in cyclic order, u turns towards w."""
    a = 0 if axis[0] else 1 if axis[1] else 2
    q = (q if axis[a] > 0 else -q) % 4
    if q == 0:
        return v
    u, w = (a + 1) % 3, (a + 2) % 3
    x, y = v[u], v[w]
    x, y = ((-y, x), (-x, -y), (y, -x))[q - 1]
    out = [0, 0, 0]
    out[a], out[u], out[w] = v[a], x, y
    return (out[0], out[1], out[2])


def corners_of(lengths: Sequence[int]) -> list[int]:
    """0-based cube numbers of the corners, one per pair of segments."""
    out, at = [], 0
    for n in lengths[:-1]:
        at += n - 1
        out.append(at)
    return out


def directions_of(cells: Sequence[Vec], lengths: Sequence[int]) -> list[Vec]:
    """Each segment's direction in a configuration."""
    out, at = [], 0
    for n in lengths:
        a, b = cells[at], cells[at + 1]
        out.append((b[0] - a[0], b[1] - a[1], b[2] - a[2]))
        at += n - 1
    return out


def dihedral(before: Vec, axis: Vec, after: Vec) -> int:
    """Quarter turns, right-handed about ``axis``, from ``before`` to ``after``."""
    for q in range(4):
        if rotate(before, axis, q) == after:
            return q
    raise ValueError("the segments do not turn 90 degrees")


def dihedrals_of(cells: Sequence[Vec], lengths: Sequence[int]) -> list[int]:
    """The dihedral of every corner s >= 1 (entry 0, for the first corner, is 0)."""
    d = directions_of(cells, lengths)
    return [0] + [dihedral(d[s - 1], d[s], d[s + 1]) for s in range(1, len(d) - 1)]


def build(
    lengths: Sequence[int], start: Vec, first: Vec, second: Vec, dihedrals: Sequence[int]
) -> list[Vec]:
    """The cells of the configuration with these first two directions and dihedrals."""
    dirs = [first, second] if len(lengths) > 1 else [first]
    for s in range(1, len(lengths) - 1):
        dirs.append(rotate(dirs[s - 1], dirs[s], dihedrals[s]))
    cells = [start]
    x, y, z = start
    for n, (dx, dy, dz) in zip(lengths, dirs, strict=True):
        for _ in range(n - 1):
            x, y, z = x + dx, y + dy, z + dz
            cells.append((x, y, z))
    return cells


def is_valid(cells: Sequence[Vec]) -> bool:
    """No two cubes in one cell (the walk itself keeps turns and neighbours right)."""
    return len(set(cells)) == len(cells)


def apply_move(cells: Sequence[Vec], joint: int, q: int) -> list[Vec]:
    """The configuration after the move (joint, q): cubes joint+1..n (1-based) turned."""
    o = cells[joint - 1]
    nxt = cells[joint]
    axis = (nxt[0] - o[0], nxt[1] - o[1], nxt[2] - o[2])
    out = list(cells[:joint])
    for c in cells[joint:]:
        r = rotate((c[0] - o[0], c[1] - o[1], c[2] - o[2]), axis, q)
        out.append((o[0] + r[0], o[1] + r[1], o[2] + r[2]))
    return out


def swing_is_clear(cells: Sequence[Vec], joint: int, q: int) -> bool:
    """True when, during the quarter turn (joint, q), no moving ball comes closer than 1 to a
    ball that stays (balls of diameter 1 at the cube centres)."""
    return not near_swing(cells, joint, q, first=True)


def near_swing(
    cells: Sequence[Vec], joint: int, q: int, first: bool = False
) -> list[tuple[int, int]]:
    """The pairs (still cube, moving cube), 0-based, that come closer than 1 during the
    quarter turn (joint, q); only the first pair when ``first``.

    A moving cube at radius r sweeps a quarter circle in the plane through it square to the
    axis. A cube that stays can only come closer than 1 if it lies in that plane (centres
    are integer points) and at a radius between r - 1 and r + 1; only those are measured.
    """
    o = cells[joint - 1]
    nxt = cells[joint]
    axis = (nxt[0] - o[0], nxt[1] - o[1], nxt[2] - o[2])
    a = next(i for i in range(3) if axis[i])  # the axis is a unit vector along axis a
    u_, w_ = [i for i in range(3) if i != a]
    # In the plane, turning right-handed about +axis[a] takes (u_, w_) to (w_, -u_) when
    # (a, u_, w_) is a cyclic order and axis[a] > 0; flip for the other cases.
    turn = q * axis[a] * (1 if (u_ - a) % 3 == 1 else -1)
    still: dict[int, list[tuple[int, int, int]]] = {}
    for i, c in enumerate(cells[: joint + 1]):
        still.setdefault(c[a] - o[a], []).append((c[u_] - o[u_], c[w_] - o[w_], i))
    out: list[tuple[int, int]] = []
    for m, c in enumerate(cells[joint + 1 :], joint + 1):
        h = c[a] - o[a]
        x, y = c[u_] - o[u_], c[w_] - o[w_]
        r2 = x * x + y * y
        if r2 == 0 or h not in still:
            continue
        r = math.sqrt(r2)
        for tx, ty, i in still[h]:
            rho2 = tx * tx + ty * ty
            if rho2 <= (r - 1) ** 2 or rho2 >= (r + 1) ** 2:
                continue
            # angle of the still cube from the moving one, measured the way it turns
            cross_ = x * ty - y * tx
            phi = math.atan2(turn * cross_, x * tx + y * ty)
            if 0.0 <= phi <= math.pi / 2:
                best = 1.0  # the arc passes it at its own angle
            else:
                best = max(math.cos(phi), math.cos(phi - math.pi / 2))  # nearest end
            if rho2 + r2 - 2 * math.sqrt(rho2) * r * best < 1 - 1e-9:
                out.append((i, m))
                if first:
                    return out
    return out


def lies_flat(cells: Sequence[Vec]) -> bool:
    """Every cube has the same value of one coordinate."""
    return any(len({c[a] for c in cells}) == 1 for a in range(3))
