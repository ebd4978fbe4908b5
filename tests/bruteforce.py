"""Independent brute force for tiny boxes: every directed Hamiltonian path, cell by cell.

Nothing here uses snakecube: paths, designs (segment lengths) and symmetry classes are all
computed from plain coordinates, so agreement with the solver is a real cross-check.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

Coord = tuple[int, int, int]


def box_cells(a: int, b: int, c: int) -> list[Coord]:
    return [(x, y, z) for x in range(a) for y in range(b) for z in range(c)]


def hamiltonian_paths(cells: list[Coord]) -> list[tuple[Coord, ...]]:
    """Every directed Hamiltonian path of the grid graph on these cells."""
    inside = set(cells)
    out: list[tuple[Coord, ...]] = []
    path: list[Coord] = []
    used: set[Coord] = set()

    def walk(at: Coord) -> None:
        if len(path) == len(cells):
            out.append(tuple(path))
            return
        x, y, z = at
        for n in (
            (x + 1, y, z),
            (x - 1, y, z),
            (x, y + 1, z),
            (x, y - 1, z),
            (x, y, z + 1),
            (x, y, z - 1),
        ):
            if n in inside and n not in used:
                used.add(n)
                path.append(n)
                walk(n)
                path.pop()
                used.discard(n)

    for s in cells:
        used.add(s)
        path.append(s)
        walk(s)
        path.pop()
        used.discard(s)
    return out


def lengths_of(path: tuple[Coord, ...]) -> tuple[int, ...]:
    """Segment lengths: runs of equal steps, each corner counted in both runs."""
    steps = [tuple(q[i] - p[i] for i in range(3)) for p, q in itertools.pairwise(path)]
    out, run = [], 2
    for s, t in itertools.pairwise(steps):
        if s == t:
            run += 1
        else:
            out.append(run)
            run = 2
    out.append(run)
    return tuple(out)


def maps_of(cells: list[Coord]) -> list[dict[Coord, Coord]]:
    """The coordinate maps (signed axis permutations, then a shift back to the origin) that
    send the cells onto themselves, each distinct map once."""
    cellset = set(cells)
    maps = []
    for perm in itertools.permutations(range(3)):
        for sign in itertools.product((1, -1), repeat=3):
            image = {p: tuple(sign[i] * p[perm[i]] for i in range(3)) for p in cells}
            shift = [min(q[i] for q in image.values()) for i in range(3)]
            m = {p: tuple(q[i] - shift[i] for i in range(3)) for p, q in image.items()}
            if set(m.values()) == cellset and m not in maps:
                maps.append(m)
    return maps


def canonical(path: tuple[Coord, ...], maps: list[dict[Coord, Coord]]) -> tuple[Coord, ...]:
    return min(tuple(m[p] for p in path) for m in maps)


def census_of(cells: list[Coord]):
    """design -> [number of directed paths, set of canonical forms up to symmetry]."""
    maps = maps_of(cells)
    by_design: dict[tuple[int, ...], list] = defaultdict(lambda: [0, set()])
    for p in hamiltonian_paths(cells):
        entry = by_design[lengths_of(p)]
        entry[0] += 1
        entry[1].add(canonical(p, maps))
    return by_design, maps


def census(a: int, b: int, c: int):
    """census_of the a x b x c box."""
    return census_of(box_cells(a, b, c))


def solutions_by_design(a: int, b: int, c: int):
    """design (the smaller of it and its reverse) -> distinct solutions up to symmetry and
    reversal, and the number of directed paths, from every path of the a x b x c box."""
    by_design, maps = census(a, b, c)
    out, paths = {}, 0
    for lengths, (n, classes) in by_design.items():
        paths += n
        key = min(lengths, lengths[::-1])
        if lengths == lengths[::-1]:
            out[key] = len({min(p, canonical(p[::-1], maps)) for p in classes})
        else:
            out[key] = len(classes)
    return out, paths


def solutions_by_design_of(cells: list[Coord]):
    """design (the smaller of it and its reverse) -> distinct solutions up to symmetry and
    reversal, from every directed Hamiltonian path of ``cells`` (any region)."""
    by_design, maps = census_of(cells)
    out = {}
    for lengths, (_n, classes) in by_design.items():
        key = min(lengths, lengths[::-1])
        if lengths == lengths[::-1]:
            out[key] = len({min(p, canonical(p[::-1], maps)) for p in classes})
        else:
            out[key] = len(classes)
    return out


def common_designs(regions: list[list[Coord]]):
    """design -> (its distinct solutions in each region, in order), for the designs that
    fold into every one of ``regions``, each region's designs from every Hamiltonian path."""
    each = [solutions_by_design_of(cells) for cells in regions]
    keys = set.intersection(*(set(d) for d in each))
    return {k: tuple(d[k] for d in each) for k in keys}


def folds(lengths: tuple[int, ...], cells: list[Coord]) -> int:
    """The distinct solutions (up to the cells' symmetries and reversal) of the snake with
    these segment lengths in ``cells``: every placement, one segment at a time, in plain
    coordinates."""
    inside = set(cells)
    maps = maps_of(cells)
    steps = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    found: set[tuple[Coord, ...]] = set()
    path: list[Coord] = []
    free = set(cells)

    def place(k: int, last: tuple[int, int, int] | None) -> None:
        if k == len(lengths):
            if not free:
                p = tuple(path)
                found.add(min(canonical(p, maps), canonical(p[::-1], maps)))
            return
        x, y, z = path[-1]
        for step in steps:
            if last is not None and (step == last or step == (-last[0], -last[1], -last[2])):
                continue  # a corner turns 90 degrees
            dx, dy, dz = step
            added = [(x + j * dx, y + j * dy, z + j * dz) for j in range(1, lengths[k])]
            if all(c in free for c in added):
                path.extend(added)
                free.difference_update(added)
                place(k + 1, step)
                free.update(added)
                del path[len(path) - len(added) :]

    for start in cells:
        path.append(start)
        free.discard(start)
        place(0, None)
        free.add(start)
        path.pop()
    assert inside == free
    return len(found)
