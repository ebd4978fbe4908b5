"""Which of many designs fold into a target: one walk over the target's Hamiltonian paths,
guided by the designs, instead of one search per design.

The designs are a **table**: their keys in *path order* (cube i's turn, i = 1..n-2 from the
first cube, at bit n-2-i), sorted, so the designs that begin with one turn string are a range
of it, a node of a trie that costs no memory beyond the keys. Each design is in the table
once, read from one end: a design folds if and only if some Hamiltonian path has it read
from its first cell, so one end is enough, and the walk over every path class (the census's
units, one prefix per class of the target's symmetries) meets it if it folds.

The walk is the census's path loop (its dead-end and split cuts) with two more: a step
whose turn string no design of the table begins with is not taken, and neither is one
whose designs are all found already (``alive``, a Fenwick tree of the designs not found
yet). Designs that share a beginning share the work of it, and a design costs nothing
after its first path. What the walk answers does not depend on the order of the units or
on which designs were found before: a design is found if and only if it has a path.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from snakecube import compiled
from snakecube.census.reduce import reverse_keys
from snakecube.census.units import Prefix, ring_masks, splits, stranded
from snakecube.shape import Region

SLICE_NODES = 1_000_000  # nodes per call of the compiled loop: well under 0.1 s
BATCH = 1 << 12  # designs found per call at most


def path_order(keys: Any, cells: int) -> Any:
    """Canonical design keys (bit i-1 = cube i turns) as keys in path order, sorted: the
    table. Each design is read from the end its canonical key names first."""
    return np.sort(reverse_keys(np.asarray(keys, np.uint64), cells - 2))


def canonical(table_keys: Any, cells: int) -> Any:
    """Keys in path order back to canonical design keys (the smaller of the design's key
    and its reverse's)."""
    keys = reverse_keys(np.asarray(table_keys, np.uint64), cells - 2)
    return np.minimum(keys, reverse_keys(keys, cells - 2))


def fenwick(alive: Any) -> Any:
    """The Fenwick tree (int32) of ``alive`` (0 or 1 per design): entry k-1 holds the sum of
    alive[k - (k & -k) : k]."""
    counts = np.asarray(alive, np.int64)
    prefix = np.concatenate(([0], np.cumsum(counts)))
    k = np.arange(1, len(counts) + 1)
    return (prefix[k] - prefix[k - (k & -k)]).astype(np.int32)


@dataclass(frozen=True, slots=True)
class UnitFound:
    """What one unit of the guided walk found: the table indices of the designs it found
    first, and the nodes it walked."""

    unit: int
    found: Any  # np.ndarray[int64], table indices
    nodes: int


class Guide:
    """A table of designs, and which of them have been found: what every unit of a guided
    walk in one process shares (found designs are never searched again)."""

    def __init__(self, region: Region, table: Any) -> None:
        self.region = region
        self.table = np.ascontiguousarray(table, dtype=np.uint64)
        if len(self.table) > 1 and not (self.table[1:] > self.table[:-1]).all():
            raise ValueError("a guide's table must be sorted, each design once")
        self.found = np.zeros(len(self.table), np.uint8)
        self.alive = fenwick(np.ones(len(self.table), np.int64))
        nb = region.neighbours
        self._nb = np.array([x for row in nb for x in row], np.int64)
        self._nbmask = np.array([sum(1 << x for x in row if x >= 0) for row in nb], np.uint64)
        self._ring = np.array(ring_masks(region), np.uint64)
        self._colour = np.array([sum(c) & 1 for c in region.cells], np.int64)

    @property
    def left(self) -> int:
        """How many designs of the table are not found yet."""
        return len(self.table) - int(self.found.sum())

    def mark(self, indices: Any) -> None:
        """Count the designs at ``indices`` of the table as found (by another unit)."""
        new = np.unique(np.asarray(indices, np.int64))
        new = new[self.found[new] == 0]
        if not len(new):
            return
        self.found[new] = 1
        self.alive[:] = fenwick(self.found == 0)

    def unit(
        self, unit: int, prefix: Prefix, on_slice: Callable[[], None] | None = None
    ) -> UnitFound:
        """Walk every path that extends ``prefix`` and has a design of the table not found
        yet; ``on_slice()`` is called between slices (it may raise to stop)."""
        loop = compiled.extension("paths")
        if loop is None or len(prefix) >= self.region.volume:
            indices, walked = _python(self, prefix, on_slice)
            return UnitFound(unit, np.array(indices, np.int64), walked)
        n = self.region.volume
        path = np.zeros(n + 1, np.int64)
        path[: len(prefix)] = prefix
        out = np.zeros(BATCH, np.int64)
        walk = loop.GuidedPaths(self._nb, self._nbmask, self._ring, self._colour, self.table,
                                self.found, self.alive, path, len(prefix), out)  # fmt: skip
        found: list[Any] = []
        nodes = 0
        while not walk.finished:
            if on_slice is not None:
                on_slice()
            got, walked = walk.run(SLICE_NODES)
            nodes += walked
            found.append(out[:got].copy())
        return UnitFound(unit, np.concatenate([np.empty(0, np.int64), *found]), nodes)


def _python(
    guide: Guide, prefix: Prefix, on_slice: Callable[[], None] | None
) -> tuple[list[int], int]:
    """The same walk in pure Python (where the loop is not built): slow, exact."""
    # One loop, longer than a screen on purpose: it follows census/_paths.pyx's GuidedPaths.
    region, table = guide.region, guide.table.tolist()
    n = region.volume
    nb = region.neighbours
    nbmask = [sum(1 << x for x in row if x >= 0) for row in nb]
    ring = ring_masks(region)
    full = (1 << n) - 1

    def narrow(a: int, b: int, bit: int, turn: bool) -> tuple[int, int]:
        lo, hi = a, b
        while lo < hi:
            mid = (lo + hi) // 2
            if table[mid] >> bit & 1:
                hi = mid
            else:
                lo = mid + 1
        return (lo, b) if turn else (a, lo)

    def alive(a: int, b: int) -> bool:
        return not all(guide.found[a:b])

    found: list[int] = []
    a, b = 0, len(table)
    dirs = [nb[x].index(y) for x, y in itertools.pairwise(prefix)]
    for i in range(1, len(dirs)):
        a, b = narrow(a, b, n - 2 - i, dirs[i] != dirs[i - 1])
    if a >= b:
        return found, 0
    if len(prefix) == n:  # the prefix is a whole path
        if not guide.found[a]:
            guide.mark([a])
            found.append(a)
        return found, 0
    nodes, check = 0, SLICE_NODES // 20
    # A stack of (head, last direction, range, occupied, next direction to try).
    stack = [(prefix[-1], dirs[-1] if dirs else -1, a, b, sum(1 << c for c in prefix), 0)]
    while stack:
        head, last, a, b, occ, d0 = stack.pop()
        level = n - bin(full & ~occ).count("1")
        for d in range(d0, 6):
            x = nb[head][d]
            if x < 0 or occ >> x & 1:
                continue
            lo, hi = (a, b) if last < 0 else narrow(a, b, n - 1 - level, d != last)
            if lo >= hi:
                continue
            taken = occ | 1 << x
            nodes += 1
            if (stranded(nbmask, head, x, taken) > 1 and level + 1 < n) or (
                level + 2 < n and splits(nbmask, ring, x, taken, full)
            ):
                continue
            if not alive(lo, hi):
                continue
            stack.append((head, last, a, b, occ, d + 1))  # come back for the next direction
            if level + 1 == n:  # a whole path: its design is found
                guide.found[lo] = 1
                found.append(lo)
            else:
                stack.append((x, d, lo, hi, taken, 0))
            break
        if on_slice is not None and nodes >= check:
            check += SLICE_NODES // 20
            on_slice()
    guide.alive[:] = fenwick(guide.found == 0)
    return found, nodes
