"""The reference search: pure Python, short, and the definition of a correct answer.

Contract shared by every engine (``search(problem, unit, stats)``):

* it yields each placement under ``unit`` exactly once, as a tuple with one direction per
  segment (the unit's prefix included), in the order found by trying directions 0..5 at
  every segment, depth first;
* it may yield ``None`` now and then (a *tick*), so the caller can check limits and
  progress between solutions;
* it adds the nodes it visits (segments placed) to ``stats.nodes``.

Method: place whole segments. A segment must turn (change axis) from the one before it,
stay inside the region and not overlap any placed cube. Nothing else is pruned here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from snakecube.search.plan import Unit, replay
from snakecube.search.problem import Problem
from snakecube.shape import Direction

NAME = "reference"
TICK = 4096


@dataclass(slots=True)
class Stats:
    """What a search has done so far."""

    nodes: int = 0


def search(
    problem: Problem, unit: Unit, stats: Stats | None = None
) -> Iterator[tuple[Direction, ...] | None]:
    """Every placement under ``unit`` (see the module's contract)."""
    stats = Stats() if stats is None else stats
    state = replay(problem, unit.start, unit.prefix)
    if state is None:
        return
    occ, head, axis = state
    rays = [problem.rays[n] for n in problem.lengths]
    last = len(rays)
    dirs = list(unit.prefix)

    def place(k: int, head: int, occ: int, axis: int) -> Iterator[tuple[Direction, ...] | None]:
        stats.nodes += 1
        if stats.nodes % TICK == 0:
            yield None
        if k == last:
            yield tuple(dirs)
            return
        table = rays[k]
        for d in range(6):
            if d >> 1 == axis:
                continue
            ray = table[head * 6 + d]
            if ray is None or occ & ray[0]:
                continue
            dirs.append(d)
            yield from place(k + 1, ray[1], occ | ray[0], d >> 1)
            dirs.pop()

    yield from place(len(dirs), head, occ, axis)
