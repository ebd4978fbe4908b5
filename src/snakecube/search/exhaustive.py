"""Depth first over the plan's work units: one engine, in this process, in worker processes
or as tasks on a Dask cluster; the answer is the same, solutions in the plan's unit order.

In worker processes (see ``snakecube.pool``) the workers take unit numbers and send back,
after every tick that found something (or at least every second) and at the end of a unit,
the placements found and the nodes visited. The caller gets events in arrival order and sorts
by unit at the end, so the answer is identical to a single process. On a time limit or
Ctrl-C the workers are stopped and everything already sent is kept.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Iterator

from snakecube import pool
from snakecube import stop as stop_signal
from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.inputs import Inputs
from snakecube.search.options import Budget
from snakecube.search.plan import Plan, make_plan
from snakecube.search.problem import Problem
from snakecube.search.results import Found
from snakecube.solution import Result
from snakecube.stop import StopReason

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


def depth_first(
    inputs: Inputs,
    engine: Engine,
    workers: int,
    scheduler: str | None,
    budget: Budget,
    again: bool = False,
) -> Result:
    """The engine over the plan's units, in order (locally, in ``workers`` processes, or on
    the Dask cluster at ``scheduler``), within ``budget``; ``again``: the solutions will be
    verified again, read from the other end (time kept back for it)."""
    problem = inputs.problem
    units = CLUSTER_UNITS if scheduler is not None else 16 * workers
    plan = make_plan(problem, inputs.start, inputs.prefix, units, budget.deadline())
    if workers > 1 or scheduler is not None:
        engine.warm(problem)  # build tables once, before the workers fork
    if scheduler is not None or (workers > 1 and len(plan.units) > 1):
        if scheduler is not None:
            events = on_cluster(problem, plan, engine, scheduler)
        else:
            events = in_workers(problem, plan, engine, workers)
    else:
        events = serial(problem, plan, engine)
    found = Found(problem, plan, budget, again)
    nodes, stop = _drain(events, found, len(plan.units), budget)
    return found.result(stop, engine.name, nodes, workers)


def _drain(
    events: Generator[Event | None, None, None], found: Found, units: int, budget: Budget
) -> tuple[int, StopReason | None]:
    """Read the runner's events into ``found`` until it ends or the budget says stop:
    (nodes, stop reason or None). Ctrl-C stops it too. Each solution is verified and reduced
    as it comes (``Found``), within the time limit, so the whole answer comes within it."""
    done = nodes = 0
    stop: StopReason | None = None
    try:
        for event in events:
            stop_signal.poll()  # a Ctrl-C dropped inside a finalizer still stops
            if event is not None:
                unit, placements, visited, finished = event
                nodes += visited
                done += finished
                for dirs in placements:
                    if not _counted(found, unit, dirs):
                        continue  # a symmetric copy in a unit the plan's budget left whole
                    if not found.add(unit, dirs):
                        stop = StopReason.SECONDS
                        break
                    if budget.enough(found.count):
                        stop = StopReason.LIMIT
                        break
                if stop:
                    break
            budget.report(done, units, found.count)
            if budget.out_of_time(found.reserve()):
                stop = StopReason.SECONDS
                break
            if budget.out_of_nodes(nodes):
                stop = StopReason.NODES  # deterministic, unlike a time limit
                break
    except KeyboardInterrupt:
        stop = StopReason.INTERRUPTED
    finally:
        events.close()
    return nodes, stop


def _counted(found: Found, unit: int, dirs: Placement) -> bool:
    """Does this placement count? Always, unless its unit has a stabilizer the plan's budget
    left (``Plan.keeps``): then only one of its images does."""
    u = found.plan.units[unit]
    return not u.fixers or found.plan.keeps(found.problem, unit, found.problem.path(u.start, dirs))


REPORT_SECONDS = 1.0  # a worker reports at least this often, even with nothing found


def in_workers(
    problem: Problem, plan: Plan, engine: Engine, workers: int
) -> Generator[Event | None, None, None]:
    """Yield events as workers send them, and ``None`` while idle (see ``pool.run``)."""

    def unit_job(i: int) -> Iterator[tuple[list[Placement], int]]:
        stats = Stats()
        found: list[Placement] = []
        sent, last = 0, time.monotonic()
        for item in engine.search(problem, plan.units[i], stats):
            if item is not None:
                found.append(item)
            elif found or time.monotonic() - last > REPORT_SECONDS:
                yield found, stats.nodes - sent
                found, sent, last = [], stats.nodes, time.monotonic()
        yield found, stats.nodes - sent

    n = max(1, min(workers, len(plan.units)))
    for event in pool.run(unit_job, range(len(plan.units)), n, retries=0):
        if event is None:
            yield None
        elif event.done:
            yield event.job, [], 0, True
        else:
            found, nodes = event.value
            yield event.job, found, nodes, False


def on_cluster(
    problem: Problem, plan: Plan, engine: Engine, address: str
) -> Generator[Event | None, None, None]:
    """The same events, from the units run as tasks on the Dask cluster at ``address``
    (``snakecube.cluster``): each unit's placements arrive when its task ends."""
    from snakecube.cluster import connect, map_tasks  # the cluster extra

    def unit_job(i: int) -> Iterator[tuple[int, list[Placement], int]]:
        stats = Stats()
        found = [dirs for dirs in engine.search(problem, plan.units[i], stats) if dirs is not None]
        yield i, found, stats.nodes

    client = connect(address)
    try:
        todo = list(range(len(plan.units)))
        for unit, found, nodes in map_tasks(client, unit_job, todo, f"solve-{uuid.uuid4().hex}"):
            yield unit, found, nodes, False
            yield unit, [], 0, True
    finally:
        client.close()
