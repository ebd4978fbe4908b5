"""Worker processes: the one helper behind every parallel job (search units, census units,
design checks).

* Workers are **forked**, so they inherit what the parent built (problems, tables, engines)
  and nothing big is pickled; only job items and results travel through queues.
* Workers **ignore SIGINT**: Ctrl-C reaches the whole process group, and the parent alone
  decides what to keep; no worker ever prints a ``KeyboardInterrupt`` traceback.
* A job is a generator: each item it yields is sent back at once (``Event``), and a last
  event marks the job done. The caller gets events in arrival order.
* At most ``lookahead`` jobs are handed out ahead of the results, so ``items`` may be a
  lazy, even endless, iterable.
* A worker that dies (killed, out of memory) while its job has sent nothing yet gets its job
  redone by a new worker, up to ``retries`` times; otherwise :class:`WorkerDied` is raised.
* Closing the iterator (or an exception in the caller) terminates the workers.

``SMALL_JOB_CELLS``: targets of at most this many cells are always run in one process, by
every command: forking costs more than the whole job there.
"""

from __future__ import annotations

import itertools
import queue
import signal
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Generic, NamedTuple, TypeVar

from snakecube.limits import cores

__all__ = ["SMALL_JOB_CELLS", "Event", "WorkerDied", "cores", "run"]

SMALL_JOB_CELLS = 27
T = TypeVar("T")
R = TypeVar("R")


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its job (killed, or out of memory)."""


class Event(NamedTuple, Generic[R]):
    """What a job sent: ``value`` (None with ``done``), for job number ``job``."""

    job: int
    value: Any
    done: bool


def _loop(job: Callable[[Any], Iterator[Any]], tasks: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    while True:
        task = tasks.get()
        if task is None:
            return
        i, item = task
        for value in job(item):
            results.put((i, value, False))
        results.put((i, None, True))


def run(
    job: Callable[[T], Iterator[R]],
    items: Iterable[T],
    workers: int,
    *,
    lookahead: int | None = None,
    retries: int = 1,
    poll: float = 0.05,
) -> Generator[Event[R] | None, None, None]:
    """Run ``job(item)`` for every item on ``workers`` forked processes.

    Yields an :class:`Event` for every value a job yields and one (``done=True``) when it
    ends, and ``None`` every ``poll`` seconds while nothing arrives, so the caller can
    check time limits and progress.
    """
    import multiprocessing  # imported here: only parallel jobs pay for it

    ctx = multiprocessing.get_context("fork")
    results: Any = ctx.Queue()
    source = enumerate(items)
    ahead = lookahead if lookahead is not None else 2 * workers
    procs: list[Any] = []
    inboxes: list[Any] = []
    running: dict[int, dict[int, Any]] = {}  # worker -> the jobs it holds (number -> item)
    heard: set[int] = set()  # jobs that have sent at least one event
    tries: dict[int, int] = {}
    pending: list[tuple[int, Any]] = []  # jobs to redo after a worker died

    def start(w: int) -> None:
        inbox = ctx.Queue()
        # SIGINT is blocked across the fork, so a Ctrl-C cannot reach the child before it
        # ignores SIGINT.
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            p = ctx.Process(target=_loop, args=(job, inbox, results), daemon=True)
            p.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if w < len(procs):
            procs[w], inboxes[w] = p, inbox
        else:
            procs.append(p)
            inboxes.append(inbox)
        running[w] = {}

    def feed(w: int) -> bool:
        task = pending.pop(0) if pending else next(source, None)
        if task is None:
            return False
        running[w][task[0]] = task[1]
        inboxes[w].put(task)
        return True

    for w in range(max(1, workers)):
        start(w)
    for w in itertools.islice(itertools.cycle(range(len(procs))), ahead):
        if not feed(w):
            break
    try:
        while any(running.values()):
            try:
                i, value, done = results.get(timeout=poll)
            except queue.Empty:
                _check_alive(procs, running, heard, tries, retries, pending, start, feed)
                yield None
                continue
            if done:
                holder = next((w for w, jobs in running.items() if i in jobs), None)
                if holder is None:
                    continue  # a job redone after its worker died had already finished
                del running[holder][i]
                feed(holder)
            else:
                heard.add(i)
            yield Event(i, value, done)
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
        for q in (results, *inboxes):
            q.cancel_join_thread()
            q.close()


def _check_alive(
    procs: list[Any],
    running: dict[int, dict[int, Any]],
    heard: set[int],
    tries: dict[int, int],
    retries: int,
    pending: list[tuple[int, Any]],
    start: Callable[[int], None],
    feed: Callable[[int], bool],
) -> None:
    """Replace a worker that died; redo its jobs if they had sent nothing yet."""
    for w, p in enumerate(procs):
        if p.is_alive() or not running[w]:
            continue
        lost = running[w]
        for i, item in sorted(lost.items()):
            tries[i] = tries.get(i, 0) + 1
            if i in heard or tries[i] > retries:
                raise WorkerDied(
                    f"a worker process died (exit code {p.exitcode}) while running job {i}"
                )
            pending.append((i, item))
        start(w)
        for _ in range(len(lost)):
            feed(w)
