"""Run the work units of a plan in parallel processes, streaming what they find.

Workers are forked, so they inherit the compiled problem and the loaded engine. Each takes unit
numbers from a task queue and sends back, after every tick and at the end of a unit, the
placements it found and the nodes it visited. The caller gets events in arrival order and
sorts by unit at the end, so the answer is identical to a single process. On a time limit or
Ctrl-C the workers are stopped and everything already sent is kept.
"""

from __future__ import annotations

import os
import queue
import signal
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from snakecube.search.plan import Plan
from snakecube.search.problem import Problem
from snakecube.search.reference import Stats

if TYPE_CHECKING:
    import multiprocessing as mp

Event = tuple[int, list[tuple[int, ...]], int, bool]  # unit, placements, nodes, unit done


def _worker(problem: Problem, plan: Plan, engine: ModuleType, tasks: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    while True:
        i = tasks.get()
        if i is None:
            return
        stats = Stats()
        found: list[tuple[int, ...]] = []
        sent = 0
        for item in engine.search(problem, plan.units[i], stats):
            if item is not None:
                found.append(item)
            elif found or stats.nodes - sent > 10_000_000:
                results.put((i, found, stats.nodes - sent, False))
                found, sent = [], stats.nodes
        results.put((i, found, stats.nodes - sent, True))


def run(
    problem: Problem, plan: Plan, engine: ModuleType, workers: int, poll: float = 0.05
) -> Iterator[Event | None]:
    """Yield events as workers send them, and ``None`` every ``poll`` seconds when idle.

    Closing the generator (or an exception in the consumer) stops the workers.
    """
    import multiprocessing  # imported here: only parallel searches pay for it

    ctx = multiprocessing.get_context("fork")
    tasks: mp.Queue = ctx.Queue()
    results: mp.Queue = ctx.Queue()
    for i in range(len(plan.units)):
        tasks.put(i)
    workers = max(1, min(workers, len(plan.units)))
    for _ in range(workers):
        tasks.put(None)
    procs = [
        ctx.Process(target=_worker, args=(problem, plan, engine, tasks, results), daemon=True)
        for _ in range(workers)
    ]
    for p in procs:
        p.start()
    remaining = len(plan.units)
    try:
        while remaining:
            try:
                event = results.get(timeout=poll)
            except queue.Empty:
                if not any(p.is_alive() for p in procs) and results.empty():
                    raise RuntimeError("a search worker died") from None
                yield None
                continue
            remaining -= event[3]
            yield event
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
        for q in (tasks, results):
            q.cancel_join_thread()
            q.close()


def cores() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
