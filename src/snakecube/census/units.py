"""Census work units: the split of the Hamiltonian paths into prefixes, and one unit's tally.

A **unit** is a path prefix (cells) whose pointwise stabilizer is trivial, extended a few
steps more for balance: every class of Hamiltonian paths under the region's symmetries
extends exactly one unit, so the units together count every class once.

A unit's **tally** groups its path classes by *canonical design key* (a design and its
reverse share one key: the smaller of the two turn bit strings) with, per key, the number
of classes and, for palindromic designs, how many classes a symmetry maps onto their own
reverse. The tally is sorted and summed with numpy, in chunks, so memory stays at about
16 bytes per distinct design of the unit plus a fixed buffer.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from snakecube import compiled
from snakecube.search.plan import can_start
from snakecube.shape import CellIndex, Region, flood

Prefix = tuple[CellIndex, ...]
SLICE_NODES = 1_000_000  # nodes per call of the compiled loop: well under 0.1 s
BATCH = 1 << 16  # paths per call
CHUNK = 1 << 22  # keys buffered before they are merged into the tally


def path_units(region: Region, min_units: int = 1) -> list[Prefix]:
    """Path prefixes, one per orbit, whose stabilizer is trivial: every Hamiltonian path
    class under the region's symmetries extends exactly one of them. With ``min_units``,
    prefixes are all extended to one depth (once no symmetry is left), the least at which
    every start orbit has its share of that many, for splitting the work. The split depends
    on the region only."""

    nb = region.neighbours
    units: list[Prefix] = []

    def expand(prefix: Prefix, stab: list[tuple[int, ...]], depth: int) -> None:
        if (len(stab) == 1 and len(prefix) >= depth) or len(prefix) == region.volume:
            units.append(prefix)
            return
        seen: set[CellIndex] = set()
        for x in nb[prefix[-1]]:
            if x < 0 or x in prefix or x in seen:
                continue
            seen.update(g[x] for g in stab)
            expand((*prefix, x), [g for g in stab if g[x] == x], depth)

    # Every prefix is extended to one depth, the least at which every start orbit has its
    # share of the units (a start whose stabilizer is trivial is one huge unit until
    # extended, however many units the other starts make).
    starts = [o[0] for o in region.orbits() if can_start(region, o[0])]
    share = -(-min_units // max(len(starts), 1))
    depth = 1
    while True:
        found: list[Prefix] = []
        short = False
        for start in starts:
            units = []
            expand((start,), [g for g in region.symmetries if g[start] == start], depth)
            short = short or len(units) < share
            found.extend(units)
        if not short or depth >= region.volume:
            return found
        depth += 1


@dataclass(frozen=True, slots=True)
class UnitTally:
    """What one unit found: path classes, nodes, and per canonical design key the number
    of classes (``counts``) and of self-reverse classes (``fixed``, sparse)."""

    unit: int
    classes: int
    nodes: int
    keys: Any  # np.ndarray[uint64], sorted, distinct
    counts: Any  # np.ndarray[uint64]
    fixed_keys: Any  # np.ndarray[uint64], sorted, distinct
    fixed_counts: Any  # np.ndarray[uint64]


def tally_unit(
    region: Region,
    unit: int,
    prefix: Prefix,
    max_segment: int | None = None,
    on_slice: Callable[[], None] | None = None,
) -> UnitTally:
    """Enumerate every Hamiltonian path extending ``prefix`` (with no segment longer than
    ``max_segment`` cubes, if given) and tally it by design; ``on_slice()`` is called after
    every slice of the loop (it may raise to stop)."""

    chunks: list[np.ndarray] = []
    buffered = classes = nodes = 0
    keys = np.empty(0, np.uint64)
    counts = np.empty(0, np.uint64)
    fixed: dict[int, int] = {}
    for batch, flags, visited in _batches(region, prefix, max_segment):
        if on_slice is not None:
            on_slice()
        nodes += visited
        if not len(batch):
            continue
        classes += len(batch)
        chunks.append(batch.copy())
        buffered += len(batch)
        if flags.any():
            for key in batch[flags.astype(bool)].tolist():
                fixed[key] = fixed.get(key, 0) + 1
        if buffered >= CHUNK:
            keys, counts = merge_keys(keys, counts, chunks)
            chunks, buffered = [], 0
    keys, counts = merge_keys(keys, counts, chunks)
    fkeys = np.array(sorted(fixed), dtype=np.uint64)
    fcounts = np.array([fixed[k] for k in sorted(fixed)], dtype=np.uint64)
    return UnitTally(unit, classes, nodes, keys, counts, fkeys, fcounts)


def merge_keys(keys: np.ndarray, counts: np.ndarray, chunks: list[np.ndarray]) -> tuple[Any, Any]:
    """The tally (keys, counts) with every key of ``chunks`` added once."""

    if not chunks:
        return keys, counts
    new = np.concatenate(chunks)
    all_keys = np.concatenate([keys, new])
    all_counts = np.concatenate([counts, np.ones(len(new), np.uint64)])
    return sum_by_key(all_keys, all_counts)


def sum_by_key(keys: np.ndarray, counts: np.ndarray) -> tuple[Any, Any]:
    """Distinct keys (sorted) with the sum of their counts; exact integer arithmetic."""

    if not len(keys):
        return keys.astype(np.uint64), counts.astype(np.uint64)
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(counts, starts).astype(np.uint64)


def loop_speed(
    region: Region, prefixes: list[Prefix], max_segment: int | None, seconds: float
) -> tuple[float, float]:
    """(CPU seconds per node of the path loop here, path classes found per node): the loop
    run (its keys written) below each of ``prefixes`` in turn, for at most ``SLICE_NODES //
    10`` nodes each, until about ``seconds`` of CPU time in all."""
    maxrun = region.volume if max_segment is None else max_segment - 1
    loop = compiled.extension("paths")
    nodes = paths = 0
    spent = 0.0
    for prefix in prefixes:
        if len(prefix) >= region.volume or _longest_run(region, prefix) > maxrun:
            continue
        if loop is not None:
            walk, _keys, _flags = _walker(region, prefix, loop, maxrun)
            began = time.process_time()
            got, walked = walk.run(SLICE_NODES // 10)
            nodes, paths = nodes + walked, paths + got
        else:
            began = time.process_time()
            for keys, _flags, walked in itertools.islice(
                _python(region, prefix, maxrun, SLICE_NODES // 10), 1
            ):
                nodes, paths = nodes + walked, paths + len(keys)
        spent += time.process_time() - began
        if spent >= seconds:
            break
    return (spent / nodes, paths / nodes) if nodes else (0.0, 0.0)


def _batches(
    region: Region, prefix: Prefix, max_segment: int | None = None, slice_nodes: int = SLICE_NODES
) -> Iterator[tuple[Any, Any, int]]:
    """(canonical keys, self-reverse flags, nodes) per slice of ``slice_nodes`` nodes of the
    path loop: compiled where built (``snakecube.compiled``), else in Python."""

    maxrun = region.volume if max_segment is None else max_segment - 1
    if _longest_run(region, prefix) > maxrun:
        return  # the prefix has a segment too long: no path of this unit counts
    loop = compiled.extension("paths")
    if loop is not None:
        yield from _compiled(region, prefix, loop, maxrun, slice_nodes)
    else:
        yield from _python(region, prefix, maxrun, slice_nodes)


def _longest_run(region: Region, path: Prefix) -> int:
    """The most steps in a row in one direction along ``path``."""
    best = run = 0
    last = -1
    for a, b in itertools.pairwise(path):
        d = region.neighbours[a].index(b)
        run = run + 1 if d == last else 1
        best, last = max(best, run), d
    return best


def _tables(region: Region) -> tuple[list[int], list[int], list[int], list[int]]:
    nb = [x for row in region.neighbours for x in row]
    nbmask = list(region.neighbour_masks)
    syms = [c for g in region.symmetries for c in g]
    return nb, nbmask, ring_masks(region), syms


def ring_masks(region: Region) -> list[int]:
    """Per cell, the mask of the region's other cells that touch it (at a face, an edge or
    a corner): where the path loop first looks for a way between the head's neighbours."""
    out = []
    for x, y, z in region.cells:
        near = (
            region.index.get((x + dx, y + dy, z + dz), -1)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            for dz in (-1, 0, 1)
        )
        out.append(sum(1 << c for c in near if c >= 0 and region.cells[c] != (x, y, z)))
    return out


def _walker(region: Region, prefix: Prefix, loop: Any, maxrun: int) -> tuple[Any, Any, Any]:
    """The compiled path loop (``loop.PathKeys``) at ``prefix``, with its key buffers."""
    n = region.volume
    nb, nbmask, ring, syms = (
        np.array(t, dtype=dt)
        for t, dt in zip(_tables(region), (np.int64, np.uint64, np.uint64, np.int64), strict=True)
    )
    path = np.zeros(n + 1, np.int64)
    path[: len(prefix)] = prefix
    dirs = np.zeros(n + 1, np.int64)
    run = np.zeros(n + 1, np.int64)
    for i in range(1, len(prefix)):
        dirs[i] = region.neighbours[prefix[i - 1]].index(prefix[i])
        run[i] = run[i - 1] + 1 if i > 1 and dirs[i] == dirs[i - 1] else 1
    keys = np.zeros(BATCH, np.uint64)
    flags = np.zeros(BATCH, np.uint8)
    walk = loop.PathKeys(nb, nbmask, ring, syms, path, dirs, run, maxrun, len(prefix), keys, flags)
    return walk, keys, flags


def _compiled(
    region: Region, prefix: Prefix, loop: Any, maxrun: int, slice_nodes: int
) -> Iterator[tuple[Any, Any, int]]:
    """The path loop of ``census._paths`` (``loop``), in slices of ``slice_nodes`` nodes."""
    if len(prefix) == region.volume:  # the prefix is a whole path
        yield _whole_path(region, prefix)
        return
    walk, keys, flags = _walker(region, prefix, loop, maxrun)
    while not walk.finished:
        got, nodes = walk.run(slice_nodes)
        yield keys[:got], flags[:got], nodes


def _whole_path(region: Region, path: Prefix) -> tuple[Any, Any, int]:

    key, fixed = design_key(region, path)
    return np.array([key], np.uint64), np.array([fixed], np.uint8), 0


def design_key(region: Region, path: Prefix) -> tuple[int, int]:
    """(canonical design key, 1 if a symmetry maps the path onto its own reverse)."""
    n = len(path)
    steps = [region.neighbours[a].index(b) for a, b in itertools.pairwise(path)]
    key = rkey = 0
    for i in range(1, n - 1):
        if steps[i] != steps[i - 1]:
            key |= 1 << (i - 1)
            rkey |= 1 << (n - 2 - i)
    fixed = 0
    if key == rkey:
        back = path[::-1]
        fixed = int(
            any(all(g[c] == b for c, b in zip(path, back, strict=True)) for g in region.symmetries)
        )
    return min(key, rkey), fixed


def stranded(nbmask: Sequence[int], head: int, x: int, occ: int) -> int:
    """The path's dead-end cut, for the step from ``head`` to ``x`` (``occ`` holds both):
    the free neighbours of ``head`` left with no free neighbour count twice, those with one
    once (that one must be the path's last cell). More than 1: no Hamiltonian path goes on."""
    free = ~occ | (1 << x)
    dead, cand = 0, nbmask[head] & ~occ
    while cand:
        low = cand & -cand
        cand ^= low
        m = nbmask[low.bit_length() - 1] & free
        if m == 0 or m & (m - 1) == 0:
            dead += 1 if m else 2
    return dead


def splits(nbmask: Sequence[int], ring: Sequence[int], x: int, occ: int, full: int) -> bool:
    """The path's split cut, at its head ``x`` (``occ`` holds it): True when the free cells
    fall apart. Looked for first among the cells around ``x`` (``ring``): only when two of
    its free neighbours are not joined there is the whole free area flooded."""
    cand = nbmask[x] & ~occ
    if not cand & (cand - 1):
        return False
    reach = flood(nbmask, cand & -cand, ring[x] & ~occ)
    if not cand & ~reach:
        return False
    free = ~occ & full
    return flood(nbmask, reach, free) != free


def _python(
    region: Region, prefix: Prefix, maxrun: int, slice_nodes: int
) -> Iterator[tuple[Any, Any, int]]:
    """The same enumeration in pure Python (where the kernel is not built): slow, exact."""
    # One loop, longer than a screen on purpose: it follows census/_paths.pyx step for step.

    n = region.volume
    nb = region.neighbours
    nbmask = region.neighbour_masks
    ring = ring_masks(region)
    full = (1 << n) - 1
    if len(prefix) == n:
        yield _whole_path(region, prefix)
        return
    path = list(prefix)
    occ = sum(1 << c for c in prefix)
    nextd = [0] * (n + 1)
    dirs, run = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, len(prefix)):
        dirs[i] = nb[prefix[i - 1]].index(prefix[i])
        run[i] = run[i - 1] + 1 if i > 1 and dirs[i] == dirs[i - 1] else 1
    keys: list[int] = []
    flags: list[int] = []
    nodes = 0
    base = len(prefix)
    while True:
        level = len(path)
        if level == n:
            key, fixed = design_key(region, tuple(path))
            keys.append(key)
            flags.append(fixed)
            occ ^= 1 << path.pop()
            if len(keys) >= BATCH:
                yield np.array(keys, np.uint64), np.array(flags, np.uint8), nodes
                keys, flags, nodes = [], [], 0
            continue
        head = path[-1]
        d = nextd[level]
        while d < 6:
            x = nb[head][d]
            d += 1
            if x < 0 or occ >> x & 1:
                continue
            r = run[level - 1] + 1 if level > 1 and dirs[level - 1] == d - 1 else 1
            if r > maxrun:  # a segment longer than asked for
                continue
            occ |= 1 << x
            nodes += 1
            if (stranded(nbmask, head, x, occ) > 1 and level + 1 < n) or (
                level + 2 < n and splits(nbmask, ring, x, occ, full)
            ):
                occ ^= 1 << x
                continue
            nextd[level] = d
            dirs[level], run[level] = d - 1, r
            path.append(x)
            nextd[level + 1] = 0
            break
        else:
            nextd[level] = 6
            if level == base:
                break
            occ ^= 1 << path.pop()
            if nodes >= slice_nodes // 20:
                yield np.array(keys, np.uint64), np.array(flags, np.uint8), nodes
                keys, flags, nodes = [], [], 0
    yield np.array(keys, np.uint64), np.array(flags, np.uint8), nodes
