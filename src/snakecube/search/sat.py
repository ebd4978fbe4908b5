"""The fold as a SAT problem, for CaDiCaL (python-sat): one member of the first-solution portfolio.

Depth-first search and the restarts lose themselves under one bad early choice whose
subtree has no solution that no check sees (docs/design.md, "Where the hard designs are
hard"). A CDCL solver learns a clause from each conflict, which is what those subtrees need.

Variables (numbered by ``Encoding``):

* ``at(i, c)``: cube ``i`` (snake order) sits on cell ``c``. Only cells of the colour cube
  ``i`` can have are used (a path alternates colours; when both start colours are possible
  and a symmetry of the region swaps the colours, the first cube's colour is fixed);
* ``way(k, d)``: segment ``k`` points in direction ``d`` (``shape.VECTORS`` order).

Clauses:

* every cube on exactly one cell, every cell holding exactly one cube (pairwise);
* every segment exactly one direction, perpendicular to the next segment's;
* the chain: ``at(i, c) & way(k, d) -> at(i + 1, c + d)`` for the segment ``k`` holding the
  step from cube ``i`` to ``i + 1`` (and no such step out of the region), the same backwards,
  and each cube next to one of the neighbours of the cube before and after it.

A model is one placement: the cells of the cubes in snake order. The encoding is checked
against brute force (every placement of small designs, one model each) in the tests, and
every solution it gives is verified like any other.

``python-sat`` is an optional extra (``snakecube[sat]``), imported only when a SAT search is
built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from snakecube.search.plan import can_start, colour
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex

SOLVER = "cadical195"
SLICE = 1_000  # conflicts per slice
NODES_PER_CONFLICT = 150  # for budgets and the portfolio's order, a conflict weighs this many
# nodes of the restarts (measured: about 2,000-4,000 conflicts and 300,000 nodes a second)


def available() -> bool:
    """Is python-sat installed?"""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class Encoding:
    """The clauses of one problem, and how to read a placement back from a model."""

    def __init__(self, problem: Problem, fix_colour: bool = True) -> None:
        # Longer than a screen on purpose: the variables, then each family of clauses in the
        # order of the module's docstring, so the encoding reads against its description.
        region = problem.region
        n = problem.ncells
        nb = region.neighbours
        self.problem = problem
        self.clauses: list[list[int]] = []
        starts = {colour(region, c) for c in range(n) if can_start(region, c)}
        if fix_colour and len(starts) == 2 and _swaps_colours(problem):
            starts = {0}
        # cells[i]: the cells cube i may sit on
        by_colour = [[c for c in range(n) if colour(region, c) == k] for k in (0, 1)]
        if len(starts) == 1:
            (first,) = starts
            self.cells = [by_colour[first ^ (i & 1)] for i in range(n)]
        else:
            self.cells = [list(range(n)) for _ in range(n)]
        self._at: list[dict[CellIndex, int]] = []
        top = 0
        for i in range(n):
            row = {}
            for c in self.cells[i]:
                top += 1
                row[c] = top
            self._at.append(row)
        self._way: list[list[int]] = []
        for _ in problem.lengths:
            self._way.append(list(range(top + 1, top + 7)))
            top += 6
        self.variables = top

        add = self.clauses.append

        def exactly_one(lits: list[int]) -> None:
            add(lits)
            for a, b in combinations(lits, 2):
                add([-a, -b])

        # Exactly one: cube per cell, cell per cube, direction per segment.
        for row in self._at:
            exactly_one(list(row.values()))
        for c in range(n):
            exactly_one([row[c] for row in self._at if c in row])
        for ways in self._way:
            exactly_one(ways)
        # Corners: each segment perpendicular to the next (d ^ 1 is d's opposite).
        for k in range(len(self._way) - 1):
            for d in range(6):
                add([-self._way[k][d], -self._way[k + 1][d]])
                add([-self._way[k][d], -self._way[k + 1][d ^ 1]])
        # The chain, step by step, forwards and backwards.
        step_segment = [k for k, length in enumerate(problem.lengths) for _ in range(length - 1)]
        for i, k in enumerate(step_segment):
            ways = self._way[k]
            for here, there, flip in ((self._at[i], self._at[i + 1], 0),
                                      (self._at[i + 1], self._at[i], 1)):  # fmt: skip
                for c, v in here.items():
                    near = []
                    for d in range(6):
                        m = nb[c][d ^ flip]
                        if m >= 0 and m in there:
                            add([-v, -ways[d], there[m]])
                            near.append(there[m])
                        else:
                            add([-v, -ways[d]])
                    add([-v, *near])

    def placement(self, model: list[int]) -> tuple[CellIndex, ...]:
        """The cells of the cubes, in snake order, of a model."""
        true = {v for v in model if v > 0}
        return tuple(next(c for c, v in row.items() if v in true) for row in self._at)

    def block(self, cells: tuple[CellIndex, ...]) -> list[int]:
        """The clause that rules out this placement (for listing every model)."""
        return [-self._at[i][c] for i, c in enumerate(cells)]


def _swaps_colours(problem: Problem) -> bool:
    region = problem.region
    return any(colour(region, p[0]) != colour(region, 0) for p in region.symmetries)


@dataclass(frozen=True, slots=True)
class Slice:
    """What one slice of the SAT search did: ``cells`` if it found a placement; ``decided``
    if the search is over (a placement, or a proof that there is none)."""

    index: int
    conflicts: int  # in this slice
    decided: bool
    cells: tuple[CellIndex, ...] | None

    @property
    def nodes(self) -> int:
        """The slice's work in restart nodes (``NODES_PER_CONFLICT`` a conflict)."""
        return self.conflicts * NODES_PER_CONFLICT

    @property
    def engine(self) -> str:
        """The member that ran: the name a result reports."""
        return "sat"


class SatSearch:
    """CaDiCaL on one problem, run in slices of a number of conflicts (deterministic: the
    same problem and slices give the same answer)."""

    def __init__(self, problem: Problem) -> None:
        from pysat.solvers import Solver  # the sat extra

        self.encoding = Encoding(problem)
        self.solver: Any = Solver(name=SOLVER, bootstrap_with=self.encoding.clauses)
        self.slices = 0
        self.conflicts = 0

    def run(self, conflicts: int = SLICE) -> Slice:
        """Search for ``conflicts`` more conflicts."""
        self.solver.conf_budget(conflicts)
        answer = self.solver.solve_limited()
        cells = self.encoding.placement(self.solver.get_model()) if answer else None
        total = int(self.solver.accum_stats().get("conflicts", 0))
        out = Slice(self.slices, total - self.conflicts, answer is not None, cells)
        self.slices += 1
        self.conflicts = total
        return out

    def slices_of(self, conflicts: int = SLICE) -> Iterator[Slice]:
        """Slices of ``conflicts`` until the search is decided."""
        while True:
            s = self.run(conflicts)
            yield s
            if s.decided:
                return

    def close(self) -> None:
        self.solver.delete()


class SatMember:
    """The SAT member of the first-solution portfolio (``first.member.Member``): slice n is
    run n. The solver is made at its first slice, so a snake another member folds at once
    does not pay for its encoding."""

    name = "sat"
    persistent = True

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.solver: SatSearch | None = None

    @staticmethod
    def why_not(problem: Problem) -> str | None:
        """Why this member cannot run here, or None when it can."""
        if available():
            return None
        return "the SAT member needs python-sat: pip install 'snakecube[sat]'"

    @classmethod
    def make(cls, problem: Problem, setting: object) -> SatMember:
        """The SAT member of ``problem`` (deterministic: it needs no seed)."""
        return cls(problem)

    def place(self, n: int) -> int:
        """Where slice ``n`` ends on the portfolio's scale of work."""
        return (n + 1) * SLICE * NODES_PER_CONFLICT

    def run(self, n: int, stop: Callable[[], bool] | None = None) -> Slice:
        """The next slice of ``SLICE`` conflicts."""
        if self.solver is None:
            self.solver = SatSearch(self.problem)
        return self.solver.run()

    def settles(self, run: object) -> bool:
        """A placement, or a proof that there is none, ends the search."""
        assert isinstance(run, Slice)
        return run.decided

    def close(self) -> None:
        """Free the solver, if one was made."""
        if self.solver is not None:
            self.solver.close()
