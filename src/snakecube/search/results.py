"""From what a search found to a ``Result``: every solution verified, counts per start class.

A solution reaches the caller only after ``Solution.verify`` (code that shares nothing with
the search) accepts it; an invalid one is an engine bug, never bad input.

The time limit bounds this work too. :class:`Found` verifies and reduces (its classes up to
reversal and rotations) each solution as it arrives, and checks the limit before each one:
verifying a solution of 1,000 cubes takes milliseconds, and a search of a 10x10x10
serpentine finds thousands of them in a burst, which took twice the search's time again
after it had stopped. A solution left unverified at the limit is not reported (nor counted):
the result is incomplete, its counts lower bounds, as for any search stopped by its limit.
"""

from __future__ import annotations

import time
from dataclasses import replace

from snakecube.search.options import Budget
from snakecube.search.plan import Plan
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex
from snakecube.solution import Result, Solution, StartClassCount
from snakecube.stop import StopReason
from snakecube.symmetry import RotationClasses
from snakecube.verify import InvalidSolution

# Seconds a found solution takes after the search (the result's output: JSON, text), kept
# back from the time limit.
OUTPUT_SECONDS = 2e-5


def verified(sol: Solution) -> Solution:
    """``sol``, once it has passed the independent check."""
    try:
        sol.verify()
    except InvalidSolution as err:
        raise RuntimeError(f"the search produced an invalid solution: {err}") from err
    return sol


def of_unit(problem: Problem, plan: Plan, unit: int, dirs: tuple[int, ...]) -> Solution:
    """The verified solution of a placement found under the plan's unit number ``unit``."""
    u = plan.units[unit]
    kind = plan.start_classes[u.start_class].kind
    return verified(
        Solution(problem.snake, problem.region, tuple(problem.path(u.start, dirs)), kind)
    )


def of_cells(problem: Problem, cells: tuple[CellIndex, ...]) -> Solution:
    """The verified solution with these cells, in snake order."""
    region = problem.region
    return verified(Solution(problem.snake, region, cells, region.cell_kind(cells[0])))


def orbit_of(problem: Problem, cell: CellIndex) -> int:
    """The start class (the plan's, in order: the region's orbits) of a first cube's cell."""
    return next(i for i, o in enumerate(problem.region.orbits()) if cell in o)


class Found:
    """The solutions of one search as they arrive, in its plan's units: each verified, and
    reduced (its classes up to reversal and rotations), before the next, within the budget's
    time; ``again``: each will be verified again when read from the other end
    (:func:`read_forwards`), which is kept back from the time too."""

    def __init__(self, problem: Problem, plan: Plan, budget: Budget, again: bool = False):
        self.problem, self.plan, self.budget, self.again = problem, plan, budget, again
        self.by_unit: list[list[Solution]] = [[] for _ in plan.units]
        self.count = 0
        self._verifying = 0.0  # seconds spent verifying
        self._reversal: set[tuple[CellIndex, ...]] = set()
        snake = problem.snake
        self._rotations = RotationClasses(problem.region, plan.multiplier, snake.is_palindrome)

    def reserve(self) -> float:
        """Seconds the solutions found so far still need after the search."""
        return self.count * OUTPUT_SECONDS + (self._verifying if self.again else 0.0)

    def add(self, unit: int, dirs: tuple[int, ...]) -> bool:
        """Verify and keep the placement ``dirs`` found under the plan's unit ``unit``, or,
        once the time is up, keep nothing and answer False."""
        if self.budget.out_of_time(self.reserve()):
            return False
        began = time.monotonic()
        sol = of_unit(self.problem, self.plan, unit, dirs)
        self._verifying += time.monotonic() - began
        self.by_unit[unit].append(sol)
        self.count += 1
        if self.problem.snake.is_palindrome:
            self._reversal.add(sol.canonical(reversal=True))
        self._rotations.add(sol.path)
        return True

    def result(self, stop: StopReason | None, engine: str, nodes: int, workers: int = 1) -> Result:
        """The result of the search, stopped for ``stop`` (None: complete)."""
        plan = self.plan
        per_class = [0] * len(plan.start_classes)
        for u, unit_sols in zip(plan.units, self.by_unit, strict=True):
            per_class[u.start_class] += len(unit_sols)
        sols = [s for unit in self.by_unit for s in unit]
        reversal = len(self._reversal) if self.problem.snake.is_palindrome else len(sols)
        result = build(
            self.problem, plan, sols, per_class, stop, engine, nodes, self.budget, workers, reversal
        )
        return replace(result, rotation_classes=self._rotations.counts())


def build(
    problem: Problem,
    plan: Plan,
    found: list[Solution],
    per_class: list[int],
    stop: StopReason | None,
    engine: str,
    nodes: int,
    budget: Budget,
    workers: int = 1,
    up_to_reversal: int | None = None,
) -> Result:
    """The result of a search of ``problem`` under ``plan`` that found ``found`` (with
    ``up_to_reversal`` classes, if counted already)."""
    snake, region = problem.snake, problem.region
    if up_to_reversal is None:
        up_to_reversal = _up_to_reversal(snake.is_palindrome, found)
    classes = tuple(
        StartClassCount(c.kind, region.cells[c.cell], c.size, n, n * plan.multiplier)
        for c, n in zip(plan.start_classes, per_class, strict=True)
    )
    return Result(
        snake=snake,
        region=region,
        solutions=tuple(found),
        placements=len(found) * plan.multiplier,
        distinct=len(found),
        distinct_up_to_reversal=up_to_reversal,
        complete=stop is None,
        stop_reason=stop,
        symmetry_count=len(region.symmetries),
        start_classes=classes,
        fixed=plan.fixed,
        engine=engine,
        workers=workers,
        nodes=nodes,
        seconds=budget.elapsed(),
    )


def read_forwards(result: Result, problem: Problem, budget: Budget | None = None) -> Result:
    """A result found from the snake's last end, told from its first (``problem``): each
    solution's cells reversed (and verified again), start classes counted by the new first
    cube. Past ``budget``'s time (which :class:`Found` keeps back for this) the rest are
    left out, and the result is incomplete."""
    found = []
    per_orbit = [0] * len(problem.region.orbits())
    for s in result.solutions:
        if budget is not None and budget.past():  # time only: a stopped search keeps these
            break
        cells = s.path[::-1]
        found.append(of_cells(problem, cells))
        per_orbit[orbit_of(problem, cells[0])] += 1
    multiplier = result.placements // result.distinct if result.distinct else 0
    classes = tuple(
        replace(c, distinct=n, placements=n * multiplier)
        for c, n in zip(result.start_classes, per_orbit, strict=True)
    )
    forwards = replace(
        result,
        snake=problem.snake,
        solutions=tuple(found),
        start_classes=classes,
        searched_from_last=True,
    )
    if len(found) == len(result.solutions):
        return forwards
    reversal = _up_to_reversal(problem.snake.is_palindrome, found)
    return replace(
        forwards,
        placements=len(found) * multiplier,
        distinct=len(found),
        distinct_up_to_reversal=reversal,
        complete=False,
        stop_reason=StopReason.SECONDS,
        rotation_classes=None,
    )


def _up_to_reversal(palindrome: bool, found: list[Solution]) -> int:
    """How many classes up to reversal the distinct solutions ``found`` make."""
    return len({s.canonical(reversal=True) for s in found}) if palindrome else len(found)
