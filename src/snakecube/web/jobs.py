"""A bounded pool of search processes for the server.

Each slot is one long-lived worker process (started by a forkserver that has snakecube's
search loaded, so a fresh one is ready in milliseconds). A job runs in one slot; the event
loop only waits on the slot's pipe, so a compiled search never blocks it. Stopping a job (the
Stop button, a closed tab, a server limit) kills its process and starts a fresh one: the
compiled kernel cannot be interrupted from asyncio, and a killed process leaves nothing behind.
Past ``queue`` waiting jobs, :meth:`Pool.reserve` raises :class:`Busy` at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import time
import warnings
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from snakecube.errors import InputError
from snakecube.web import answers, downloads

PROGRESS_EVERY = 0.25  # seconds between progress messages from a worker


class Busy(Exception):
    """Every slot is working and the queue is full."""


class JobError(Exception):
    """A job failed for a reason that is not the user's input (a bug): one line."""


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
    if kind == "details":
        return answers.details(*args)
    if kind == "plan":
        return answers.plan_answer(*args)
    if kind == "download":
        return downloads.render(*args)
    if kind == "sleep":  # for tests: a job that holds its slot
        time.sleep(float(args[0]))
        return {"slept": args[0]}
    raise JobError(f"unknown job {kind!r}")


def warm() -> None:
    """Solve, explain and plan the standard snake once, so that a worker's first job does
    not pay for imports and first-call set-up (the first click after the page loads)."""

    found = answers.solve_answer("standard")
    cells = found["solutions"][0]["cells"]
    answers.details("standard", "", "", cells)
    answers.plan_answer("standard", "", "", cells)


def work(conn: Connection) -> None:
    """A worker process: answer jobs from ``conn`` one at a time until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server: the server stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    warnings.simplefilter("ignore")
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
            out = ("input", "out of memory; try a smaller target")
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
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=work, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.warm = False  # its first message is "ready", once warm

    def wait_ready(self, seconds: float) -> None:
        """Wait (at most ``seconds``) for the worker to say it is warm."""
        with contextlib.suppress(EOFError, OSError):
            if self.conn.poll(seconds):
                self.conn.recv()
            self.warm = True

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, OSError, ValueError):
            self.process.kill()
        self.process.join(2)
        self.conn.close()


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
        self._free: list[_Slot] = []
        self._running: set[_Slot] = set()
        self._started = 0
        self._waiting = 0
        self._reserved = 0
        self._cond: asyncio.Condition | None = None

    def start(self, seconds: float = 30.0) -> None:
        """Start every worker process now and wait until each is warm (at most ``seconds``),
        so the page's first request meets a warm worker: the server takes requests only
        after this (measured: a first click right after the start took 1.9-5 s, not 0.3)."""
        while self._started < self.size:
            self._free.append(_Slot(self._ctx))
            self._started += 1
        for slot in self._free:
            slot.wait_ready(seconds)

    def pids(self) -> list[int]:
        """The worker processes' ids, running a job or idle."""
        return [s.process.pid for s in [*self._free, *self._running] if s.process.pid]

    @property
    def busy(self) -> int:
        """Jobs running or waiting."""
        return self._reserved

    def reserve(self) -> None:
        """Claim a place for one job, or raise Busy at once; :meth:`run` uses the place."""
        if self._reserved >= self.size + self.queue:
            raise Busy("busy: every search slot is taken; try again in a moment")
        self._reserved += 1

    def release(self) -> None:
        """Give back a place claimed by :meth:`reserve` that :meth:`run` will not use."""
        self._reserved -= 1

    async def run(
        self,
        kind: str,
        args: tuple[Any, ...],
        progress: Callable[[dict[str, Any]], Any] | None = None,
        seconds: float | None = None,
    ) -> Any:
        """Run a job reserved with :meth:`reserve` in a slot; ``progress`` gets its progress
        messages. Cancelling the task (a closed connection) kills the job's process."""
        if self._cond is None:
            self._cond = asyncio.Condition()
        try:
            async with self._cond:
                self._waiting += 1
                try:
                    await self._cond.wait_for(lambda: bool(self._free) or self._started < self.size)
                finally:
                    self._waiting -= 1
                if self._free:
                    slot = self._free.pop()
                else:
                    slot = _Slot(self._ctx)
                    self._started += 1
            healthy = False
            self._running.add(slot)
            try:
                result = await self._talk(slot, kind, args, progress, seconds)
                healthy = True
                return result
            finally:
                self._running.discard(slot)
                if healthy:
                    self._free.append(slot)
                else:  # stopped, cancelled or broken: the process goes, a fresh one comes
                    slot.kill()
                    self._started -= 1
                async with self._cond:
                    self._cond.notify()
        finally:
            self._reserved -= 1

    async def _talk(
        self,
        slot: _Slot,
        kind: str,
        args: tuple[Any, ...],
        progress: Callable[[dict[str, Any]], Any] | None,
        seconds: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        slot.conn.send((kind, args))
        deadline = None if seconds is None else loop.time() + seconds
        while True:
            ready = loop.create_future()
            fd = slot.conn.fileno()
            loop.add_reader(fd, _wake, ready)
            try:
                timeout = None if deadline is None else max(0.0, deadline - loop.time())
                await asyncio.wait_for(ready, timeout)
            except TimeoutError:
                raise JobError("the job took longer than the server allows") from None
            finally:
                loop.remove_reader(fd)
            while slot.conn.poll():
                try:
                    tag, body = slot.conn.recv()
                except EOFError:
                    raise JobError("the search process ended unexpectedly") from None
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
                raise JobError(body)

    def close(self) -> None:
        """End every worker process."""
        for slot in [*self._free, *self._running]:
            slot.kill()
        self._free.clear()
        self._running.clear()
        self._started = 0


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (and is not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
