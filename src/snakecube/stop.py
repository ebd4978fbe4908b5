"""Stopping the command-line tool: Ctrl-C, SIGTERM and SIGHUP, from its first instruction to
its last.

The tool passes through three phases, each with its own handler for the three signals:

1. **starting** (:func:`starting`, the first thing the entry point does, before the command
   line is imported): nothing has been found, so a signal prints ``snakecube: interrupted``
   and ends the process at once with exit code 130. No traceback can be printed, because no
   Python code is left to run.
2. **working** (:func:`working`): a signal raises ``KeyboardInterrupt`` in the main thread,
   as Ctrl-C does by default, so every search stops, keeps what it found, and the command
   prints it marked incomplete. Inside :func:`deferred` (writing an answer that must be
   whole, like a JSON document or a row of a table) the first signal waits until the block
   ends; a second one raises at once, so a write blocked on a full pipe can still be stopped.
3. **ending** (:func:`ending`, once the answer is out): a signal ends the process at once,
   with 130, without running exit handlers that could print a traceback.

SIGTERM and SIGHUP (what ``timeout``, batch schedulers and a closed terminal send) are treated
exactly as Ctrl-C, and also give exit code 130: "stopped, answer incomplete". Nothing here is
installed by the library: only :func:`snakecube.__main__.run` calls these, so a program that
imports snakecube keeps its own signal handling. A signal that arrives while the interpreter
itself is still starting, before the entry point runs, gets Python's own handling.

A ``KeyboardInterrupt`` raised while Python runs a finalizer or a garbage collection (a
worker's ``Process`` object being freed) is dropped by Python, which prints "Exception
ignored in ..." and a traceback instead. In the working phase such a drop prints nothing,
and the tool's long loops call :func:`poll`, which raises it again, so no Ctrl-C is ever
lost: ``snakecube.pool.run``, the flat count's, the census's (its waits and its jobs),
``generate``'s drawing, and every search's through its budget's ``out_of_time``
(tests/test_stop.py drops one into each). Work after a stopped search (telling solutions
found from the last end from the first) asks only the clock, and keeps them. A forked
worker starts with the flag down.

For tests, ``SNAKECUBE_READY_FILE=PATH`` makes the tool append a line to PATH as each phase's
handlers are in place (``starting``, ``working``), and ``busy`` at the first :func:`poll` (a
search, count or census has begun its long work), so a test can signal a process it knows is
running, or searching, instead of after a fixed delay. (The working phase begins before the
command's own imports: on a busy machine a fixed delay after it can still land before the
search.)
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

EXIT_INTERRUPTED = 130


class StopReason(enum.StrEnum):
    """Why a search, census or count stopped before its end (``stop_reason``; None when it
    ran to its end). A ``StrEnum``: JSON output and comparisons with the plain strings are
    unchanged."""

    LIMIT = "limit"  # the solution limit
    SECONDS = "seconds"  # the time limit
    NODES = "nodes"  # the node limit (deterministic, unlike a time limit)
    INTERRUPTED = "interrupted"  # Ctrl-C, SIGTERM or SIGHUP


STARTED = time.monotonic()  # as near to the process's start as the entry point can take it
SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

_deferring = False
_pending: int | None = None
signalled = False  # a stop signal came in the working phase (whatever it broke is a stop)
_busy = False  # poll() has been called: the long work has begun (marked once, for tests)


def _quit(signum: int, frame: FrameType | None) -> None:
    try:
        if "--json" in sys.argv[1:]:  # the answer is still one JSON document
            os.write(1, b'{"complete": false, "stop_reason": "interrupted"}\n')
        os.write(2, b"snakecube: interrupted\n")
    finally:
        os._exit(EXIT_INTERRUPTED)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed pipe: nothing more can reach it
            continue


def _leave(signum: int, frame: FrameType | None) -> None:
    _flush()  # the answer is out; keep what is buffered
    os._exit(EXIT_INTERRUPTED)


def _raise(signum: int, frame: FrameType | None) -> None:
    global _pending, signalled
    signalled = True
    if _deferring and _pending is None:
        _pending = signum
        return
    raise KeyboardInterrupt


def _install(handler: Callable[[int, FrameType | None], None]) -> None:
    for sig in SIGNALS:
        signal.signal(sig, handler)


def starting() -> None:
    """Phase 1: a signal ends the process at once, exit 130, one line on stderr."""
    _install(_quit)
    mark("starting")


def working() -> None:
    """Phase 2: a signal raises KeyboardInterrupt (deferred inside :func:`deferred`)."""
    _install(_raise)
    sys.unraisablehook = _unraisable
    mark("working")


def _unraisable(unraisable: Any) -> None:
    """A stop's KeyboardInterrupt that Python had to drop: nothing printed (:func:`poll`
    raises it again); anything else as Python prints it."""
    if signalled and isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def poll() -> None:
    """Raise KeyboardInterrupt if a stop signal came in the working phase (its own may have
    been dropped inside a finalizer); a long loop calls this now and then. Outside the tool
    (a program that imports snakecube) it does nothing."""
    global _busy
    if not _busy:
        _busy = True
        mark("busy")
    if signalled:
        raise KeyboardInterrupt


def mark(what: str) -> None:
    """Append ``what`` to the file named by ``SNAKECUBE_READY_FILE``, if set (for tests)."""
    path = os.environ.get("SNAKECUBE_READY_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(what + "\n")


def ending() -> None:
    """Phase 3: a signal flushes what was printed and ends the process, exit 130."""
    _install(_leave)


def worker() -> None:
    """In a forked worker process: SIGINT ignored (the parent decides what to keep), SIGTERM
    and SIGHUP back to their default (end the process), so the parent can stop it; a stop the
    parent had seen is not the worker's (its searches would raise at their first poll)."""
    global signalled, _pending
    signalled, _pending = False, None
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in SIGNALS:
        if sig != signal.SIGINT:
            signal.signal(sig, signal.SIG_DFL)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold a first stop signal until the block ends, then raise KeyboardInterrupt; a second
    signal raises at once. Outside the tool's ``working`` phase this changes nothing."""
    global _deferring, _pending
    if _deferring:  # an outer block holds the signal
        yield
        return
    _deferring, _pending = True, None
    try:
        yield
    finally:
        _deferring = False
    pending, _pending = _pending, None
    if pending is not None:
        raise KeyboardInterrupt


def exit(code: int) -> None:  # stop.exit, in the place of sys.exit
    """End the process with ``code`` once what was printed is flushed, without the
    interpreter's shutdown (where a late signal could print a traceback or kill the
    process)."""
    ending()
    _flush()
    os._exit(code)


def remaining(seconds: float | None, began: float = STARTED) -> float | None:
    """What is left of a time limit counted from ``began`` (by default the process's start),
    at least a millisecond, so a limit already spent still stops a search at its first
    check."""
    if seconds is None:
        return None
    return max(0.001, seconds - (time.monotonic() - began))


# -- a time limit for work with no budget of its own: drawing ------------------------------------
class OutOfTime(Exception):
    """Work stopped at its time limit (:func:`within`): nothing of it was written."""


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "snakecube_deadline", default=None
)


@contextlib.contextmanager
def within(seconds: float | None, began: float = STARTED) -> Iterator[None]:
    """A time limit of ``seconds`` counted from ``began`` for the work in the block: its
    long loops (a sheet's pages, a GIF's frames, the flat layouts drawn) call
    :func:`on_time`, which raises :class:`OutOfTime` once it has run out. A search keeps
    its own budget (``search.options.Budget``); this is for work that has none. Rejected:
    a deadline passed down every drawing function (a dozen signatures for one number)."""
    at = None if seconds is None else began + seconds
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def on_time() -> None:
    """Raise :class:`OutOfTime` if the limit of the enclosing :func:`within` has passed (and
    ``KeyboardInterrupt`` after a dropped Ctrl-C, as :func:`poll` does)."""
    poll()
    if late():
        raise OutOfTime


def late() -> bool:
    """Has the limit of the enclosing :func:`within` passed? For work that keeps what it
    found when its time is up (the fold planner's searches), where :func:`on_time` would
    throw it away."""
    at = _DEADLINE.get()
    return at is not None and time.monotonic() >= at
