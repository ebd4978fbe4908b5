"""An independent reader of `snakecube make`'s 3MF files: trimesh and its own ray casts only,
no snakecube code. It finds each body's cord faces as a maker would, by looking into each
face for a hole, and spells the pieces' E/S/C string from them.

Run as a script on a first plate's file: ``python tests/makecheck.py F.3mf [SIZE]``.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import trimesh

DEPTHS = (1.0, 2.0)  # mm in from a face, where the cord's line must be clear
SIDES = 32  # the polygon that must pass there


def clear(cord: float) -> float:
    """No material within this of the cord's line: 1.45 mm for a 2.5 mm cord (the 0.4 mm
    of clearance on the diameter the issue asks for, measured to the polygon's flats)."""
    return cord / 2 + 0.2


def pocket(cord: float) -> float:
    """A hole this wide (radius) 1 mm in is a knot's pocket, not a channel: three cords."""
    return cord + 0.3


@dataclass(frozen=True)
class Piece:
    name: str
    number: int
    mesh: trimesh.Trimesh
    cord_faces: tuple[tuple[int, int], ...]  # (axis, sign) of each face the cord leaves by
    pockets: tuple[tuple[int, int], ...]

    @property
    def letter(self) -> str:
        faces = self.cord_faces
        if len(faces) == 1:
            return "E"
        if len(faces) == 2:
            (a1, _s1), (a2, _s2) = faces
            if a1 == a2:  # opposite faces: a straight, or an end whose pocket opens
                return "E" if self.pockets else "S"
            return "C"
        return "?"


def plate_files(first: Path) -> list[Path]:
    """F.3mf, then F-2.3mf, F-3.3mf... as far as they go."""
    out = [first]
    k = 2
    while (more := first.with_name(f"{first.stem}-{k}{first.suffix}")).exists():
        out.append(more)
        k += 1
    return out


def bodies(first: Path) -> list[tuple[str, trimesh.Trimesh]]:
    """Every body of every plate, placed, with its name."""
    out = []
    for path in plate_files(first):
        scene = trimesh.load(str(path), force="scene")
        for node in scene.graph.nodes_geometry:
            transform, name = scene.graph[node]
            mesh = scene.geometry[name].copy()
            mesh.apply_transform(transform)
            out.append((name, mesh))
    return out


def _ring(centre: np.ndarray, axis: int, radius: float) -> list[np.ndarray]:
    """``centre`` and a SIDES-gon of ``radius`` round it, across ``axis``."""
    u, v = [np.eye(3)[a] for a in range(3) if a != axis]
    return [centre] + [
        centre + radius * (math.cos(t) * u + math.sin(t) * v)
        for t in np.linspace(0, 2 * math.pi, SIDES, endpoint=False)
    ]


OUTSIDE = 0.5  # mm: the rays start this far outside the face


def piece(name: str, mesh: trimesh.Trimesh, cord: float = 2.5) -> Piece:
    """A body as a maker sees it: the faces with a hole the cord passes, and those whose hole
    is a knot's pocket. Rays go in square to each face from just outside it, from its middle
    and from a SIDES-gon round the middle: a face the cord leaves by is one where none of the
    rays at radius :func:`clear` meets material before the deepest of DEPTHS; its hole is a
    pocket where none at radius :func:`pocket` meets any before 1 mm in."""
    lo, hi = mesh.bounds
    middle = (lo + hi) / 2
    origins, directions, reach, tags = [], [], [], []
    for axis in range(3):
        for sign in (-1, 1):
            face = middle.copy()
            face[axis] = (hi[axis] if sign > 0 else lo[axis]) + sign * OUTSIDE
            inward = -sign * np.eye(3)[axis]
            for what, radius, depth in (
                ("cord", clear(cord), max(DEPTHS)),
                ("pocket", pocket(cord), 1.0),
            ):
                for point in _ring(face, axis, radius):
                    origins.append(point)
                    directions.append(inward)
                    reach.append(OUTSIDE + depth)
                    tags.append(((axis, sign), what))
    hits, rays, _ = mesh.ray.intersects_location(np.array(origins), np.array(directions))
    blocked = set()
    for hit, ray in zip(hits, rays, strict=True):
        if np.linalg.norm(hit - origins[ray]) < reach[ray]:
            blocked.add(tags[ray])
    faces = [f for f in ((a, s) for a in range(3) for s in (-1, 1)) if (f, "cord") not in blocked]
    pockets = [f for f in faces if (f, "pocket") not in blocked]
    found = re.fullmatch(r"cube (\d+)", name)
    return Piece(name, int(found[1]) if found else -1, mesh, tuple(faces), tuple(pockets))


def solid_grid(mesh: trimesh.Trimesh, step: float) -> tuple[np.ndarray, np.ndarray]:
    """The body as a grid of ``step`` mm in its box (True: material), found by casting a ray
    up each column of the grid and counting the surfaces it crosses below each point; and
    the grid's points."""
    lo, hi = mesh.bounds
    axes = [np.arange(lo[k] + step / 2, hi[k], step) for k in range(3)]
    xs, ys = np.meshgrid(axes[0], axes[1], indexing="ij")
    origins = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, lo[2] - 1.0)], axis=1)
    ups = np.tile([0.0, 0.0, 1.0], (len(origins), 1))
    hits, rays, _ = mesh.ray.intersects_location(origins, ups, multiple_hits=True)
    below = np.zeros((len(origins), len(axes[2])), dtype=int)
    for hit, ray in zip(hits, rays, strict=True):
        below[ray] += axes[2] > hit[2]
    solid = (below % 2 == 1).reshape(len(axes[0]), len(axes[1]), len(axes[2]))
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
    return solid, grid


def passage(
    mesh: trimesh.Trimesh, a: tuple[int, int], b: tuple[int, int], radius: float, step: float = 0.4
) -> bool:
    """Whether a cord of ``radius`` passes inside the body from face ``a`` to face ``b``
    (each (axis, sign)): a walk through the points of a grid of ``step`` mm with no
    material within ``radius`` (on the grid), from the layer of points at face ``a`` to
    the one at face ``b``, from each point to its 26 neighbours."""
    solid, _ = solid_grid(mesh, step)
    reach = int(radius // step)
    padded = np.pad(solid, reach + 1)  # outside the box: no material (and nothing wraps)
    near = np.zeros_like(padded)
    for dx in range(-reach, reach + 1):  # material within the ball of ``radius``
        for dy in range(-reach, reach + 1):
            for dz in range(-reach, reach + 1):
                if dx * dx + dy * dy + dz * dz <= (radius / step) ** 2:
                    near |= np.roll(padded, (dx, dy, dz), axis=(0, 1, 2))
    inner = (slice(reach + 1, -(reach + 1)),) * 3
    free = ~near[inner]

    def layer(face: tuple[int, int]) -> np.ndarray:
        axis, sign = face
        index: list[Any] = [slice(None)] * 3
        index[axis] = -1 if sign > 0 else 0
        mask = np.zeros(free.shape, dtype=bool)
        mask[tuple(index)] = True
        return mask & free

    seen, goal = layer(a), layer(b)
    frontier = seen.copy()
    while frontier.any() and not (seen & goal).any():
        grown = np.zeros_like(frontier)
        wide = np.pad(frontier, 1)
        for shift in np.ndindex(3, 3, 3):
            grown |= np.roll(wide, tuple(d - 1 for d in shift), axis=(0, 1, 2))[1:-1, 1:-1, 1:-1]
        frontier = grown & free & ~seen
        seen |= frontier
    return bool((seen & goal).any())


def problems(first: Path, expected: str, size: float = 20.0) -> list[str]:
    """What is wrong with the plates from ``first`` against the E/S/C string ``expected``."""
    out = []
    read = bodies(first)
    names = [n for n, _ in read]
    want = [f"cube {k}" for k in range(1, len(expected) + 1)]
    if sorted(names, key=lambda n: (len(n), n)) != want:
        return [f"bodies {names[:5]}... are not cube 1 to cube {len(expected)}"]
    pieces = sorted((piece(n, m) for n, m in read), key=lambda p: p.number)
    for p in pieces:
        m = p.mesh
        ext = m.extents
        if not (m.is_watertight and m.is_volume):
            out.append(f"{p.name}: not watertight")
        if not all(0.85 * size <= e <= 1.025 * size for e in ext):
            out.append(f"{p.name}: extents {ext.round(2)} not {0.85 * size:g}-{1.025 * size:g}")
        share = m.volume / size**3
        if not 0.6 <= share <= 1.0:
            out.append(f"{p.name}: {share:.0%} of the cube's volume")
        on_plate = m.area_faces[(np.abs(m.triangles[:, :, 2] - m.bounds[0][2]) < 1e-4).all(1)]
        if abs(m.bounds[0][2]) > 1e-4 or on_plate.sum() < 0.5 * size**2:
            out.append(f"{p.name}: does not lie on a face on the plate")
    spelled = "".join(p.letter for p in pieces)
    if spelled != expected:
        out.append(f"the cord's faces spell {spelled}, not {expected}")
    return out


def overhangs(mesh: trimesh.Trimesh, bridge: float, tolerance: float = 0.5) -> list[str]:
    """The down-facing triangles of ``mesh`` (as it lies to print) steeper than 45 degrees
    from the vertical, except on the plate, or flat as a bridge no wider than ``bridge``."""
    floor = mesh.bounds[0][2]
    normals = mesh.face_normals
    limit = -math.cos(math.radians(45 - tolerance))
    out = []
    flat: dict[float, list[np.ndarray]] = {}  # flat down-facing triangles by their height
    for k in np.flatnonzero(normals[:, 2] < limit):
        tri = mesh.triangles[k]
        if (np.abs(tri[:, 2] - floor) < 1e-4).all():
            continue  # on the plate
        if normals[k, 2] < -0.999:
            flat.setdefault(round(float(tri[:, 2].mean()), 3), []).append(tri)
            continue
        angle = math.degrees(math.acos(-normals[k, 2]))
        out.append(f"a face {angle:.1f} degrees from straight down at {tri.mean(0).round(2)}")
    for z, tris in flat.items():  # a bridge: the flat faces at one height, narrow one way
        points = np.concatenate(tris)[:, :2]
        width = (points.max(axis=0) - points.min(axis=0)).min()
        if width > bridge:
            out.append(f"a flat overhang {width:.2f} mm wide at height {z}")
    return out


if __name__ == "__main__":
    path = Path(sys.argv[1])
    size = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    for name, mesh in bodies(path):
        p = piece(name, mesh)
        print(name, p.letter, p.cord_faces, "pocket" if p.pockets else "")
