"""From what a search found to a ``Result``: every solution verified, counts per start class.

A solution reaches the caller only after ``Solution.verify`` (code that shares nothing with
the search) accepts it; an invalid one is an engine bug, never bad input.
"""

from __future__ import annotations

from dataclasses import replace

from snakecube.search.options import Budget
from snakecube.search.plan import Plan
from snakecube.search.problem import Problem
from snakecube.shape import CellIndex
from snakecube.solution import Result, Solution, StartClassCount
from snakecube.verify import InvalidSolution


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


def build(
    problem: Problem,
    plan: Plan,
    found: list[Solution],
    per_class: list[int],
    stop: str | None,
    engine: str,
    nodes: int,
    budget: Budget,
    workers: int = 1,
) -> Result:
    """The result of a search of ``problem`` under ``plan`` that found ``found``."""
    snake, region = problem.snake, problem.region
    if snake.is_palindrome:
        up_to_reversal = len({s.canonical(reversal=True) for s in found})
    else:
        up_to_reversal = len(found)
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


def read_forwards(result: Result, problem: Problem) -> Result:
    """A result found from the snake's last end, told from its first (``problem``): each
    solution's cells reversed, start classes counted by the new first cube."""
    found = []
    per_orbit = [0] * len(problem.region.orbits())
    for s in result.solutions:
        cells = s.path[::-1]
        found.append(of_cells(problem, cells))
        per_orbit[orbit_of(problem, cells[0])] += 1
    multiplier = result.placements // result.distinct if result.distinct else 0
    classes = tuple(
        replace(c, distinct=n, placements=n * multiplier)
        for c, n in zip(result.start_classes, per_orbit, strict=True)
    )
    return replace(result, snake=problem.snake, solutions=tuple(found),
                               start_classes=classes, searched_from_last=True)  # fmt: skip
