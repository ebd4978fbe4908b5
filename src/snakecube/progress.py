"""A progress bar for long searches: shown on a terminal within a second, else silent.

The bars are ``progress(done, units, found)`` callbacks. Work whose units are unequal says
how far it is in a measure of its own with ``progress.work(done, total)`` (the census: the
forecast seconds of work done and in all; ``generate``: designs found and asked for): the
bar's share and its time left then follow that measure, at the speed seen so far, and the
units done are shown beside it.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any


class _Bar:
    """A ``progress(done, units, found)`` callback drawing a tqdm bar on stderr, with
    ``found`` after it as '12 found' (or '12 ' + ``tally``).

    Nothing is drawn during the first ``delay`` seconds (from ``began``, a
    ``time.monotonic()`` such as the command's start, else from the first call), so quick
    searches stay silent; then the bar is redrawn at most every ``interval`` seconds, even
    while no unit finishes.
    """

    def __init__(
        self,
        delay: float,
        interval: float = 0.2,
        desc: str = "searching",
        unit: str = "unit",
        began: float | None = None,
        tally: str = "found",
        auto: bool = False,
    ) -> None:
        self._desc, self._unit, self._tally = desc, unit, tally
        self._auto = auto  # tqdm.auto's bar: a widget in a notebook
        self._delay = delay
        self._interval = interval
        self._began: float | None = began  # None: the first call
        self._drawn = 0.0
        self._bar: Any = None
        self._work: tuple[float, float] | None = None

    def work(self, done: float, total: float) -> None:
        """How far the work is in its own measure: the share and the time left follow it."""
        self._work = (float(done), float(total))

    def __call__(self, done: int, total: int, found: int) -> None:
        now = time.monotonic()
        if self._began is None:
            self._began = now
        if now - self._began < self._delay or now - self._drawn < self._interval:
            return
        if self._bar is None:
            if self._auto:
                from tqdm.auto import tqdm
            else:
                from tqdm import tqdm  # imported only when a search runs long enough to show it

            size = shutil.get_terminal_size((80, 24))  # a new pty may report 0 x 0
            shares = self._work is not None  # the bar's share is the work's, units beside it
            self._bar = tqdm(
                total=1.0 if shares else (total or None),  # 0: unknown (restarts)
                unit=self._unit,
                desc=self._desc,
                file=sys.stderr,
                leave=False,
                ncols=size.columns or 80,
                nrows=size.lines or 24,
                mininterval=0,
                smoothing=0 if shares else 0.3,  # the work's average speed since the start
                bar_format=_SHARES if shares else None,
            )
        postfix = f"{found} {self._tally}"
        if self._work is not None:
            finished, whole = self._work
            self._bar.total = max(whole, finished, 1e-9)
            self._bar.n = finished
            of = f"/{total}" if total else ""
            postfix = f"{done}{of} {self._unit}s, {found} {self._tally}"
        else:
            self._bar.n = done
        self._bar.set_postfix_str(postfix, refresh=False)
        self._bar.refresh()
        self._drawn = now

    def clear(self) -> None:
        """Take the bar off the terminal until the next call (before printing lines)."""
        if self._bar is not None:
            self._bar.clear()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


# A bar whose share is the work's: percent, time spent and left, then the units and finds.
_SHARES = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"


class _Lines:
    """A ``progress(done, units, found)`` callback for a log file: one line every
    ``interval`` seconds, for work long enough to be run in the background."""

    def __init__(self, interval: float, stream: Any, desc: str, unit: str, tally: str) -> None:
        self._interval, self._stream, self._desc, self._unit = interval, stream, desc, unit
        self._tally = tally
        self._began = self._drawn = time.monotonic()
        self._work: tuple[float, float] | None = None

    def work(self, done: float, total: float) -> None:
        """How far the work is in its own measure: each line says the time left by it."""
        self._work = (float(done), float(total))

    def __call__(self, done: int, total: int, found: int) -> None:
        now = time.monotonic()
        if now - self._drawn < self._interval:
            return
        self._drawn = now
        of = f"/{total}" if total else ""
        spent = now - self._began
        left = ""
        if self._work is not None and self._work[0] > 0:
            finished, whole = self._work
            left = f", about {max(0.0, whole - finished) * spent / finished:.0f} s left"
        print(
            f"{self._desc}: {done}{of} {self._unit}s, {found} {self._tally}, {spent:.0f} s{left}",
            file=self._stream,
            flush=True,
        )

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(
    delay: float = 0.5,
    stream: Any = None,
    desc: str = "searching",
    unit: str = "unit",
    lines: float | None = None,
    began: float | None = None,
    tally: str = "found",
) -> _Bar | _Lines | None:
    """A bar for work units if ``stream`` (stderr) is a terminal, drawn from ``delay``
    seconds after ``began`` (the command's start; default: the first progress); else, if
    ``lines`` is given, a line of progress every ``lines`` seconds; else None. ``tally``
    names what the callback's third number counts."""
    stream = sys.stderr if stream is None else stream
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if interactive:
        return _Bar(delay, desc=desc, unit=unit, began=began, tally=tally)
    return None if lines is None else _Lines(lines, stream, desc, unit, tally)


def notebook_bar(desc: str = "searching", unit: str = "unit") -> _Bar:
    """A bar for the library's ``progress=True``: tqdm.auto's (a widget in a notebook, text
    on a terminal's stderr), drawn from the first progress on."""
    return _Bar(0.0, desc=desc, unit=unit, auto=True)
