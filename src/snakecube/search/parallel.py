"""Run the work units of a plan in parallel processes, streaming what they find.

Workers (see ``snakecube.pool``) take unit numbers and send back, after every tick that found
something (or at least every second) and at the end of a unit, the placements found and the
nodes visited. The caller gets events in arrival order and sorts by unit at the end, so the
answer is identical to a single process. On a time limit or Ctrl-C the workers are stopped
and everything already sent is kept.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Iterator

from snakecube import pool
from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.plan import Plan
from snakecube.search.problem import Problem

Event = tuple[int, list[Placement], int, bool]  # unit, placements, nodes, unit done
REPORT_SECONDS = 1.0  # a worker reports at least this often, even with nothing found


def run(
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


def run_on_cluster(
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
