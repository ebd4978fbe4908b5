"""Engines: ways of running the one search contract, and the pruning they may use.

Contract shared by every engine (``engine.search(problem, unit, stats)``):

* it yields each placement under ``unit`` exactly once, as a tuple with one direction per
  segment (the unit's prefix included), in the order found by trying directions 0..5 at
  every segment, depth first;
* it may yield ``None`` now and then (a *tick*), so the caller can check limits, progress
  and Ctrl-C between solutions;
* it adds the nodes it visits to ``stats.nodes``: a node is a segment placed inside the
  target without overlap, counted before any pruning looks at it. Two engines with the
  same pruning visit the same nodes, so node counts (and scores made from them) do not
  depend on the engine.

Pruning (each piece is exact: it only cuts subtrees that hold no solution), as bit flags:

* ``DEAD_END``: after a segment is placed, each free cell next to it or to the old head
  gets its number of ways in (free neighbours, plus one if it touches the new head). A cell
  with none can never be reached; a cell with one can only be the last cube, and there is
  only one last cube. The candidate last cube is carried down the stack.
* ``CONNECTED``: the free cells must form one piece with the head (a flood fill), checked
  while at least ``min_free`` cells are free.
* ``PARITY``: with ``DEAD_END``, a cell that can only be the last cube must have the last
  cube's colour (x + y + z mod 2), which the start cell and the cube count fix.
* ``TAIL``: with ``DEAD_END``, once a free cell can only be the last cube, the snake's last
  ``TAIL_SEGMENTS`` segments (those after the next one) must fit backwards from it on free
  cells, turning as the snake does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from snakecube.search.options import ALL_PRUNE, CONNECTED, DEAD_END, MIN_FREE, PARITY, TAIL, Prune
from snakecube.search.plan import Unit
from snakecube.search.problem import Problem

__all__ = ["Engine", "Placement", "Stats"]

Placement = tuple[int, ...]  # one direction per segment


class Stats:
    """What a search has done so far (a counter the engines add to)."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: int = 0) -> None:
        self.nodes = nodes

    def __repr__(self) -> str:
        return f"Stats(nodes={self.nodes})"


class Engine:
    """A search loop and its pruning. Subclasses: ``Reference`` (pure Python, the
    definition) and ``Kernel`` (compiled). Engines are small immutable values."""

    name: ClassVar[str] = "engine"
    default_prune: ClassVar[Prune] = Prune(0)

    def __init__(self, prune: int | None = None, min_free: int = MIN_FREE) -> None:
        if prune is not None and (
            isinstance(prune, bool) or not isinstance(prune, int) or not 0 <= prune <= ALL_PRUNE
        ):
            raise ValueError(f"prune must be a combination of the pruning flags, not {prune!r}")
        self.prune = self.default_prune if prune is None else Prune(prune)
        self.min_free = min_free

    def search(
        self, problem: Problem, unit: Unit, stats: Stats | None = None
    ) -> Iterator[Placement | None]:
        """Every placement under ``unit`` (see the module's contract)."""
        raise NotImplementedError

    def warm(self, problem: Problem) -> None:
        """Build what the engine needs for ``problem`` now (before worker processes fork)."""

    def describe(self) -> str:
        """The engine and its pruning, for people: 'kernel (dead ends, parity, tail)'."""
        names = [
            n
            for bit, n in (
                (DEAD_END, "dead ends"),
                (CONNECTED, "connectivity"),
                (PARITY, "parity"),
                (TAIL, "tail"),
            )
            if self.prune & bit
        ]
        return f"{self.name} ({', '.join(names) or 'no pruning'})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(prune={self.prune}, min_free={self.min_free})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.prune, self.min_free) == (
            other.prune,
            other.min_free,
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.prune, self.min_free))
