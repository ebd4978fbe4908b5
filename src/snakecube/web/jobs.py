"""A bounded pool of search processes for the server.

Each slot is one long-lived worker process (started by a forkserver that has snakecube's
search loaded, so a fresh one is ready in milliseconds). A job runs in one slot; the event
loop only waits on the slot's pipe, so a compiled search never blocks it.

* A job that ends, with an answer or with bad input (``InputError``), leaves its worker warm
  for the next one, unless the worker still holds more than a quarter of its memory cap
  (``RECYCLE_SHARE``): then it is replaced.
* A worker is replaced when its job was cancelled (Stop, a closed tab, a client that left),
  ran past its time, crashed or ran out of memory: it is killed, which is the only way to stop
  a compiled search from asyncio, and a fresh one starts at once (``Pool.restarts`` counts
  them by reason). Ending and starting processes happens in a thread of the pool, so the event
  loop never waits for it.
* A worker's memory is capped (``memory`` MB, 1024 by default, as ``RLIMIT_DATA``): a job past
  it fails with one line, and the worker is replaced. Some libraries end the process at the
  cap instead of raising MemoryError (OpenBLAS exits 1 when its buffers cannot be had: they
  are allocated before the cap now, ``_blas_buffers``). So a worker's stderr goes to a file
  in its folder, its last words, and a worker that ends in a job whose last words speak of
  memory gets the job the same one line (``died_of``); any other end is "the search process
  ended unexpectedly", and its last line goes to the server's log. Rejected: the exit code
  alone (exit 1 and SIGABRT are not only memory), and the worker's peak memory (the server
  cannot read it once the worker is gone).
* A worker that cannot start is tried again, after 0.1 s, then twice as long each time up to
  ``RETRY_SECONDS``; the first failure is logged (one line), and so is the recovery. While no
  worker is left, :meth:`Pool.reserve` refuses new jobs (:class:`NoWorkers`) and
  ``Pool.problem`` says why.
* Past ``queue`` waiting jobs, :meth:`Pool.reserve` raises :class:`Busy` at once; a job that
  waits longer than its ``wait`` seconds for a worker ends with :class:`Busy` too.
* **A fair share for each address** (issue 62: ten long searches from one address kept
  everyone else out for a minute). The pool runs one process more than ``size``; one
  address runs at most ``size`` jobs at once, so the last process is always free for an
  address with nothing running, and it holds at most ``size`` + WAITING_EACH places (past
  that, :class:`Busy` says why). A free process goes to the waiting job whose address runs
  the fewest, the earliest first. One person's page (a count, its first solution's
  pictures and its fold plan at once) still runs on every process but one. Rejected: one
  running job per address (a page's pictures would wait for its count), a waiting list
  in arrival order only (the finding).
* :meth:`Pool.stop` (the server stopping) ends every job now with :class:`Stopping`.
* Workers die with the server: killed, or killed by any signal, the server leaves none running
  (``PR_SET_PDEATHSIG`` on the forkserver, which ends with the server). The forkserver and the
  workers ignore Ctrl-C, SIGTERM and SIGHUP sent to the whole process group (a closed
  terminal): the server alone decides when a job ends, so every client gets its answer.
* Workers write temporary files only in the pool's own folder (``snakecube-serve-PID-*``),
  one subfolder each, removed with the worker and with the pool, so a killed download leaves
  nothing behind. A folder whose server is gone (``kill -9``, the OOM killer) is removed, with
  the forkserver's ``pymp-*`` folder it names, when the next server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import multiprocessing
import multiprocessing.util
import os
import shutil
import signal
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from snakecube.errors import InputError
from snakecube.pool import follow_parent
from snakecube.web import answers, downloads

PROGRESS_EVERY = 0.25  # seconds between progress messages from a worker
PIPE_BYTES = 1 << 16  # a message this long is written to a worker's pipe without waiting
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
MEMORY_MB = 1024  # data (heap, anonymous maps) a worker may hold, by default: RLIMIT_DATA
RECYCLE_SHARE = 0.25  # a worker resident past this share of its cap after a job is replaced
RETRY_SECONDS = (0.1, 5.0)  # a failed worker start is retried after 0.1 s, doubling up to 5 s
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
FOLDER_PREFIX = "snakecube-serve-"  # + the server's pid and start time: its owner
MP_FOLDER_FILE = "multiprocessing"  # in the pool's folder: the forkserver's folder, one line
STOPPING = "the server is stopping; try again once it is back"
WAITING_EACH = 2  # jobs one address may have waiting, besides those it runs
LAST_WORDS = "last-words"  # in a worker's folder: what it wrote to stderr (see _last_words)
# What a library says as it ends the process at the memory cap (OpenBLAS's "Memory
# allocation still failed", C++'s std::bad_alloc, Python's fatal MemoryError, glibc's ENOMEM).
MEMORY_WORDS = ("memory", "bad_alloc", "cannot allocate")

log = logging.getLogger("uvicorn.error")


class Busy(Exception):
    """Every slot is working and the queue is full, or no slot was free in time."""


class NoWorkers(Busy):
    """No worker process is left and none can start now (``Pool.problem`` says why)."""


class Stopping(Exception):
    """The server is stopping: the job was ended, or never started."""


class TooLong(Exception):
    """A job ran past the time the server gives it, and was ended: one line."""


class JobError(Exception):
    """A job failed for a reason that is not the user's input (a bug, a crash): one line."""


class Place:
    """A place in the pool, claimed by :meth:`Pool.reserve` for one job of ``client`` (an
    address): :meth:`Pool.run` uses it and gives it back when the job ends; :meth:`release`
    gives it back if no job will use it (a request that ended first). Either happens
    once."""

    def __init__(self, pool: Pool, client: str = "") -> None:
        self._pool: Pool | None = pool
        self.client = client

    def release(self) -> None:
        """Give the place back (once; later calls do nothing)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool._reserved -= 1
            pool._places[self.client] -= 1
            if pool._places[self.client] <= 0:
                del pool._places[self.client]

    def take(self) -> Pool:
        """The pool, for :meth:`Pool.run`; a place serves one job."""
        if self._pool is None:
            raise RuntimeError("this place in the pool was used or given back already")
        return self._pool


# -- in a worker process ------------------------------------------------------------------------
def _answer(kind: str, args: tuple[Any, ...], send: Callable[[Any], None]) -> Any:

    if kind == "solve":
        last = [0.0]

        def progress(done: int, total: int, found: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or done == total:
                last[0] = now
                send(("progress", {"done": done, "total": total, "found": found}))

        snake, target, seconds, *first = args
        big = bool(first and first[0]) and answers.cells(snake, target) > answers.SMALL_ON_SERVER
        limit = 1 if big else None  # a first solution to draw, then the page asks for the count
        data = answers.solve_answer(snake, target, seconds=seconds, limit=limit, progress=progress)
        data["too_big"] = downloads.refusals(snake, target, data)  # not offered, said at once
        return data
    if kind == "mismatch":  # a cube count that does not fit: the nearby designs that do
        return answers.mismatch(*args)
    if kind == "details":
        return answers.details(*args)
    if kind == "plan":
        return answers.plan_answer(*args)
    if kind == "wrong":
        return answers.wrong_answer(*args)
    if kind == "download":
        return downloads.render(*args)
    if kind == "make":
        return downloads.make(*args)
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
    answers.details("standard", "", cells)
    answers.plan_answer("standard", "", cells)


def _cap_memory(limit: int) -> None:
    """Cap this process's data (heap and anonymous maps) at ``limit`` bytes: past it an
    allocation fails (MemoryError) instead of growing until the machine swaps."""
    with contextlib.suppress(ImportError, ValueError, OSError, AttributeError):
        import resource

        hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
        soft = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _peak(reset: bool = False) -> int:
    """This process's peak resident memory since the last reset, in bytes (0 where /proc
    does not say); ``reset``: start again from now."""
    try:
        if reset:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # resets the peak (VmHWM) to the current resident set
            return 0
        with open("/proc/self/status") as f:
            line = next(x for x in f if x.startswith("VmHWM:"))
        return int(line.split()[1]) << 10
    except (OSError, StopIteration, ValueError, IndexError):
        return 0


def _let_the_forkserver_end() -> None:
    """Close this worker's copy of the pipe whose end tells the forkserver to stop: the
    forkserver gives one to every process it forks (for a nested forkserver, which workers
    never use), so a worker busy with a long job kept the forkserver, and so itself (its
    ``PR_SET_PDEATHSIG`` comes when the forkserver ends), running after the server died."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(alive, int):
        with contextlib.suppress(OSError):
            os.close(alive)
        server._forkserver_alive_fd = None  # type: ignore[union-attr]


def _blas_buffers() -> None:
    """Allocate OpenBLAS's buffers (numpy's, for the pictures) before the memory cap: it
    allocates them at its first matrix product, and when that fails under the cap it ends
    the process (exit 1, "Memory allocation still failed") instead of raising MemoryError, so
    a picture past the cap was "the search process ended unexpectedly" now and then."""
    try:
        import numpy
    except ImportError:  # no pictures here (the show extra): no BLAS either
        return
    numpy.ones((128, 128)) @ numpy.ones((128, 128))


def _last_words(folder: str) -> None:
    """Send this process's stderr to ``LAST_WORDS`` in its folder, with faulthandler's
    tracebacks: a library that meets the memory cap may end the process there and then
    instead of raising MemoryError (OpenBLAS did, with exit 1), and what it said is how the
    server tells that from a crash (:func:`died_of`). The server's own log stays its own."""
    with contextlib.suppress(OSError):
        fd = os.open(
            os.path.join(folder, LAST_WORDS), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600
        )
        os.dup2(fd, 2)
        os.close(fd)
        faulthandler.enable()


def too_big(memory: int) -> str:
    """The answer to a job that needed more than ``memory`` bytes."""
    return f"this needs more than the {memory >> 20} MB of memory the server gives one job"


def last_words(folder: str) -> str:
    """The end of what the worker of ``folder`` wrote to stderr (:func:`_last_words`)."""
    try:
        with open(os.path.join(folder, LAST_WORDS), "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - 4096))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def died_of(folder: str, memory: int) -> Exception:
    """What a job's caller gets when its worker ended in it: the memory message if the
    worker's last words (:func:`_last_words`) speak of memory, else "ended unexpectedly"."""
    said = last_words(folder).lower()
    if any(word in said for word in MEMORY_WORDS):
        return InputError(too_big(memory))
    return JobError("the search process ended unexpectedly")


def work(conn: Connection, folder: str, server: int, memory: int = MEMORY_MB << 20) -> None:
    """A worker process: answer jobs from ``conn`` one at a time until the pipe closes;
    temporary files go into ``folder`` (the pool removes it with the worker). It ends with
    its forkserver, which ends with the ``server`` process."""
    follow_parent(os.getppid())  # the forkserver: it ends when the server does
    if not pid_alive(server):  # the server ended before the line above
        os._exit(1)
    _let_the_forkserver_end()
    for sig in STOP_SIGNALS:  # the server decides when a job ends, and kills this process
        signal.signal(sig, signal.SIG_IGN)
    warnings.simplefilter("ignore")
    tempfile.tempdir = folder
    _last_words(folder)
    _blas_buffers()
    _cap_memory(memory)
    with contextlib.suppress(Exception):  # a job that fails says why; warming is only speed
        warm()
    with contextlib.suppress(OSError, ValueError):
        conn.send(("ready", None))  # the server waits for this before it takes requests
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return
        _peak(reset=True)
        try:
            out = ("done", _answer(kind, args, conn.send))
        except InputError as err:
            out = ("input", str(err))
        except MemoryError:
            out = ("memory", too_big(memory))
        except Exception as err:
            # Libraries that meet the cap may say so otherwise (Pillow: "quantization error")
            near = _peak() > memory // 2
            out = ("memory", too_big(memory)) if near else ("bug", f"{type(err).__name__}: {err}")
        try:
            conn.send(out)
        except (OSError, ValueError):
            return


# -- in the server ------------------------------------------------------------------------------
def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


def resident_bytes(pid: int) -> int:
    """Process ``pid``'s resident memory in bytes (0 where /proc does not say)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _started_at(pid: int) -> str:
    """When process ``pid`` started (clock ticks after boot, from /proc; "0" where /proc does
    not say): with the pid, it names the process even after the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return "0"


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (and is not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def remove_stale(where: str | None = None) -> list[str]:
    """Remove the pool folders in ``where`` (the temporary folder) whose server is gone, and
    the forkserver folders they name; the names removed."""
    root = Path(where or tempfile.gettempdir())
    removed = []
    with contextlib.suppress(OSError):
        for folder in root.glob(FOLDER_PREFIX + "*"):
            pid, started, *_ = [*folder.name[len(FOLDER_PREFIX) :].split("-"), "", ""]
            if not pid.isdigit() or (pid_alive(int(pid)) and _started_at(int(pid)) == started):
                continue
            with contextlib.suppress(OSError):
                named = (folder / MP_FOLDER_FILE).read_text().strip()
                if Path(named).parent == root and Path(named).name.startswith("pymp-"):
                    shutil.rmtree(named, ignore_errors=True)
                    removed.append(Path(named).name)
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder.name)
    return removed


def _block_stops() -> None:
    """In the pool's thread: the stop signals stay pending here (the main thread takes
    them), and the processes started from here (the forkserver, and the workers it forks)
    inherit them blocked, so a signal to the whole process group leaves them running."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


class _Slot:
    """One worker process, its pipe and its folder for temporary files."""

    def __init__(self, ctx: Any, root: str, memory: int) -> None:
        os.makedirs(root, exist_ok=True)  # a cleaner of temporary files may have removed it
        self.folder = tempfile.mkdtemp(prefix="worker-", dir=root)
        try:
            self.conn, child = ctx.Pipe()
        except OSError:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        try:
            self.process = ctx.Process(
                target=work, args=(child, self.folder, os.getpid(), memory), daemon=True
            )
            self.process.start()
        except BaseException:
            self.conn.close()
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        finally:
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


def _why(err: BaseException) -> str:
    """A failed start, in one line."""
    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return f"{type(err).__name__}: {' '.join(str(text).split())[:200]}"


class Pool:
    """``size`` worker processes and one more (:attr:`processes`), each capped at ``memory``
    MB, and at most ``queue`` jobs waiting for one, each for at most ``wait`` seconds; a
    fair share for each address (see the module's notes)."""

    def __init__(self, size: int, queue: int, wait: float = 90.0, memory: int = MEMORY_MB) -> None:
        self.size, self.queue, self.wait, self.memory = size, queue, wait, memory
        # One thread of BLAS in a worker (numpy comes with the pictures): OpenBLAS sizes its
        # buffers by the cores it sees, and on a many-core machine they alone passed a small
        # --memory cap at import. A worker is one job at a time; the pool is the parallelism.
        for name in BLAS_THREADS:
            os.environ.setdefault(name, "1")
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(
            [
                "snakecube.web.jobs",
                "snakecube.web.answers",
                "snakecube.search",
                "snakecube.explain.scene",
                "snakecube.explain.prose",
                "snakecube.fold",
                "snakecube.nearby",
            ]
        )
        self._free: list[_Slot] = []  # idle workers
        self._waiting: list[tuple[str, asyncio.Future[_Slot | None]]] = []  # in arrival order
        self._runs: Counter[str] = Counter()  # jobs running, by address
        self._places: Counter[str] = Counter()  # places held, by address
        self._slots: set[_Slot] = set()
        self._running: set[_Slot] = set()
        self._reserved = 0
        self._stopping = False
        self._folder: str | None = None
        self.restarts: Counter[str] = Counter()  # workers replaced, by reason
        self.problem: str | None = None  # why workers do not start, while they do not
        self._recycle = int(RECYCLE_SHARE * (memory << 20))
        self._retry = RETRY_SECONDS[0]
        self._retrying: asyncio.TimerHandle | None = None
        # Ending a worker (join, its folder) and starting one (a round trip to the
        # forkserver) block for milliseconds, more on a busy machine: done in this thread,
        # not in the event loop, which must answer /api/status meanwhile.
        self._spawner: ThreadPoolExecutor | None = ThreadPoolExecutor(
            1, thread_name_prefix="snakecube-pool", initializer=_block_stops
        )

    async def start(self, seconds: float = 30.0) -> None:
        """Start every worker process now and wait until each is warm (at most ``seconds``),
        so the page's first request meets a warm worker: the server takes requests only
        after this (measured: a first click right after the start took 1.9-5 s, not 0.3).
        Folders of servers that are gone are removed first."""
        remove_stale()
        me = os.getpid()
        self._folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{me}-{_started_at(me)}-")
        assert self._spawner is not None, "Pool.start() after close()"
        loop = asyncio.get_running_loop()
        for _ in range(self.processes):
            try:
                slot = await loop.run_in_executor(self._spawner, self._start_one, seconds)
            except Exception as err:
                self._failed(err)
            else:
                self._idle(slot)
        with contextlib.suppress(OSError):  # the forkserver's folder, for remove_stale
            mp_folder = multiprocessing.util.get_temp_dir()
            Path(self._folder, MP_FOLDER_FILE).write_text(mp_folder + "\n")

    def _start_one(self, seconds: float = 0.0) -> _Slot:
        """In the spawner thread: a fresh worker (warm, if ``seconds``); in ``_slots`` at
        once, so close() ends it whatever happens."""
        assert self._folder is not None, "Pool.start() first"
        resource_tracker.ensure_running()  # its start unblocks SIGINT and SIGTERM here
        _block_stops()
        try:
            slot = _Slot(self._ctx, self._folder, self.memory << 20)
        except (FileNotFoundError, ConnectionRefusedError):
            if self._slots:
                raise
            # The forkserver's socket is gone (a cleaner of temporary files) and no worker
            # is left to lose: start a new forkserver (its workers end with the old one).
            self._new_forkserver()
            slot = _Slot(self._ctx, self._folder, self.memory << 20)
        self._slots.add(slot)
        if seconds:
            slot.wait_ready(seconds)
        return slot

    @staticmethod
    def _new_forkserver() -> None:
        from multiprocessing import forkserver

        with contextlib.suppress(OSError, AttributeError):
            forkserver._forkserver._stop()  # type: ignore[attr-defined]
        os.makedirs(multiprocessing.util.get_temp_dir(), exist_ok=True)

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

    @property
    def processes(self) -> int:
        """Worker processes: ``size``, and one kept for the addresses with nothing running."""
        return self.size + 1

    def reserve(self, client: str = "") -> Place:
        """Claim a place for one job of ``client`` (an address), or raise Busy, NoWorkers or
        Stopping at once; :meth:`run` uses the place."""
        if self._stopping:
            raise Stopping(STOPPING)
        self._no_workers()
        if self._reserved >= self.processes + self.queue:
            raise Busy("busy: every search slot is taken; try again in a moment")
        each = self.size + WAITING_EACH
        if self._places[client] >= each:
            raise Busy(
                f"busy: your address has {each} jobs running or waiting, the most one address "
                "may have (the rest are kept for others); try again when one ends"
            )
        self._reserved += 1
        self._places[client] += 1
        return Place(self, client)

    def _idle(self, slot: _Slot) -> None:
        """A worker is free: to the waiting job whose address runs the fewest."""
        self._free.append(slot)
        self._dispatch()

    def _dispatch(self) -> None:
        """Give free workers to waiting jobs: of the addresses running fewer than ``size``,
        the one running the fewest, the earliest first."""
        self._waiting = [w for w in self._waiting if not w[1].done()]
        while self._free:
            ready = [w for w in self._waiting if self._runs[w[0]] < self.size]
            if not ready:
                return
            client, future = min(ready, key=lambda w: self._runs[w[0]])  # the earliest of ties
            self._waiting.remove((client, future))
            self._runs[client] += 1
            future.set_result(self._free.pop(0))

    def _done(self, client: str) -> None:
        """A job of ``client`` that had a worker ended."""
        self._runs[client] -= 1
        if self._runs[client] <= 0:
            del self._runs[client]

    def _no_workers(self) -> None:
        if self.problem is not None and not self._slots:
            raise NoWorkers(
                f"no search process can start ({self.problem}); the server "
                "keeps trying: try again in a moment"
            )

    async def _take(self, client: str) -> _Slot:
        """A worker for a job of ``client``, within ``wait`` seconds (:meth:`_dispatch`
        decides whose turn it is); NoWorkers as soon as none is left."""
        if self._stopping:
            raise Stopping(STOPPING)
        loop = asyncio.get_running_loop()
        end = loop.time() + self.wait
        turn: asyncio.Future[_Slot | None] = loop.create_future()
        self._waiting.append((client, turn))
        self._dispatch()
        try:
            while not turn.done():
                self._no_workers()
                left = end - loop.time()
                if left <= 0:
                    raise Busy(
                        f"busy: no search process was free within {self.wait:g} s; "
                        "try again in a moment"
                    )
                await asyncio.wait({turn}, timeout=min(left, 1.0))
        except BaseException:  # Busy, or the job cancelled (its client gone) meanwhile
            if not turn.done():
                turn.cancel()
            elif not turn.cancelled() and turn.result() is not None:
                self._done(client)  # got as the job ended: given back
                self._idle(turn.result())  # type: ignore[arg-type]
            raise
        slot = turn.result()
        if slot is None or self._stopping:
            if slot is not None:
                self._done(client)
                self._free.append(slot)
            raise Stopping(STOPPING)
        return slot

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
        task (a closed connection), a job past ``seconds`` (TooLong) or a crash kills the
        worker and starts a fresh one."""
        place.take()
        try:
            slot = await self._take(place.client)
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
                self._done(place.client)
                if not reason and resident_bytes(slot.process.pid) > self._recycle:
                    reason = "grown"  # its heap may never shrink: a fresh process instead
                self._settle(slot, reason)
                self._dispatch()  # the address may run another of its jobs now
        finally:
            place.release()

    def _settle(self, slot: _Slot, reason: str) -> None:
        """Put the slot back when its job ended well, else replace its worker: killed now,
        ended and replaced in the spawner thread; the new one warms while it waits."""
        if not reason and not self._stopping:
            self._idle(slot)
            return
        self._slots.discard(slot)
        if self._spawner is None:  # closed: nothing to start again
            slot.kill()
            return
        with contextlib.suppress(ProcessLookupError, OSError, ValueError):
            slot.process.kill()
        if not self._stopping:
            self.restarts[reason] += 1
        self._spawner.submit(slot.kill)
        self._renew()

    def _renew(self) -> None:
        """Start a worker in the spawner thread; it joins the idle ones once started."""
        self._retrying = None
        if self._stopping or self._spawner is None:
            return
        loop = asyncio.get_running_loop()
        started = loop.run_in_executor(self._spawner, self._start_one)
        started.add_done_callback(self._started)

    def _started(self, started: asyncio.Future[_Slot]) -> None:
        if started.cancelled():
            return
        err = started.exception()
        if err is not None:
            self._failed(err)
            return
        fresh = started.result()
        if self.problem is not None:
            log.warning(
                "search processes start again; %d of %d running", len(self._slots), self.processes
            )
            self.problem = None
        self._retry = RETRY_SECONDS[0]
        if self._stopping:
            return  # close() ends it
        self._idle(fresh)

    def _failed(self, err: BaseException) -> None:
        """A worker did not start: say so once, try again later, doubling the wait."""
        why = _why(err)
        if self.problem is None:
            running, everyone = len(self._slots), self.processes
            log.warning(
                "a search process could not start (%s); %d of %d running; trying "
                "again every few seconds",
                why,
                running,
                everyone,
            )
        self.problem = why
        if self._stopping:
            return
        loop = asyncio.get_running_loop()
        self._retrying = loop.call_later(self._retry, self._renew)
        self._retry = min(2 * self._retry, RETRY_SECONDS[1])

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
            raise self._died(slot) from None
        deadline = None if seconds is None else loop.time() + seconds
        while True:
            ready = loop.create_future()
            fd = slot.conn.fileno()
            loop.add_reader(fd, _wake, ready)
            try:
                timeout = None if deadline is None else max(0.0, deadline - loop.time())
                await asyncio.wait_for(ready, timeout)
            except TimeoutError:
                late = TooLong(
                    f"the job took longer than the {seconds:g} s the server "
                    "gives one, and was ended"
                )
                raise _Replace("timeout", late) from None
            finally:
                loop.remove_reader(fd)
            while slot.conn.poll():
                try:
                    tag, body = slot.conn.recv()
                except (EOFError, OSError):
                    raise self._died(slot) from None
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

    def _died(self, slot: _Slot) -> _Replace:
        """The worker of ``slot`` ended in its job: at the memory cap, by its last words, or
        a crash."""
        error = died_of(slot.folder, self.memory << 20)
        if isinstance(error, InputError):
            return _Replace("memory", error)
        if not self._stopping:  # a crash, not the server ending it: say what it said, once
            said = last_words(slot.folder).strip().splitlines()
            log.warning("a search process ended in its job: %s", said[-1] if said else "no word")
        return _Replace("crashed", error)

    def stop(self) -> None:
        """The server is stopping: no new job starts, waiting jobs and running ones end now
        with :class:`Stopping` (their processes killed)."""
        self._stopping = True
        if self._retrying is not None:
            self._retrying.cancel()
        for _client, turn in self._waiting:
            if not turn.done():
                turn.set_result(None)
        self._waiting.clear()
        for slot in self._running:
            with contextlib.suppress(ProcessLookupError, OSError, ValueError):
                slot.process.kill()  # its job sees the pipe close, and ends

    def close(self) -> None:
        """End every worker process and remove the pool's folder (any state: idempotent)."""
        self._stopping = True
        if self._retrying is not None:
            self._retrying.cancel()
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
