"""The fold as a SAT problem, for CaDiCaL (python-sat): one member of the first-solution portfolio.

Depth-first search and the restarts lose themselves under one bad early choice whose
subtree has no solution that no check sees (docs/design-first.md, "Where the hard designs are
hard"). A CDCL solver learns a clause from each conflict, which is what those subtrees need.

Two models. Snakes whose corners follow the grid's colouring (every inner cube a corner, or
corners on alternate cubes) get the edge model of ``search.edges``, with its lazy cuts: it
decides them in about a second up to 1000 cubes, and its UNSAT is a proof that the snake does
not fold (``refute`` asks for one before a count). Any other snake of up to ``POSITION_CELLS``
cells gets the position model below; on fully mixed designs it is not faster than the
restarts (docs/design-first.md, "SAT"), so ``auto`` leaves it out for them.

The solver runs in slices of ``SLICE`` conflicts, each made of calls of at most ``STEP``
conflicts from a helper thread (``off_main_thread``): CaDiCaL cannot be interrupted, so that is
how a stop, Ctrl-C or a time limit reaches it within a fraction of a second.

The position model's variables (numbered by ``Encoding``):

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

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import Any, TypeVar

from snakecube.search import edges
from snakecube.search.plan import can_start, colour
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex

T = TypeVar("T")
SOLVER = "cadical195"
SLICE = 1_000  # conflicts per slice
# A slice runs as solver calls of at most STEP conflicts each, always (so that it is the same
# search in a worker and in this process), and in this process the caller's stop is asked
# between them: CaDiCaL through python-sat cannot be interrupted, and a signal waits for the
# call's end. Measured (2 cores at a load of 7): 250 conflicts take about 0.06 s on
# the edge model of 729 cells and 0.06-0.12 s on the position model of 125. (The split changes
# the search a little: the bent 9x9x9 snake took 1,791 conflicts in calls of 250, 500 or 1,000
# and 4,783 in calls of 100.)
STEP = 250
ROUND_CONFLICTS = 10  # a round of the edge model's cuts weighs at least this many conflicts
# The position model has about n^3 / 4 clauses (pairwise at-most-one): 0.5 million at 125
# cells, 12 million at 343. It is not built past this many cells (snakes whose corners follow
# the colouring use the edge model at any size).
POSITION_CELLS = 125
NODES_PER_CONFLICT = 1_000  # for budgets and the portfolio's order, a conflict weighs this many
# nodes of the restarts (measured, 2 cores at a load of 7: 4,000-5,000 conflicts a
# second on the edge model of 343-729 cells, 2,000-4,000 on the position model of 75-125 cells;
# the restarts 2-6 million nodes a second)


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
            for here, there, flip in (
                (self._at[i], self._at[i + 1], 0),
                (self._at[i + 1], self._at[i], 1),
            ):
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


def off_main_thread(call: Callable[[], T]) -> T:
    """``call()``, made from a helper thread when this is the main thread.

    python-sat puts its own Ctrl-C handler in place around solver calls and encodings made
    from the main thread, and ends them with its own exception, jumping out of the solver;
    made from another thread, a Ctrl-C (or SIGTERM) stays the tool's own, and is raised here
    once the call returns (a call is at most ``STEP`` conflicts: a fraction of a second)."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    out: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as err:  # handed to the caller
            failed.append(err)

    helper = threading.Thread(target=run, name="snakecube-sat", daemon=True)
    try:
        helper.start()
        while helper.is_alive():
            helper.join(0.05)
    except BaseException:
        # The solver is the helper's until the call returns, whatever stops this thread
        # meanwhile (a Ctrl-C, then maybe another): freed while it still ran, CaDiCaL
        # crashed the process (SIGSEGV in its destructor, once in about a hundred Ctrl-Cs
        # of the bent 729-cube snake on a busy machine).
        while helper.is_alive():
            with contextlib.suppress(BaseException):
                helper.join()
        raise
    if failed:
        raise failed[0]
    return out[0]


class SatSearch:
    """CaDiCaL on one problem, run in slices of a number of conflicts (deterministic: the
    same problem and slices give the same answer). Snakes whose corners follow the grid's
    colouring get the edge model with its cuts (``search.edges``), others the position
    encoding (``Encoding``)."""

    def __init__(self, problem: Problem) -> None:
        rule = edges.pattern(problem.snake)
        self.edges: edges.EdgeModel | None = None
        self.encoding: Encoding | None = None
        if rule is not None:
            self.edges = off_main_thread(lambda: edges.EdgeModel(problem, rule))
        else:
            self.encoding = off_main_thread(lambda: Encoding(problem))
        self.solver: Any = off_main_thread(self._solver)
        self.slices = 0
        self.conflicts = 0
        self.cuts = 0  # clauses added against the cycles of models (the edge model)

    def _solver(self) -> Any:
        """CaDiCaL with the model's clauses."""
        from pysat.solvers import Solver  # the sat extra

        made = self.edges if self.edges is not None else self.encoding
        assert made is not None
        return Solver(name=SOLVER, bootstrap_with=made.clauses)

    @property
    def model(self) -> str:
        """Which model it runs: ``edges`` or ``positions``."""
        return "edges" if self.edges is not None else "positions"

    def run(self, conflicts: int = SLICE, stop: Callable[[], bool] | None = None) -> Slice | None:
        """Search for ``conflicts`` more conflicts (a round of the edge model's cuts counts
        ``ROUND_CONFLICTS`` at least, so that a slice ends); None if ``stop()`` said so between
        two of its calls of at most ``STEP`` conflicts."""
        began, work = self.conflicts, 0
        decided, cells = False, None
        while work < conflicts:
            if stop is not None and stop():
                return None
            answer, total, model = off_main_thread(partial(self._call, min(STEP, conflicts - work)))
            work += max(ROUND_CONFLICTS, total - self.conflicts)
            self.conflicts = total
            if answer is None:
                continue
            decided = True
            if not answer:
                break
            assert model is not None  # a model comes with every yes
            if self.edges is None:
                assert self.encoding is not None
                cells = self.encoding.placement(model)
                break
            pieces = self.edges.pieces(model)
            if len(pieces) == 1:
                cells = self.edges.placement(model)
                break
            decided = False
            cuts = list(self.edges.cycles(pieces, model))
            off_main_thread(partial(self._add, cuts))
            self.cuts += len(cuts)
        out = Slice(self.slices, self.conflicts - began, decided, cells)
        self.slices += 1
        return out

    def slices_of(self, conflicts: int = SLICE) -> Iterator[Slice]:
        """Slices of ``conflicts`` until the search is decided."""
        while True:
            s = self.run(conflicts)
            assert s is not None  # no stop asked
            yield s
            if s.decided:
                return

    # Every python-sat call is made by off_main_thread's helper: made from the main thread,
    # python-sat puts its own Ctrl-C handler around it and jumps out of CaDiCaL, which left
    # the solver broken (its destructor crashed the process, SIGSEGV, in about one of a
    # hundred Ctrl-Cs of the bent 729-cube snake's proof on a busy machine).
    def _call(self, step: int) -> tuple[bool | None, int, list[int] | None]:
        """One solver call of at most ``step`` conflicts: its answer, the conflicts so far,
        and the model when it found one."""
        self.solver.conf_budget(step)
        answer = self.solver.solve_limited()
        total = int(self.solver.accum_stats().get("conflicts", 0))
        return answer, total, self.solver.get_model() if answer else None

    def _add(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self.solver.add_clause(clause)

    def close(self) -> None:
        off_main_thread(self.solver.delete)


# A count of a snake whose corners follow the colouring first asks the edge model for a proof
# that it does not fold, for at most this many conflicts (the proofs of docs/bent-snakes.md
# take 0-3,000; a count of a snake that folds goes on at once when the model finds a fold).
REFUTE_CONFLICTS = 20_000


def refute(problem: Problem, stop: Callable[[], bool] | None = None) -> int | None:
    """The conflicts the edge model took to prove that ``problem``'s snake does not fold, or
    None if it found a fold, ran out of ``REFUTE_CONFLICTS``, or ``stop()`` said so."""
    search = SatSearch(problem)
    try:
        while search.conflicts < REFUTE_CONFLICTS:
            got = search.run(SLICE, stop)
            if got is None:
                return None
            if got.decided:
                return search.conflicts if got.cells is None else None
        return None
    finally:
        search.close()


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
        if not available():
            return "the SAT member needs python-sat: pip install 'snakecube[sat]'"
        if problem.ncells > POSITION_CELLS and edges.pattern(problem.snake) is None:
            return (
                f"the SAT member takes targets of up to {POSITION_CELLS} cells, or snakes "
                "whose corners follow the grid's colouring (every inner cube a corner, or "
                f"corners on alternate cubes); this target has {problem.ncells}"
            )
        return None

    @classmethod
    def make(cls, problem: Problem, setting: object) -> SatMember:
        """The SAT member of ``problem`` (deterministic: it needs no seed)."""
        return cls(problem)

    def place(self, n: int) -> int:
        """Where slice ``n`` ends on the portfolio's scale of work."""
        return (n + 1) * SLICE * NODES_PER_CONFLICT

    def run(self, n: int, stop: Callable[[], bool] | None = None) -> Slice | None:
        """The next slice of ``SLICE`` conflicts; None if ``stop()`` said so on the way."""
        if self.solver is None:
            self.solver = SatSearch(self.problem)
        return self.solver.run(SLICE, stop)

    def settles(self, run: object) -> bool:
        """A placement, or a proof that there is none, ends the search."""
        assert isinstance(run, Slice)
        return run.decided

    def close(self) -> None:
        """Free the solver, if one was made."""
        if self.solver is not None:
            self.solver.close()
