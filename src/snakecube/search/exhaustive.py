"""Depth first over the plan's work units: one engine, in this process, in worker processes
or as tasks on a Dask cluster; the answer is the same, solutions in the plan's unit order.
"""

from __future__ import annotations

from collections.abc import Generator

from snakecube.search import parallel
from snakecube.search.budget import Budget
from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.inputs import Inputs
from snakecube.search.plan import Plan, make_plan
from snakecube.search.problem import Problem
from snakecube.search.results import build, of_unit
from snakecube.solution import Result, Solution

CLUSTER_UNITS = 256  # at least this many work units for a count on a Dask cluster
Event = tuple[int, list[Placement], int, bool]  # unit, placements, nodes, unit done


def serial(problem: Problem, plan: Plan, engine: Engine) -> Generator[Event | None, None, None]:
    """The parallel runner's events, from this process: units in order, nodes as they go."""
    for i, unit in enumerate(plan.units):
        stats = Stats()
        seen = 0
        for dirs in engine.search(problem, unit, stats):
            if dirs is None:
                yield i, [], stats.nodes - seen, False
            else:
                yield i, [dirs], stats.nodes - seen, False
            seen = stats.nodes
        yield i, [], stats.nodes - seen, True


POST_SECONDS, POST_SECONDS_PALINDROME = 2e-5, 1.5e-4  # seconds after the search, a solution


def depth_first(
    inputs: Inputs, engine: Engine, workers: int, scheduler: str | None, budget: Budget
) -> Result:
    """The engine over the plan's units, in order (locally, in ``workers`` processes, or on
    the Dask cluster at ``scheduler``), within ``budget``."""
    problem = inputs.problem
    units = CLUSTER_UNITS if scheduler is not None else 16 * workers
    plan = make_plan(problem, inputs.start, inputs.prefix, min_units=units)
    if workers > 1 or scheduler is not None:
        engine.warm(problem)  # build tables once, before the workers fork
    if scheduler is not None or (workers > 1 and len(plan.units) > 1):
        if scheduler is not None:
            events = parallel.run_on_cluster(problem, plan, engine, scheduler)
        else:
            events = parallel.run(problem, plan, engine, workers)
    else:
        events = serial(problem, plan, engine)
    by_unit: list[list[Solution]] = [[] for _ in plan.units]
    nodes, stop = _drain(events, problem, plan, by_unit, budget)
    sols = [s for unit in by_unit for s in unit]
    per_class = [0] * len(plan.start_classes)
    for u, unit_sols in zip(plan.units, by_unit, strict=True):
        per_class[u.start_class] += len(unit_sols)
    return build(problem, plan, sols, per_class, stop, engine.name, nodes, budget, workers)


def _drain(
    events: Generator[Event | None, None, None],
    problem: Problem,
    plan: Plan,
    by_unit: list[list[Solution]],
    budget: Budget,
) -> tuple[int, str | None]:
    """Read the runner's events into ``by_unit`` until it ends or the budget says stop:
    (nodes, stop reason or None). Ctrl-C stops it too."""
    done = found = nodes = 0
    stop: str | None = None
    # The classes up to reversal and rotations are counted once the search ends, from canonical
    # forms of every solution found (palindromes: 0.12 ms each, measured on 4x4x4, 2026-11-25),
    # so a time limit keeps that time back: the whole answer comes within the limit.
    per_solution = POST_SECONDS_PALINDROME if problem.snake.is_palindrome else POST_SECONDS
    try:
        for event in events:
            if event is not None:
                unit, placements, visited, finished = event
                nodes += visited
                done += finished
                for dirs in placements:
                    by_unit[unit].append(of_unit(problem, plan, unit, dirs))
                    found += 1
                    if budget.enough(found):
                        stop = "limit"
                        break
                if stop:
                    break
            budget.report(done, len(plan.units), found)
            if budget.out_of_time(found * per_solution):
                stop = "seconds"
                break
            if budget.out_of_nodes(nodes):
                stop = "nodes"  # deterministic, unlike a time limit
                break
    except KeyboardInterrupt:
        stop = "interrupted"
    finally:
        events.close()
    return nodes, stop
