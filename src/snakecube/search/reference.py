"""The reference search: pure Python, short, and the definition of a correct answer.

Method: place whole segments, depth first, trying directions 0..5. A segment must turn
(change axis) from the one before it, stay inside the region and not overlap any placed
cube. With ``prune=0`` (the default) nothing else is cut: that is the truth every other
engine is tested against. The optional pruning (see ``engine``) is the compiled kernel's,
step for step, so the two engines visit the same nodes; it makes this engine the fallback
where the kernel could not be compiled, and lets ``rate`` give the same scores there.

The loop keeps its own stack (no recursion), so snakes of any length work.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.options import CONNECTED, DEAD_END, PARITY, TAIL, TAIL_SEGMENTS, Prune
from snakecube.search.plan import Unit, end_colour, replay
from snakecube.search.problem import Problem
from snakecube.shape import flood

NAME = "reference"
TICK = 4096  # nodes between ticks


class Reference(Engine):
    """The pure-Python engine (no pruning unless asked: it defines what is correct)."""

    name = NAME
    default_prune = Prune(0)

    # The reference search is the definition of correct: one explicit-stack loop, read top to
    # bottom.
    def search(
        self, problem: Problem, unit: Unit, stats: Stats | None = None
    ) -> Iterator[Placement | None]:
        return search(problem, unit, stats, self.prune, self.min_free)


def search(
    problem: Problem,
    unit: Unit,
    stats: Stats | None = None,
    prune: int = 0,
    min_free: int = 0,
) -> Iterator[Placement | None]:
    """Every placement under ``unit``, in the engines' contract order (see ``engine``)."""
    # One loop over one explicit stack, longer than a screen on purpose: it is the definition
    # the compiled kernel is checked against, step for step, and reads best in one piece.
    stats = Stats() if stats is None else stats
    state = replay(problem, unit.start, unit.prefix)
    if state is None:
        return
    occ, head, _axis = state
    n_seg, base = len(problem.lengths), len(unit.prefix)
    if base == n_seg:  # the unit is already a whole placement
        yield tuple(unit.prefix)
        return
    rays = [problem.rays[n] for n in problem.lengths]
    extra = _Pruning(problem, unit.start, prune, min_free) if prune else None
    dirs = [*unit.prefix, *([0] * (n_seg - base))]
    # The stack: before segment k is placed, the head, the occupied cells, the candidate
    # last cube (-1: none yet) and the next direction to try.
    heads, occs, lasts, nextd = [0] * n_seg, [0] * n_seg, [-1] * n_seg, [0] * n_seg
    heads[base], occs[base] = head, occ
    k = base
    while True:
        if k == n_seg:  # a whole placement: report it, then step back
            yield tuple(dirs)
            k -= 1
            continue
        axis = dirs[k - 1] >> 1 if k else -1
        table, at, occ = rays[k], heads[k] * 6, occs[k]
        d = nextd[k]
        while d < 6:  # Step 1: the next direction that turns, fits and does not overlap
            ray = table[at + d] if d >> 1 != axis else None
            if ray is not None and not occ & ray[0]:
                stats.nodes += 1  # Step 2: the segment is placed
                if stats.nodes % TICK == 0:
                    yield None
                last = lasts[k]
                if extra is None or k + 1 == n_seg:
                    break
                last = extra.check(k, at + d, occ | ray[0], ray[1], last)  # Step 3: prune
                if last != _CUT:
                    break
            d += 1
        if d == 6:  # Step 4: no direction left here: step back
            if k == base:
                return
            k -= 1
            continue
        nextd[k], dirs[k] = d + 1, d
        if k + 1 < n_seg:
            heads[k + 1], occs[k + 1] = ray[1], occ | ray[0]  # type: ignore[index]
            lasts[k + 1], nextd[k + 1] = last, 0
        k += 1


_CUT = -2  # what _Pruning.check answers for a subtree without solutions


class _Pruning:
    """The kernel's exact pruning, in Python: dead ends, parity of the last cube, the tail
    and connectivity of the free cells."""

    def __init__(self, problem: Problem, start: int, prune: int, min_free: int) -> None:
        self.dead_end = bool(prune & DEAD_END)
        self.parity = bool(prune & PARITY)
        self.connected = bool(prune & CONNECTED)
        self.tail = bool(prune & TAIL)
        self.n_seg = len(problem.lengths)
        self.rays = [problem.rays[n] for n in problem.lengths]
        self.min_free = min_free
        self.halo, self.nbmask = _halos(problem)
        n = problem.ncells
        self.all = (1 << n) - 1
        self.odd = problem.region.odd_mask
        self.end_colour = end_colour(problem.region, start)
        placed, self.free_after = 1, []
        for length in problem.lengths:
            placed += length - 1
            self.free_after.append(n - placed)

    def check(self, k: int, row: int, occ: int, head: int, last: int) -> int:
        """The new candidate last cube after segment k's ray ``row`` is placed, or _CUT."""
        if self.dead_end:
            ways_in = ~occ | (1 << head)  # free cells, and the head
            cand = self.halo[k][row] & ~occ
            while cand:
                low = cand & -cand
                cand ^= low
                x = low.bit_length() - 1
                m = self.nbmask[x] & ways_in
                if not m:
                    return _CUT  # no way in: never reached
                if not m & (m - 1):  # one way in: it can only be the last cube
                    if last >= 0 and last != x and not occ >> last & 1:
                        return _CUT  # a second one
                    if self.parity and (self.odd >> x & 1) != self.end_colour:
                        return _CUT  # the last cube's colour is fixed
                    last = x
        tail = self.tail and last >= 0 and k + 2 < self.n_seg and not occ >> last & 1
        if tail and not self._fits(occ | 1 << last, last, self.n_seg - 1, -1, k + 2):
            return _CUT  # the last segments cannot lie back from the last cube
        if self.connected and self.free_after[k] >= self.min_free:
            free = ~occ & self.all
            if flood(self.nbmask, self.nbmask[head] & free, free) != free:
                return _CUT
        return last

    def _fits(self, taken: int, c: int, j: int, axis: int, stop: int) -> bool:
        """Can segments j, j-1, ... (down to ``stop``, at most ``TAIL_SEGMENTS``) lie
        backwards from cell c on cells not in ``taken`` (c is), the first off ``axis``?"""
        if j < stop or self.n_seg - 1 - j >= TAIL_SEGMENTS:
            return True
        for d in range(6):
            ray = self.rays[j][c * 6 + d] if d >> 1 != axis else None
            if (
                ray is not None
                and not taken & ray[0]
                and self._fits(taken | ray[0], ray[1], j - 1, d >> 1, stop)
            ):
                return True
        return False


@lru_cache(maxsize=8)  # problems hash by identity (``eq=False``): one entry per problem
def _halos(problem: Problem) -> tuple[list[list[int]], tuple[int, ...]]:
    """Per segment, per ray row: the neighbours of the start cell and of the cells the ray
    adds; and each cell's neighbours as a mask. Cached for the last few problems."""
    nb = problem.neighbours
    nbmask = problem.region.neighbour_masks
    by_length: dict[int, list[int]] = {}
    for length in set(problem.lengths):
        rows = []
        for c in range(problem.ncells):
            for d in range(6):
                halo, at = 0, c
                if problem.rays[length][c * 6 + d] is not None:
                    for _ in range(length):
                        halo |= nbmask[at]
                        at = nb[at][d]
                rows.append(halo)
        by_length[length] = rows
    return [by_length[n] for n in problem.lengths], nbmask
