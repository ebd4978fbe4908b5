"""A bounded pool of search processes for the server.

Each slot is one long-lived worker process (started by a forkserver that has snakecube's
search loaded, so a fresh one is ready in milliseconds). A job runs in one slot; the event
loop only waits on the slot's pipe, so a compiled search never blocks it.

* A job that ends, with an answer or with bad input (``InputError``), leaves its worker warm
  for the next one.
* A worker is replaced only when its job was cancelled (Stop, a closed tab, a client that left),
  hung past its time, crashed or ran out of memory: it is killed, which is the only way to stop
  a compiled search from asyncio, and a fresh one starts at once (``Pool.restarts`` counts them
  by reason). Ending and starting processes happens in a thread of the pool, so the event
  loop never waits for it.
* Past ``queue`` waiting jobs, :meth:`Pool.reserve` raises :class:`Busy` at once.
* :meth:`Pool.stop` (the server stopping) ends every job now with :class:`Stopping`.
* Workers write temporary files only in the pool's own folder (``snakecube-serve-*``), one
  subfolder each, removed with the worker and with the pool, so a killed download leaves
  nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any

from snakecube.errors import InputError
from snakecube.web import answers, downloads

PROGRESS_EVERY = 0.25  # seconds between progress messages from a worker
PIPE_BYTES = 1 << 16  # a message this long is written to a worker's pipe without waiting
STOPPING = "the server is stopping; try again once it is back"


class Busy(Exception):
    """Every slot is working and the queue is full."""


class Stopping(Exception):
    """The server is stopping: the job was ended, or never started."""


class JobError(Exception):
    """A job failed for a reason that is not the user's input (a bug, a crash, a job past
    the server's time): one line."""


class Place:
    """A place in the pool, claimed by :meth:`Pool.reserve` for one job: :meth:`Pool.run`
    uses it and gives it back when the job ends; :meth:`release` gives it back if no job
    will use it (a request that ended first). Either happens once."""

    def __init__(self, pool: Pool) -> None:
        self._pool: Pool | None = pool

    def release(self) -> None:
        """Give the place back (once; later calls do nothing)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool._reserved -= 1

    def take(self) -> Pool:
        """The pool, for :meth:`Pool.run`; a place serves one job."""
        if self._pool is None:
            raise RuntimeError("this place in the pool was used or given back already")
        return self._pool


def _answer(kind: str, args: tuple[Any, ...], send: Callable[[Any], None]) -> Any:

    if kind == "solve":
        last = [0.0]

        def progress(done: int, total: int, found: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or done == total:
                last[0] = now
                send(("progress", {"done": done, "total": total, "found": found}))

        snake, box, region, seconds = args
        return answers.solve_answer(snake, box, region, seconds=seconds, progress=progress)
    if kind == "mismatch":  # a cube count that does not fit: the nearby designs that do
        return answers.mismatch(*args)
    if kind == "details":
        return answers.details(*args)
    if kind == "plan":
        return answers.plan_answer(*args)
    if kind == "download":
        return downloads.render(*args)
    if kind == "sleep":  # for tests: a job that holds its slot
        time.sleep(float(args[0]))
        return {"slept": args[0]}
    if kind == "bad":  # for tests: a job that reports bad input
        raise InputError(str(args[0]))
    if kind == "crash":  # for tests: a worker that dies in its job
        os._exit(3)
    raise JobError(f"unknown job {kind!r}")


def warm() -> None:
    """Solve, explain and plan the standard snake once, so that a worker's first job does
    not pay for imports and first-call set-up (the first click after the page loads)."""

    found = answers.solve_answer("standard")
    cells = found["solutions"][0]["cells"]
    answers.details("standard", "", "", cells)
    answers.plan_answer("standard", "", "", cells)


def work(conn: Connection, folder: str) -> None:
    """A worker process: answer jobs from ``conn`` one at a time until the pipe closes;
    temporary files go into ``folder`` (the pool removes it with the worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server: the server stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    warnings.simplefilter("ignore")
    tempfile.tempdir = folder
    with contextlib.suppress(Exception):  # a job that fails says why; warming is only speed
        warm()
    with contextlib.suppress(OSError, ValueError):
        conn.send(("ready", None))  # the server waits for this before it takes requests
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            out = ("done", _answer(kind, args, conn.send))
        except InputError as err:
            out = ("input", str(err))
        except MemoryError:
            out = ("memory", "out of memory; try a smaller target")
        except Exception as err:
            out = ("bug", f"{type(err).__name__}: {err}")
        try:
            conn.send(out)
        except (OSError, ValueError):
            return


def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


class _Slot:
    """One worker process, its pipe and its folder for temporary files."""

    def __init__(self, ctx: Any, root: str) -> None:
        self.folder = tempfile.mkdtemp(prefix="worker-", dir=root)
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=work, args=(child, self.folder), daemon=True)
        self.process.start()
        child.close()

    def wait_ready(self, seconds: float) -> None:
        """Wait (at most ``seconds``) for the worker to say it is warm."""
        with contextlib.suppress(EOFError, OSError):
            if self.conn.poll(seconds):
                self.conn.recv()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, OSError, ValueError):
            self.process.kill()
        self.process.join(2)
        self.conn.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class _Replace(Exception):
    """The job's worker must be replaced, for ``reason``; ``error`` is what the caller gets."""

    def __init__(self, reason: str, error: Exception) -> None:
        self.reason, self.error = reason, error


class Pool:
    """``size`` worker processes and at most ``queue`` jobs waiting for one."""

    def __init__(self, size: int, queue: int) -> None:
        self.size, self.queue = size, queue
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(
            [
                "snakecube.web.jobs",
                "snakecube.web.answers",
                "snakecube.search",
                "snakecube.explain.scene",
                "snakecube.explain.words",
                "snakecube.fold",
                "snakecube.nearby",
            ]
        )
        self._idle: asyncio.Queue[_Slot | None] = asyncio.Queue()  # None: stopping
        self._slots: set[_Slot] = set()
        self._running: set[_Slot] = set()
        self._reserved = 0
        self._stopping = False
        self._folder: str | None = None
        self.restarts: Counter[str] = Counter()  # workers replaced, by reason
        # Ending a worker (join, its folder) and starting one (a round trip to the
        # forkserver) block for milliseconds, more on a busy machine: done in this thread,
        # not in the event loop, which must answer /api/status meanwhile.
        self._spawner: ThreadPoolExecutor | None = ThreadPoolExecutor(
            1, thread_name_prefix="snakecube-pool"
        )

    def start(self, seconds: float = 30.0) -> None:
        """Start every worker process now and wait until each is warm (at most ``seconds``),
        so the page's first request meets a warm worker: the server takes requests only
        after this (measured: a first click right after the start took 1.9-5 s, not 0.3)."""
        self._folder = tempfile.mkdtemp(prefix="snakecube-serve-")
        fresh = [self._start_one() for _ in range(self.size)]
        for slot in fresh:
            slot.wait_ready(seconds)
            self._idle.put_nowait(slot)

    def _start_one(self) -> _Slot:
        assert self._folder is not None, "Pool.start() first"
        slot = _Slot(self._ctx, self._folder)
        self._slots.add(slot)
        return slot

    def pids(self) -> list[int]:
        """The worker processes' ids, running a job or idle."""
        return sorted(s.process.pid for s in list(self._slots) if s.process.pid)

    @property
    def busy(self) -> int:
        """Jobs running or waiting."""
        return self._reserved

    @property
    def stopping(self) -> bool:
        return self._stopping

    def reserve(self) -> Place:
        """Claim a place for one job, or raise Busy (or Stopping) at once; :meth:`run` uses
        the place."""
        if self._stopping:
            raise Stopping(STOPPING)
        if self._reserved >= self.size + self.queue:
            raise Busy("busy: every search slot is taken; try again in a moment")
        self._reserved += 1
        return Place(self)

    async def run(
        self,
        place: Place,
        kind: str,
        args: tuple[Any, ...],
        progress: Callable[[dict[str, Any]], Any] | None = None,
        seconds: float | None = None,
    ) -> Any:
        """Run a job in a slot, on a place from :meth:`reserve`; ``progress`` gets its
        progress messages. Bad input raises InputError and keeps the worker; cancelling the
        task (a closed connection), a job past ``seconds`` or a crash kills the worker and
        starts a fresh one."""
        place.take()
        try:
            slot = await self._idle.get()
            if slot is None or self._stopping:
                self._idle.put_nowait(slot)  # the next waiter stops too
                raise Stopping(STOPPING)
            self._running.add(slot)
            reason = "cancelled"  # unless the job ends otherwise
            try:
                result = await self._talk(slot, kind, args, progress, seconds)
                reason = ""
                return result
            except _Replace as err:
                reason = err.reason
                if self._stopping:
                    raise Stopping(STOPPING) from None
                raise err.error from None
            except (InputError, JobError):  # answered by a worker that is still well
                reason = ""
                raise
            finally:
                self._running.discard(slot)
                self._settle(slot, reason)
        finally:
            place.release()

    def _settle(self, slot: _Slot, reason: str) -> None:
        """Put the slot back when its job ended well, else replace its worker: killed now,
        ended and replaced in the spawner thread; the new one warms while it waits."""
        if not reason and not self._stopping:
            self._idle.put_nowait(slot)
            return
        self._slots.discard(slot)
        if self._spawner is None:  # closed: nothing to start again
            slot.kill()
            return
        with contextlib.suppress(ProcessLookupError, OSError, ValueError):
            slot.process.kill()
        if not self._stopping:
            self.restarts[reason] += 1
        renewed = asyncio.get_running_loop().run_in_executor(self._spawner, self._renew, slot)
        renewed.add_done_callback(self._renewed)

    def _renew(self, slot: _Slot) -> _Slot | None:
        """In the spawner thread: end ``slot``'s worker; a fresh one unless stopping."""
        slot.kill()
        if self._stopping or self._folder is None:
            return None
        return self._start_one()  # in _slots at once, so close() ends it whatever happens

    def _renewed(self, renewed: asyncio.Future[_Slot | None]) -> None:
        if renewed.cancelled() or renewed.exception() is not None:
            return
        fresh = renewed.result()
        if fresh is not None and not self._stopping:
            self._idle.put_nowait(fresh)

    async def _talk(
        self,
        slot: _Slot,
        kind: str,
        args: tuple[Any, ...],
        progress: Callable[[dict[str, Any]], Any] | None,
        seconds: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        message = ForkingPickler.dumps((kind, args))
        try:
            if len(message) < PIPE_BYTES:  # fits in the pipe: never waits
                slot.conn.send_bytes(message)
            else:  # a big region: a worker still warming up reads it only then
                await loop.run_in_executor(None, slot.conn.send_bytes, message)
        except (OSError, ValueError):
            raise _Replace("crashed", JobError("the search process ended unexpectedly")) from None
        deadline = None if seconds is None else loop.time() + seconds
        while True:
            ready = loop.create_future()
            fd = slot.conn.fileno()
            loop.add_reader(fd, _wake, ready)
            try:
                timeout = None if deadline is None else max(0.0, deadline - loop.time())
                await asyncio.wait_for(ready, timeout)
            except TimeoutError:
                error = JobError("the job took longer than the server allows")
                raise _Replace("timeout", error) from None
            finally:
                loop.remove_reader(fd)
            while slot.conn.poll():
                try:
                    tag, body = slot.conn.recv()
                except (EOFError, OSError):
                    error = JobError("the search process ended unexpectedly")
                    raise _Replace("crashed", error) from None
                if tag == "ready":  # a fresh worker, warm now
                    continue
                if tag == "progress":
                    if progress is not None:
                        await progress(body)
                    continue
                if tag == "done":
                    return body
                if tag == "input":
                    raise InputError(body)
                if tag == "memory":  # its heap may stay that big: a fresh process instead
                    raise _Replace("memory", InputError(body))
                raise JobError(body)

    def stop(self) -> None:
        """The server is stopping: no new job starts, waiting jobs and running ones end now
        with :class:`Stopping` (their processes killed)."""
        self._stopping = True
        self._idle.put_nowait(None)
        for slot in self._running:
            with contextlib.suppress(ProcessLookupError, OSError, ValueError):
                slot.process.kill()  # its job sees the pipe close, and ends

    def close(self) -> None:
        """End every worker process and remove the pool's folder (any state: idempotent)."""
        self._stopping = True
        if self._spawner is not None:
            self._spawner.shutdown(wait=True)  # a worker being started is in _slots after this
            self._spawner = None
        for slot in list(self._slots):
            slot.kill()
        self._slots.clear()
        self._running.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (and is not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
