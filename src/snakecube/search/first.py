"""Restarts: a portfolio of randomised searches for a first solution of a floppy big snake.

Exhaustive depth-first search (``kernel``) answers "how many?"; for "is there one?" on a big
target it can spend its whole budget under one bad early choice. Here each *restart* is a
fresh search (``_first.FirstSearch``) from one start cell (one per symmetry orbit whose
colour allows a start), from one end of the snake, with its own random order of directions
(fewest ways on first, ties broken at random) and a node budget from the Luby sequence
(1, 1, 2, 1, 1, 2, 4, ...) times ``BASE``. Restart ``i`` is fully fixed by ``i`` and the
seed, so the answer depends only on the inputs and the seed, never on timing or the number
of workers: with several workers, the solution kept is the one of the lowest restart that
found one, and it is accepted only when every lower restart has finished.

A restart whose search space is used up (``finished``) proves that no solution starts at its
cell from its end; when that holds for every start cell of one end, the snake does not fold.

This is a pure heuristic layer over exact pruning; every solution is verified by
``Solution.verify`` like any other.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from snakecube.search.kernel import PURE_ENV
from snakecube.search.plan import can_start, colour, end_colour
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex

_first = None
if os.environ.get(PURE_ENV, "").strip() in ("", "0"):
    try:
        from snakecube.search import _first  # type: ignore[attr-defined, no-redef]
    except ImportError:
        _first = None
AVAILABLE = _first is not None

BASE = 20_000  # nodes of the shortest restart
ALL_CHECKS = 7  # blocks (1), forced passages (2), fewest ways first (4)


def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    if i < 1:
        raise ValueError("Luby terms are numbered from 1")
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@dataclass(frozen=True, slots=True)
class Restart:
    """What one restart did: ``cells`` (snake order) if it found a solution."""

    index: int
    end: int  # 0: from the first end; 1: from the last
    start: CellIndex
    nodes: int
    finished: bool
    cells: tuple[CellIndex, ...] | None


class Portfolio:
    """The restarts of one problem (see the module's docstring)."""

    def __init__(self, problem: Problem, seed: int = 0, base: int = BASE) -> None:
        if _first is None:
            raise RuntimeError("the compiled first-solution search is not built")
        region = problem.region
        self.problem: Problem = problem
        self.seed: int = seed
        self.base: int = base
        self.nb = array("i", [y for row in region.neighbours for y in row])
        self.colours = array("i", [colour(region, c) for c in range(region.volume)])
        orbits = region.orbits(region.symmetries)
        self.starts: list[CellIndex] = [o[0] for o in orbits if can_start(region, o[0])]

    def plan(self, i: int) -> tuple[int, CellIndex, int, int]:
        """Restart ``i`` (0-based): its end, start cell, random seed and node budget."""
        end = i % 2
        start = self.starts[(i // 2) % len(self.starts)] if self.starts else 0
        mixed = (self.seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xBF58476D1CE4E5B9) % (1 << 64)
        return end, start, mixed or 1, self.base * luby(i + 1)

    def restart(self, i: int) -> Restart:
        """Run restart ``i`` to its budget."""
        assert _first is not None
        end, start, seed, budget = self.plan(i)
        lengths = self.problem.lengths[::-1] if end else self.problem.lengths
        region = self.problem.region
        search = _first.FirstSearch(
            self.nb, self.colours, array("i", lengths), start, end_colour(region, start),
            seed, ALL_CHECKS,
        )  # fmt: skip
        search.run(budget)
        cells = None
        if search.found:
            path = [start]
            for k, d in enumerate(search.directions()):
                for _ in range(lengths[k] - 1):
                    path.append(region.neighbours[path[-1]][d])
            cells = tuple(path[::-1] if end else path)
        return Restart(i, end, start, search.nodes, bool(search.finished), cells)

    def proves_none(self, finished: set[tuple[int, CellIndex]]) -> bool:
        """Do the used-up restarts cover every start cell of one end?"""
        if not self.starts:
            return True
        return any(all((e, s) in finished for s in self.starts) for e in (0, 1))


def search(
    problem: Problem,
    seed: int = 0,
    workers: int = 1,
    stop: Callable[[int], bool] | None = None,
) -> Generator[Restart | None, None, None]:
    """Restarts in order of their index (each one as it is accepted), and ``None`` now and
    then while workers run, until one finds a solution or the used-up ones prove there is
    none. ``stop(nodes)`` is asked between restarts; True ends the search."""
    portfolio = Portfolio(problem, seed)
    finished: set[tuple[int, CellIndex]] = set()
    nodes = 0

    def accept(r: Restart) -> bool:
        nonlocal nodes
        nodes += r.nodes
        if r.finished and r.cells is None:
            finished.add((r.end, r.start))
        return r.cells is not None or portfolio.proves_none(finished)

    if workers <= 1:
        i = 0
        while not (stop and stop(nodes)):
            r = portfolio.restart(i)
            yield r
            if accept(r):
                return
            i += 1
            yield None
        return

    from itertools import count

    from snakecube import pool

    def job(i: int) -> Iterator[Restart]:
        yield portfolio.restart(i)

    waiting: dict[int, Restart] = {}
    next_up = 0
    events = pool.run(job, count(), workers)
    try:
        for event in events:
            if event is not None and not event.done:
                waiting[event.job] = event.value
            while next_up in waiting:  # accept in index order: deterministic
                r = waiting.pop(next_up)
                next_up += 1
                yield r
                if accept(r):
                    return
            yield None
            if stop and stop(nodes):
                return
    finally:
        events.close()
