"""The engine: plan the root, run an engine over the work units, verify and count what it finds.

``solutions()`` is the one generator; ``solve()`` and ``count()`` are ways of consuming it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType

from snakecube.errors import InputError
from snakecube.search import reference
from snakecube.search.plan import Plan, make_plan, prefix_from_path
from snakecube.search.problem import Problem
from snakecube.shape import Box, Coord, Region
from snakecube.snake import Snake
from snakecube.solution import Result, Solution, StartClassCount
from snakecube.verify import InvalidSolution

ENGINE_ENV = "SNAKECUBE_ENGINE"  # set to "reference" to force the pure-Python search
Target = Region | str | tuple[int, int, int] | None
Progress = Callable[[int, int, int], None]  # (units done, units in all, solutions found)


def as_target(target: Target, snake: Snake | None = None) -> Region:
    """A Region from a Region, an ``AxBxC`` string, a 3-tuple, or None (the snake's cube)."""
    if isinstance(target, Region):
        return target
    if target is None:
        if snake is None:
            raise InputError("no target given")
        return Box.cube(snake.cubes)
    if isinstance(target, str):
        return Box.parse(target)
    if isinstance(target, tuple | list) and len(target) == 3:
        return Box(*target)
    raise InputError(f"unknown target {target!r}: give a Region, 'AxBxC' or (a, b, c)")


def prepare(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
    min_units: int = 1,
) -> tuple[Problem, Plan]:
    """Parse and compile the inputs and plan the search."""
    region = None if target is None else as_target(target)
    if isinstance(snake, str):
        snake = Snake.parse(snake, cubes=None if region is None else region.volume)
    if reverse:
        snake = snake.reversed()
    region = as_target(target, snake) if region is None else region
    problem = Problem.build(snake, region)
    if path is not None and start is not None and tuple(path[0]) != tuple(start):
        raise InputError("the fixed start and the first cell of the fixed path differ")
    if path is None and start is not None:
        path = [start]
    if path is None:
        return problem, make_plan(problem, min_units=min_units)
    cell, dirs = prefix_from_path(problem, path)
    return problem, make_plan(problem, cell, dirs, min_units=min_units)


def choose_engine(problem: Problem, requested: str | None = None) -> ModuleType:
    """The engine module to use: ``requested``, else $SNAKECUBE_ENGINE, else automatic."""
    name = requested or os.environ.get(ENGINE_ENV) or "auto"
    if name in ("auto", "reference"):
        return reference
    raise InputError(f"unknown engine {name!r}; expected auto or reference")


def _walk(
    problem: Problem, plan: Plan, engine: ModuleType, stats: reference.Stats
) -> Iterator[tuple[int, Solution | None]]:
    """(unit index, verified solution or None for a tick) over the whole plan, in order."""
    for i, unit in enumerate(plan.units):
        kind = plan.start_classes[unit.start_class].kind
        for dirs in engine.search(problem, unit, stats):
            if dirs is None:
                yield i, None
                continue
            sol = Solution(
                problem.snake, problem.region, tuple(problem.path(unit.start, dirs)), kind
            )
            try:
                sol.verify()
            except InvalidSolution as err:  # a bug in an engine, never bad input
                raise RuntimeError(
                    f"engine {engine.NAME} produced an invalid solution: {err}"
                ) from err
            yield i, sol
        yield i + 1, None


def solutions(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
    engine: str | None = None,
) -> Iterator[Solution]:
    """Lazily yield one verified solution per distinct class, in a deterministic order.

    >>> next(solutions("ESCSCSCSCCCCSCSCCCSCCSCCCSE")).direction_names()[:3]
    ['+x', '+y', '-x']
    """
    problem, plan = prepare(snake, target, start=start, path=path, reverse=reverse)
    chosen = choose_engine(problem, engine)
    for _, sol in _walk(problem, plan, chosen, reference.Stats()):
        if sol is not None:
            yield sol


def solve(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
    limit: int | None = None,
    seconds: float | None = None,
    engine: str | None = None,
    progress: Progress | None = None,
) -> Result:
    """Count and collect the solutions, honouring a solution limit and a time limit.

    Ctrl-C (KeyboardInterrupt) stops the search; the result keeps what was found and is
    marked incomplete with ``stop_reason == "interrupted"``.

    >>> r = solve("standard")
    >>> r.placements, r.distinct, r.complete
    (48, 1, True)
    """
    if limit is not None and limit < 1:
        raise InputError(f"the solution limit must be at least 1, not {limit}")
    if seconds is not None and seconds <= 0:
        raise InputError(f"the time limit must be positive, not {seconds}")
    began = time.monotonic()
    problem, plan = prepare(snake, target, start=start, path=path, reverse=reverse)
    chosen = choose_engine(problem, engine)
    deadline = None if seconds is None else began + seconds
    stats = reference.Stats()
    found: list[Solution] = []
    per_class = [0] * len(plan.start_classes)
    stop: str | None = None
    walk = _walk(problem, plan, chosen, stats)
    try:
        for done, sol in walk:
            if sol is not None:
                found.append(sol)
                per_class[plan.units[done].start_class] += 1
                if limit is not None and len(found) >= limit:
                    stop = "limit"
                    break
            elif progress is not None:
                progress(done, len(plan.units), len(found))
            if deadline is not None and time.monotonic() > deadline:
                stop = "seconds"
                break
    except KeyboardInterrupt:
        stop = "interrupted"
    finally:
        walk.close()
    return _result(problem, plan, found, per_class, stop, chosen.NAME, stats.nodes, began)


def _result(
    problem: Problem,
    plan: Plan,
    found: list[Solution],
    per_class: list[int],
    stop: str | None,
    engine: str,
    nodes: int,
    began: float,
) -> Result:
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
        symmetries=len(region.symmetries),
        start_classes=classes,
        fixed=plan.fixed,
        engine=engine,
        nodes=nodes,
        seconds=time.monotonic() - began,
    )


def count(snake: Snake | str, target: Target = None, **options: object) -> int:
    """The number of distinct solutions (up to the target's symmetries)."""
    return sum(1 for _ in solutions(snake, target, **options))  # type: ignore[arg-type]
