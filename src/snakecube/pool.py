"""Worker processes: the one helper behind every parallel job (search units, census units,
design checks).

* Workers are **forked**, so they inherit what the parent built (problems, tables, engines)
  and nothing big is pickled; only job items and results travel through queues.
* Workers **ignore SIGINT**: Ctrl-C reaches the whole process group, and the parent alone
  decides what to keep; no worker ever prints a ``KeyboardInterrupt`` traceback. SIGTERM and
  SIGHUP end a worker at once (whatever handler the parent had for them).
* Workers **die with their parent**: killed by any signal (SIGTERM, SIGKILL, the OOM killer),
  the parent leaves no worker running (``PR_SET_PDEATHSIG`` on Linux, else a thread that
  watches the parent's pid).
* A job that **raises** sends a summary of its exception, and the caller re-raises it: an
  ``OSError`` as an ``OSError`` with the same errno, strerror and file names, an
  ``InputError`` as ``InputError``, a ``MemoryError`` as ``MemoryError``, anything else as
  :class:`WorkerError`. No worker prints anything.
* A job is a generator: each item it yields is sent back at once (``Event``), and a last
  event marks the job done. The caller gets events in arrival order.
* At most ``lookahead`` jobs are handed out ahead of the results, so ``items`` may be a
  lazy, even endless, iterable.
* A worker that dies (killed, out of memory) while its job has sent nothing yet gets its job
  redone by a new worker, up to ``retries`` times; otherwise :class:`WorkerDied` is raised.
* Closing the iterator (or an exception in the caller) terminates the workers.
* In the command, a Ctrl-C that Python dropped (raised inside a finalizer, such as a worker's
  ``Process`` object being freed) is raised again at the next poll (``stop.poll``).

``SMALL_JOB_CELLS``: targets of at most this many cells are always run in one process, by
every command: forking costs more than the whole job there.
"""

from __future__ import annotations

import itertools
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Generic, NamedTuple, NoReturn, TypeVar

from snakecube import stop
from snakecube.errors import InputError
from snakecube.limits import cores

__all__ = ["SMALL_JOB_CELLS", "Event", "WorkerDied", "WorkerError", "cores", "follow_parent", "run"]

SMALL_JOB_CELLS = 27
T = TypeVar("T")
R = TypeVar("R")


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its job (killed, or out of memory)."""


class WorkerError(RuntimeError):
    """A job raised an exception in a worker process (one line: its type and message)."""


class _Failure(NamedTuple):
    """A job's exception, as plain values that pickle whatever the exception held."""

    kind: str  # "OSError", "InputError", "MemoryError" or "other"
    name: str  # the exception's type name
    message: str
    errno: int | None = None
    strerror: str | None = None
    filename: str | None = None
    filename2: str | None = None

    @classmethod
    def of(cls, err: BaseException) -> _Failure:
        message = " ".join(str(err).split())
        if isinstance(err, OSError):
            return cls(
                "OSError",
                type(err).__name__,
                message,
                err.errno,
                err.strerror,
                None if err.filename is None else os.fsdecode(err.filename),
                None if err.filename2 is None else os.fsdecode(err.filename2),
            )
        kind = (
            "InputError"
            if isinstance(err, InputError)
            else "MemoryError"
            if isinstance(err, MemoryError)
            else "other"
        )
        return cls(kind, type(err).__name__, message)

    def reraise(self) -> NoReturn:
        if self.kind == "OSError":
            if self.errno is None:
                raise OSError(self.message)
            # OSError(errno, ...) makes the matching subclass (FileNotFoundError, ...).
            raise OSError(self.errno, self.strerror, self.filename, None, self.filename2)
        if self.kind == "InputError":
            raise InputError(self.message)
        if self.kind == "MemoryError":
            raise MemoryError(self.message)
        raise WorkerError(f"a worker process failed: {self.name}: {self.message}")


class Event(NamedTuple, Generic[R]):
    """What a job sent: ``value`` (None with ``done``), for job number ``job``."""

    job: int
    value: Any
    done: bool


# Signals blocked across the fork, so none reaches a new worker before it has set its own
# handlers (the parent's, inherited, may raise KeyboardInterrupt).
_BLOCKED = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
WATCH_SECONDS = 0.5  # where there is no prctl: how often a worker checks its parent
_PRCTL = sys.platform.startswith("linux")  # False: watch the parent's pid instead


def follow_parent(parent: int) -> None:
    """End this worker when the process ``parent`` ends, however it ends."""
    done = False
    if _PRCTL:
        import ctypes  # in workers only: the page's Python (Pyodide) has no _ctypes to load

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            # The signal comes when the *thread* that forked this process ends; workers are
            # forked from the thread that runs ``run`` (the main thread, in every command).
            done = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            done = False
    # The parent may have died before the prctl: this process then has another parent.
    if os.getppid() != parent:
        os._exit(1)
    if not done:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(WATCH_SECONDS)
            os._exit(1)

        threading.Thread(target=watch, name="snakecube-watch-parent", daemon=True).start()


def _loop(job: Callable[[Any], Iterator[Any]], tasks: Any, results: Any, parent: int) -> None:
    follow_parent(parent)
    stop.worker()  # SIGINT ignored: the parent decides when to stop
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)
    while True:
        task = tasks.get()
        if task is None:
            return
        i, item = task
        try:
            for value in job(item):
                results.put((i, value, False))
        except Exception as err:  # sent to the parent, which raises it; nothing printed here
            results.put((i, _Failure.of(err), True))
            continue
        results.put((i, None, True))


# One generator owns the workers, their queues and the redo bookkeeping, so that closing it (or an
# exception in the caller) always ends every worker (its finally).
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
    crew = _Crew(job, retries)
    ahead = lookahead if lookahead is not None else 2 * workers
    source = enumerate(items)
    for w in range(max(1, workers)):
        crew.start(w)
    for w in itertools.islice(itertools.cycle(range(len(crew.procs))), ahead):
        if not crew.feed(w, source):
            break
    try:
        while any(crew.running.values()):
            stop.poll()  # a Ctrl-C dropped inside a finalizer (a worker's) still stops
            try:
                i, value, done = crew.results.get(timeout=poll)
            except queue.Empty:
                crew.replace_the_dead(source)
                yield None
                continue
            if isinstance(value, _Failure):
                value.reraise()
            if done:
                holder = next((w for w, jobs in crew.running.items() if i in jobs), None)
                if holder is None:
                    continue  # a job redone after its worker died had already finished
                del crew.running[holder][i]
                crew.feed(holder, source)
            else:
                crew.heard.add(i)
            yield Event(i, value, done)
    finally:
        crew.close()


class _Crew:
    """The forked workers of one :func:`run`: their processes and inboxes, the jobs each
    holds, and the jobs to redo after a worker died."""

    def __init__(self, job: Callable[[Any], Iterator[Any]], retries: int) -> None:
        import multiprocessing  # imported here: only parallel jobs pay for it

        self.ctx = multiprocessing.get_context("fork")
        self.job, self.retries = job, retries
        self.results: Any = self.ctx.Queue()
        self.procs: list[Any] = []
        self.inboxes: list[Any] = []
        self.running: dict[int, dict[int, Any]] = {}  # worker -> its jobs (number -> item)
        self.heard: set[int] = set()  # jobs that have sent at least one event
        self.tries: dict[int, int] = {}
        self.pending: list[tuple[int, Any]] = []  # jobs to redo after a worker died
        self.parent = os.getpid()

    def start(self, w: int) -> None:
        """Worker ``w``, started (or started again), with signals blocked while it forks."""
        inbox = self.ctx.Queue()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
        try:
            p = self.ctx.Process(
                target=_loop, args=(self.job, inbox, self.results, self.parent), daemon=True
            )
            p.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if w < len(self.procs):
            self.procs[w], self.inboxes[w] = p, inbox
        else:
            self.procs.append(p)
            self.inboxes.append(inbox)
        self.running[w] = {}

    def feed(self, w: int, source: Iterator[tuple[int, Any]]) -> bool:
        """Give worker ``w`` its next job (one to redo first); False when there is none."""
        task = self.pending.pop(0) if self.pending else next(source, None)
        if task is None:
            return False
        self.running[w][task[0]] = task[1]
        self.inboxes[w].put(task)
        return True

    def replace_the_dead(self, source: Iterator[tuple[int, Any]]) -> None:
        """Replace a worker that died; redo its jobs if they had sent nothing yet."""
        for w, p in enumerate(self.procs):
            if p.is_alive() or not self.running[w]:
                continue
            lost = self.running[w]
            for i, item in sorted(lost.items()):
                self.tries[i] = self.tries.get(i, 0) + 1
                if i in self.heard or self.tries[i] > self.retries:
                    raise WorkerDied(
                        f"a worker process died (exit code {p.exitcode}) while running job {i}"
                    )
                self.pending.append((i, item))
            self.start(w)
            for _ in range(len(lost)):
                self.feed(w, source)

    def close(self) -> None:
        """Stop the workers and close the queues."""
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            p.join(timeout=5)
        for q in (self.results, *self.inboxes):
            q.cancel_join_thread()
            q.close()
